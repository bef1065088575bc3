/**
 * The contract suite: checks that drive a server from outside (REST, MCP, OAuth) and judge each
 * answer against the contract; the rule catalogue (`rules/`), the model phase (`model/`) and the
 * properties over the request contract (`properties/`). Run by `content-contracts` or under Vitest
 * (`contracts/suite.contract.ts`).
 */
export { runSuiteCommand } from './command.js';
export { configFromEnv } from './config.js';
export { formatReport, writeSummary } from './report.js';
export { SuiteRun } from './runner.js';
