import { expect, it } from 'vitest';

it('passes first', () => expect(1).toBe(1));
it('takes a second', async () => {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(2).toBe(2);
});
