/** The validation proxy: forwards a client's traffic to a server, judges each exchange against the contract, and records HAR. */
export { runProxyCommand } from './command.js';
