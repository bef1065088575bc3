/** Contract diff: what a new version of an OpenAPI document breaks for clients of the old one. */
export { runDiffCommand } from './command.js';
