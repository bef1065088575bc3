import type { ControlHandlerOf, HandlerContext, ServiceHandlerContext, ServiceHandlerOf } from '../engine/handler-types.js';
import type { Reply } from '../engine/types.js';
import type { SimulatorState } from '../state/simulator-state.js';

/** The engine's handler types, on the simulator's whole state: what every operation is written against. */
export type ServiceContext<Body = any> = ServiceHandlerContext<SimulatorState, Body>;
export type ControlContext<Body = any> = HandlerContext<SimulatorState, Body>;

export type { Reply };

export type ServiceHandler = ServiceHandlerOf<SimulatorState>;
export type ControlHandler = ControlHandlerOf<SimulatorState>;
