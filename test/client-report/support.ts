import { expect } from 'vitest';
import { T0, type Harness } from '../support/harness.js';

/** An account of its own, on its own clock frozen at T0, in a harness: what each client below works in. */
export async function ownAccount(h: Harness, name: string, balance = 100) {
  const made = await h.post('/_sim/accounts', { name, balance, clock: { frozenAt: new Date(T0).toISOString() } }, { key: null });
  expect(made.status).toBe(201);
  const { accountId, keys } = made.body as { accountId: string; keys: { readWrite: string; readOnly: string } };
  return {
    accountId,
    keys,
    /** Moves this account's clock only. */
    async advance(ms: number) {
      const moved = await h.post(`/_sim/accounts/${accountId}/clock/advance`, { ms }, { key: null });
      expect(moved.status).toBe(200);
    },
    async now(): Promise<number> {
      return (await h.get(`/_sim/accounts/${accountId}/clock`, { key: null })).body.nowMs as number;
    },
    async report() {
      const answer = await h.get(`/_sim/accounts/${accountId}/client-report`, { key: null });
      expect(answer.status).toBe(200);
      return answer.body as { accountId: string; findings: { rule: string; count: number; examples: { via: string }[] }[]; rulesOff: string[] };
    },
    /** A new key of this account, by the API. */
    async newKey(scopes: string[] = ['svc:read']): Promise<{ id: string; value: string }> {
      const made = await h.post('/api/v1/keys', { name: `key ${Math.random()}`, scopes }, { key: keys.readWrite });
      expect(made.status).toBe(201);
      return { id: made.body.id, value: made.body.value };
    },
  };
}

export const buildBody = (targetId: string, objective: string) => ({ targetId, buildType: 'single', kind: 'blog', objective, researchPolicy: 'required' });

/** The report's findings as rule → count. */
export function counts(report: { findings: { rule: string; count: number }[] }): Record<string, number> {
  return Object.fromEntries(report.findings.map((f) => [f.rule, f.count]));
}
