import { describeClientReport } from '../client-report/summary.js';
import type { Simulator } from '../simulator.js';

/** What `--client-report` prints at shutdown: each account whose client broke a rule, then how many kept them all. */
export function clientReportSummary(simulator: Simulator): string {
  const lines: string[] = [];
  let clean = 0;
  for (const account of simulator.internal.store.accounts.values()) {
    const report = simulator.clientReport(account.id);
    if (!report || report.findings.length === 0) clean++;
    else lines.push(describeClientReport(report, account.name));
  }
  lines.push(`Client report: ${lines.length} account${lines.length === 1 ? '' : 's'} with rules broken, ${clean} without.`);
  return `${lines.join('\n')}\n`;
}
