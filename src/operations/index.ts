import type { ControlHandler, ServiceHandler } from './context.js';
import * as builds from './builds.js';
import * as control from './control.js';
import * as deliverables from './deliverables.js';
import * as targets from './targets.js';
import * as tokens from './tokens.js';

/** Handlers by operationId; the engine checks at start that they match openapi.yaml exactly. */
export const serviceHandlers: Readonly<Record<string, ServiceHandler>> = {
  ...tokens,
  ...targets,
  ...builds,
  ...deliverables,
};

/** Operations of openapi.yaml that need no key (`security: []`). */
export const publicHandlers: Readonly<Record<string, ControlHandler>> = {};

export const controlHandlers: Readonly<Record<string, ControlHandler>> = { ...control };
