/** The package's entry point: the simulator, the app that serves it, its engine types and the node and express adapters. */
export { createSimulator, DEFAULT_SEED, type Simulator, type SimulatorOptions } from './simulator.js';
export { createExpressApp, type ExpressAdapterOptions, type SimulatorApp } from './adapters/express.js';
export { createNodeHandler, type NodeHandler, type NodeHandlerOptions, type RequestLogEntry } from './adapters/node-handler.js';
export { createApp, type App, type AppOptions, type FetchClient } from './app/create-app.js';
export { memoryAssets, noAssets, type AssetSource } from './app/assets.js';
export { fileSystemAssets } from './app/file-assets.js';
export type { AppResponse, BodyFeed } from './app/fault-effects.js';
export type { EngineRequest, EngineResponse } from './engine/types.js';
export type { HandledResponse } from './engine/engine.js';
export type { SeededKeys, RoleKeys } from './seed/accounts.js';
export { SPEED_PRESETS, type SpeedPreset } from './builds/pipeline.js';
export { KEY_LIMITS, USER_LIMIT, type RateLimitClass } from './limits/rate-limiter.js';
export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type SimulationSnapshot } from './state/snapshot.js';
export { instanceOf, instanceTag, MAX_INSTANCE } from './scale/instance.js';
