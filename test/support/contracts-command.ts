import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs `content-contracts` (contracts/run.ts under tsx) as a user would, with only the flags
 * given: the child reads CONTRACT_* from its environment, so none of this process's is passed,
 * but for the model phase's seed, which the test run fixes (vitest.config.ts).
 */
export function runContractsCommand(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && (!k.startsWith('CONTRACT_') || k === 'CONTRACT_MODEL_SEED')));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'contracts/run.ts', ...args], { cwd: root, env: { ...env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
