import { describe, expect, it } from 'vitest';
import { createSimulator } from '../simulator.js';
import { banner, exposureWarning } from './banner.js';

describe('what the CLI prints at start', () => {
  it('warns when listening beyond loopback, saying what protects what', () => {
    const open = exposureWarning('0.0.0.0', false, true);
    expect(open).toMatch(/^content-sim: WARNING: listening on 0\.0\.0\.0, beyond loopback/);
    expect(open).toMatch(/demo keys above are random for this run/);
    expect(open).toMatch(/\/_sim answers loopback clients only/);
    expect(open).toMatch(/limited per client address/);
    const guarded = exposureWarning('10.0.0.5', true, false);
    expect(guarded).toMatch(/\/_sim needs the control token/);
    expect(guarded).toMatch(/demo keys are derived from the seed/);
  });

  it('shows a demo key only when the (restored) state holds it', () => {
    const simulator = createSimulator({ frozenAt: 0 });
    const printed0 = banner('http://127.0.0.1:4010', simulator, true);
    expect(printed0).toContain(simulator.keys.readWrite);
    expect(printed0).toContain('http://127.0.0.1:4010/docs');
    expect(printed0).toMatch(/dashboard +http:\/\/127\.0\.0\.1:4010\/ /);
    expect(banner('http://127.0.0.1:4010', simulator, false)).not.toContain('dashboard');
    const other = createSimulator({ frozenAt: 0, randomDemoKeys: true });
    other.restore(simulator.snapshot());
    const printed = banner('http://127.0.0.1:4010', other, true);
    expect(printed).not.toContain(other.keys.readWrite);
    expect(printed).toContain('(not in the restored state');
  });

  it('names the instance and the prefix its keys and share links carry, behind a load balancer', () => {
    const one = createSimulator({ frozenAt: 0, instance: 1 });
    const printed = banner('http://127.0.0.1:4011', one, true);
    expect(printed).toContain('  instance        1  (keys svc_live_01…, share links /api/v1/shared/01…: route them here)');
    expect(printed).toContain(one.keys.readWrite);
    expect(banner('http://127.0.0.1:4010', createSimulator({ frozenAt: 0 }), true)).not.toMatch(/^ {2}instance/m);
  });
});
