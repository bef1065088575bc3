/** A check that cannot run here (a missing credential, a switched-off group, a budget): reported as skipped, with the reason. */
export class SkipSignal extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SkipSignal';
  }
}

/** A broken rule. The message starts with the rule, then says what was seen. */
export class ContractFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractFailure';
  }
}

/** Fails the check with the rule it states unless the condition holds. */
export function expectThat(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ContractFailure(message);
}

export function expectEqual<T>(actual: T, expected: T, what: string): void {
  if (!Object.is(actual, expected) && JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new ContractFailure(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}
