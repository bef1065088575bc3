import { describe, expect, it } from 'vitest';
import { harness } from '../support/harness.js';
import { buildBody, counts, ownAccount } from './support.js';

/**
 * A build's end, as the report judges polls by it: a failed build has ended as a completed one
 * has (it is read from the build's schedule at the read's time, not from the answer's text), so
 * reads after it answered `failed` are polls after the end, never polls of a running build.
 */
describe('the client report and a build that failed', () => {
  it('counts reads after `failed` as polls after the end, allowing one, and never as polling too fast', async () => {
    const h = harness({ speed: 'realistic', rateLimits: { perKey: { default: 5 } } });
    const client = await ownAccount(h, 'Failing', 6);
    const rw = { key: client.keys.readWrite };
    const targetId = await h.target(client.keys.readWrite);
    const made = await h.post('/api/v1/builds', buildBody(targetId, 'Espresso at home [fail:drafting]'), { ...rw, headers: { 'Idempotency-Key': 'fails-1' } });
    expect(made.status).toBe(202);
    const path = `/api/v1/builds/${made.body.buildId}`;
    let status = '';
    for (let polls = 0; status !== 'failed' && polls < 40; polls++) {
      status = (await h.get(path, rw)).body.build.status;
      if (status !== 'failed') await client.advance(30_000);
    }
    expect(status).toBe('failed');
    // One more read (for its failure's details) is allowed.
    await client.advance(1000);
    expect((await h.get(path, rw)).body.build.status).toBe('failed');
    expect((await client.report()).findings).toEqual([]);
    // Two more, a second apart: polling went on after the end.
    for (let i = 0; i < 2; i++) {
      await client.advance(1000);
      expect((await h.get(path, rw)).body.build.status).toBe('failed');
    }
    const report = await client.report();
    expect(counts(report)).toEqual({ 'poll-after-end': 2 });
    expect((report.findings[0] as unknown as { examples: { problem: string }[] }).examples[0]?.problem).toMatch(/after it answered failed$/);
  });
});
