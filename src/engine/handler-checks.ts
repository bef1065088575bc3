import type { Operation } from '../contract/operations.js';

interface HandlerSets {
  serviceOperations: Operation[];
  controlOperations: Operation[];
  serviceHandlers: Readonly<Record<string, unknown>>;
  publicHandlers: Readonly<Record<string, unknown>>;
  controlHandlers: Readonly<Record<string, unknown>>;
}

/**
 * The contract and the handlers must name the same operations, and exactly the operations
 * without a scope are public: checked once when the engine is built, so a contract change
 * without its handler fails at start, not on the first call.
 */
export function assertHandlersMatch(sets: HandlerSets): void {
  assertEveryOperationHandled(sets.serviceOperations, { ...sets.serviceHandlers, ...sets.publicHandlers });
  for (const op of sets.serviceOperations) {
    if ((op.scope === null) !== op.operationId in sets.publicHandlers) {
      throw new Error(`${op.operationId}: an operation without x-required-scope must be public, and only such a one`);
    }
  }
  assertEveryOperationHandled(sets.controlOperations, sets.controlHandlers);
}

function assertEveryOperationHandled(operations: Operation[], handlers: Readonly<Record<string, unknown>>): void {
  const ids = new Set(operations.map((o) => o.operationId));
  const missing = [...ids].filter((id) => !(id in handlers));
  const extra = Object.keys(handlers).filter((id) => !ids.has(id));
  if (missing.length || extra.length) {
    throw new Error(`Operations and handlers disagree: no handler for [${missing.join(', ')}]; no operation for [${extra.join(', ')}]`);
  }
}
