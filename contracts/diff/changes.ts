/**
 * What a contract diff reports: one change, its rule, where it is and how much it matters to
 * clients already written against the old contract.
 */
export type Severity = 'breaking' | 'warning' | 'compatible';

export interface Change {
  /** A stable rule id, e.g. `response-property-removed`. */
  rule: string;
  severity: Severity;
  /** The operation (`GET /api/v1/builds/{}`) or `document`. */
  operation: string;
  /** Where in the operation: `query parameter limit`, `response 200 body .build.status`… */
  location: string;
  message: string;
}

export interface DiffResult {
  breaking: number;
  warnings: number;
  compatible: number;
  changes: Change[];
}

/** Collects changes for one operation; the walkers only say what they saw. */
export class ChangeLog {
  readonly changes: Change[] = [];

  add(rule: string, severity: Severity, operation: string, location: string, message: string): void {
    this.changes.push({ rule, severity, operation, location, message });
  }

  result(): DiffResult {
    const order: Record<Severity, number> = { breaking: 0, warning: 1, compatible: 2 };
    const changes = [...this.changes].sort(
      (a, b) => order[a.severity] - order[b.severity] || a.operation.localeCompare(b.operation) || a.location.localeCompare(b.location),
    );
    const count = (s: Severity) => changes.filter((c) => c.severity === s).length;
    return { breaking: count('breaking'), warnings: count('warning'), compatible: count('compatible'), changes };
  }
}
