import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import type { SimulatorTestFixtures, SimulatorWorkerFixtures } from '../../../src/fixtures/playwright.js';

/**
 * Two spec files on two workers at once, against one running simulator (SIM_BASE_URL): each
 * worker loads its own scenario into accounts of its own, and drives the same page.
 */
export default defineConfig<SimulatorTestFixtures, SimulatorWorkerFixtures>({
  testDir: import.meta.dirname,
  testMatch: '*.spec.ts',
  workers: 2,
  fullyParallel: true,
  retries: 0,
  outputDir: join(tmpdir(), 'content-sim-playwright-results'),
  timeout: 60_000,
  reporter: [['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'results.json' }]],
  use: {
    // Debian's Chromium: never a downloaded browser.
    launchOptions: { executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] },
    apiBaseUrl: 'https://api.example.test',
    simulatorOptions: { baseUrl: process.env.SIM_BASE_URL },
  },
});
