import { clientReportOf, type ClientReportJson } from '../client-report/client-report.js';
import { isRuleId } from '../client-report/rules.js';
import { notFound, validationError } from '../errors/api-error.js';
import type { SimulatorState } from '../state/simulator-state.js';
import type { ControlHandler } from './context.js';

function reportOf(sim: SimulatorState, accountId: string): ClientReportJson {
  const report = clientReportOf(sim).report(accountId);
  if (!report) throw notFound('account', accountId);
  return report;
}

/** How the account's client kept the rules for clients: each rule it broke, with counts and examples. */
export const getClientReport: ControlHandler = ({ sim, params }) => ({ status: 200, json: reportOf(sim, params.path.accountId as string) });

/** Forgets what the account's client did so far (a new test on the same account); its rules switched off stay off. */
export const clearClientReport: ControlHandler = ({ sim, params }) => {
  const accountId = params.path.accountId as string;
  const account = sim.store.accounts.get(accountId);
  if (!account) throw notFound('account', accountId);
  clientReportOf(sim).clear(account, true);
  return { status: 200, json: reportOf(sim, accountId) };
};

/** Which rules this account's client is not judged by (for a test that breaks one on purpose). */
export const setClientRules: ControlHandler = ({ sim, params, body }) => {
  const accountId = params.path.accountId as string;
  const { off } = body as { off: string[] };
  const unknown = off.flatMap((rule, i) => (isRuleId(rule) ? [] : [{ path: `body.off[${i}]`, message: `is not a client rule: ${JSON.stringify(rule)}` }]));
  if (unknown.length) throw validationError(unknown);
  if (!clientReportOf(sim).setRulesOff(accountId, off.filter(isRuleId))) throw notFound('account', accountId);
  return { status: 200, json: reportOf(sim, accountId) };
};
