import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { drivesTheRuntime, sameOnEveryNode } from './support/once.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('what the repeat passes on the newer Nodes run', () => {
  const once = sameOnEveryNode(root);

  it('leave out the files that ask the engine, the suite or a pure module a question in-process', () => {
    for (const file of ['src/random/rng.test.ts', 'src/store/account.test.ts', 'test/auth.test.ts', 'test/contract-validator.test.ts', 'test/violations/seeded-1.test.ts']) expect(once, file).toContain(file);
  });

  it('keep every file that drives a process, a socket, a browser, npm or the file system, and every adapter, MCP and package test', () => {
    for (const file of ['test/cli.test.ts', 'test/contract-proxy.test.ts', 'test/shutdown.test.ts', 'test/adapters/app-fetch.test.ts', 'test/mcp/mcp-flow.test.ts', 'test/package/pack-install.test.ts', 'src/adapters/bounded-event-stream.test.ts', 'test/state/write-ahead-log.test.ts', 'test/observe/dashboard.test.ts']) expect(once, file).not.toContain(file);
    expect(once.some((file) => /^test\/(adapters|mcp|package|browser)\//.test(file))).toBe(false);
  });

  it('read what a test file drives from its own source', () => {
    expect(drivesTheRuntime("import { spawn } from 'node:child_process';")).toBe(true);
    expect(drivesTheRuntime('const server = await startCli([]);')).toBe(true);
    expect(drivesTheRuntime("writeFileSync(join(dir, 'state.json'), '{}');")).toBe(true);
    expect(drivesTheRuntime("import { harness } from './support/harness.js';\nconst h = harness();")).toBe(false);
    expect(drivesTheRuntime("import { readFileSync } from 'node:fs';")).toBe(false);
  });
});
