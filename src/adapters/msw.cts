/**
 * The msw adapter for CommonJS projects. The adapter is an ES module (Node loads it with
 * `require` since 20.19); what this file adds is its types, read against msw's CommonJS
 * declarations, the ones `require('msw/node')` gives such a project. Typed against msw's ES
 * module declarations instead, its handlers would not fit that project's `setupServer`.
 */
import type { RequestHandler } from 'msw';
import type { Simulator, SimulatorOptions } from '../simulator.js';
import type { MswHandlerOptions } from './msw.js';

interface MswAdapter {
  /** msw request handlers that answer through the simulator's engine. */
  createMswHandlers(simulator: Simulator, options?: MswHandlerOptions): RequestHandler[];
  /** A new simulator and its handlers, for `setupServer(...handlers)`. */
  simulatorHandlers(options?: SimulatorOptions & MswHandlerOptions): { simulator: Simulator; handlers: RequestHandler[] };
}

const adapter: MswAdapter = require('./msw.js');
export = adapter;
