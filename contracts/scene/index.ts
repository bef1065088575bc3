/** From a recording to a scene: the last state a HAR shows, written as a scenario the simulator serves, with a mapping of its ids. */
export { runSceneCommand } from './command.js';
