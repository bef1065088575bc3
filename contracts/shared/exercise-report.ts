import type { ExerciseLog } from './exercise-log.js';
import type { OperationInfo } from './openapi-model.js';
import { readRequestSchemas } from './request-schema.js';

interface Reached {
  reached: number;
  total: number;
}

export interface ParameterExercise {
  /** `query.limit`, `header.idempotency-key`, `body.kind`. */
  name: string;
  exercised: boolean;
  values: string[];
  /** Values of an enumerated query parameter that no request sent. */
  missedValues: string[];
}

export interface OperationExerciseReport {
  operationId: string;
  method: string;
  path: string;
  calls: number;
  statuses: { documented: number[]; seen: number[]; missed: number[]; undocumented: number[] };
  parameters: ParameterExercise[];
  errorCodes: string[];
}

/** What a run exercised of the contract, and what it did not reach. */
export interface ExerciseReport {
  totals: { operations: Reached; statuses: Reached; parameters: Reached; errorCodes: Reached };
  operations: OperationExerciseReport[];
  errorCodes: { documented: string[]; seen: string[]; missed: string[] };
  unmatchedRequests: number;
}

/**
 * Sets what a run did against what the contract holds. A 5xx is documented on every
 * operation but never provoked on purpose, so it is not counted as missed.
 */
export function exerciseReport(operations: readonly OperationInfo[], log: ExerciseLog, contractFile?: string): ExerciseReport {
  const schemas = readRequestSchemas(contractFile);
  const count = { operations: [0, 0], statuses: [0, 0], parameters: [0, 0] };
  const reports = operations.map((op): OperationExerciseReport => {
    const seen = log.operations.get(op.id);
    const documented = op.statuses.map(Number).filter((s) => Number.isInteger(s) && s < 500);
    const statusesSeen = [...(seen?.statuses ?? [])].sort((a, b) => a - b);
    const names = [
      ...op.parameters.filter((p) => p.in !== 'path').map((p) => ({ name: `${p.in}.${p.in === 'header' ? p.name.toLowerCase() : p.name}`, enum: p.in === 'query' && Array.isArray(p.schema.enum) ? (p.schema.enum as unknown[]).map(String) : [] })),
      ...(schemas.bodyFields.get(op.id) ?? []).map((f) => ({ name: `body.${f}`, enum: [] as string[] })),
    ];
    const parameters = names.map(({ name, enum: values }): ParameterExercise => {
      const sent = [...(seen?.parameters.get(name) ?? [])];
      return { name, exercised: sent.length > 0, values: sent.filter((v) => v !== '*').sort(), missedValues: values.filter((v) => !sent.includes(v)) };
    });
    tally(count.operations, (seen?.calls ?? 0) > 0 ? 1 : 0, 1);
    tally(count.statuses, documented.filter((s) => statusesSeen.includes(s)).length, documented.length);
    tally(count.parameters, parameters.filter((p) => p.exercised).length, parameters.length);
    return {
      operationId: op.id,
      method: op.method,
      path: op.path,
      calls: seen?.calls ?? 0,
      statuses: { documented, seen: statusesSeen, missed: documented.filter((s) => !statusesSeen.includes(s)), undocumented: statusesSeen.filter((s) => !op.statuses.includes(String(s))) },
      parameters,
      errorCodes: [...(seen?.errorCodes ?? [])].sort(),
    };
  });
  const codesSeen = [...new Set([...reports.flatMap((r) => r.errorCodes), ...log.unmatchedErrorCodes])].sort();
  const codes = schemas.errorCodes.filter((c) => !/^INTERNAL|UNAVAILABLE/.test(c));
  const missedCodes = codes.filter((c) => !codesSeen.includes(c));
  const reached = ([r, t]: number[]) => ({ reached: r as number, total: t as number });
  return {
    totals: { operations: reached(count.operations), statuses: reached(count.statuses), parameters: reached(count.parameters), errorCodes: { reached: codes.length - missedCodes.length, total: codes.length } },
    operations: reports,
    errorCodes: { documented: schemas.errorCodes, seen: codesSeen, missed: missedCodes },
    unmatchedRequests: log.unmatched,
  };
}

function tally(counter: number[], reached: number, total: number): void {
  counter[0]! += reached;
  counter[1]! += total;
}

/** The console form: the totals, then per operation what was not reached. */
export function formatExerciseReport(report: ExerciseReport): string[] {
  const { totals: t } = report;
  const ratio = (r: Reached) => `${r.reached}/${r.total}`;
  const lines = [
    `EXERCISED: ${ratio(t.operations)} operations called, ${ratio(t.statuses)} documented statuses seen (5xx not counted), ${ratio(t.parameters)} parameters and body fields sent, ${ratio(t.errorCodes)} error codes seen`,
  ];
  for (const op of report.operations) {
    const gaps: string[] = [];
    if (op.calls === 0) gaps.push('never called');
    else {
      if (op.statuses.missed.length) gaps.push(`statuses ${op.statuses.missed.join(', ')}`);
      const params = op.parameters.filter((p) => !p.exercised).map((p) => p.name);
      if (params.length) gaps.push(`not sent: ${params.join(', ')}`);
      const values = op.parameters.filter((p) => p.exercised && p.missedValues.length).map((p) => `${p.name}=${p.missedValues.join('|')}`);
      if (values.length) gaps.push(`values not sent: ${values.join(', ')}`);
    }
    if (op.statuses.undocumented.length) gaps.push(`undocumented statuses answered: ${op.statuses.undocumented.join(', ')}`);
    if (gaps.length) lines.push(`  ${op.operationId} (${op.method} ${op.path}): ${gaps.join('; ')}`);
  }
  if (report.errorCodes.missed.length) lines.push(`  error codes never seen: ${report.errorCodes.missed.join(', ')}`);
  // Not a fault: the suite asks for a path the API lacks and a method a path lacks on purpose (the 404 and 405 rules).
  if (report.unmatchedRequests) lines.push(`  ${report.unmatchedRequests} request(s) matched no operation of the contract: an unknown path or a method a path lacks, sent on purpose to see the 404 and 405 answers (or, through the proxy, by your client)`);
  return lines;
}
