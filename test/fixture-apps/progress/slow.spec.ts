import { expect, it } from 'vitest';

it('passes first', () => expect(1).toBe(1));
// Three seconds: the worker sends test results in batches, and on a loaded machine the first
// test's result can take over a second to reach the reporter.
it('takes three seconds', async () => {
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  expect(2).toBe(2);
});
