/**
 * The simulator's layers, read from the ground up; each imports only from the layers below it:
 *
 *   ground      errors/, credentials/, clock/, random/, contract/, content/, media/, version.ts
 *   store       store/ (accounts, their records and their own indexes)
 *   auth        auth/ (who calls: a key or a token, looked up in the store)
 *   engine      engine/ (routing, validation, limits, the reply): runs what the composition hands it
 *   services    builds/, library/, targets/, keys/, … , observe/, client-report/, oauth/
 *   state       state/ (the internal state's shape; saving, restoring, resetting the stores)
 *   persist     persist/ (the state file: its log, checkpoints, recovery, and every file-system call of storage)
 *   scenarios   scenarios/ (declared states, loaded through the engine's own requests)
 *   operations  operations/ (the handlers)
 *   surfaces    mcp/, app/, adapters/, cli/, fixtures/, simulator.ts, index.ts
 *
 * Type-only imports count too (tsPreCompilationDeps): a type from above is a dependency on above.
 * The circle rule covers the whole repository (src/, contracts/, scripts/, test/, bench/), and
 * contracts/ stays a black-box client: it imports nothing from src/. Its tools (suite/, proxy/, drift/,
 * diff/, scene/) use each other only through their index.ts, and share only contracts/shared/.
 * Run by `npm run lint:deps` (part of `npm test`): any violation fails it.
 */
const SERVICES = 'builds|library|targets|sharing|keys|chat|images|audio|suggestions|ledger|seed';
const ABOVE_ENGINE = `${SERVICES}|observe|client-report|oauth|operations|scenarios|state|mcp|app|adapters|cli|web|fixtures`;
const SURFACES = 'mcp|app|adapters|cli|web|fixtures';
/** Tests may build their fixtures with anything; only the circle rule applies to them. */
const TESTS = '\\.test\\.ts$';
const ROOT_SURFACES = '^src/(simulator|index)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other cannot be read, tested or moved one at a time.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contracts-black-box',
      severity: 'error',
      comment: 'The contract suite checks any implementation from outside: it imports nothing of the simulator.',
      from: { path: '^contracts/' },
      to: { path: '^src/' },
    },
    {
      name: 'contracts-shared-below-tools',
      severity: 'error',
      comment: 'contracts/shared/ is what the suite, the proxy, drift, diff and scene share: it imports none of them.',
      from: { path: '^contracts/shared/' },
      to: { path: '^contracts/', pathNot: '^contracts/shared/' },
    },
    {
      name: 'contracts-tools-by-entry',
      severity: 'error',
      comment: "A tool of contracts/ uses another one only through that tool's index.ts, its one entry point.",
      from: { path: '^contracts/(suite|proxy|drift|diff|scene)/' },
      to: { path: '^contracts/(suite|proxy|drift|diff|scene)/', pathNot: ['^contracts/$1/', '^contracts/[^/]+/index\\.ts$'] },
    },
    {
      name: 'contracts-commands-on-top',
      severity: 'error',
      comment: 'The command (run.ts) and the Vitest entry of the suite stand above every tool: nothing imports them.',
      from: { path: '^contracts/' },
      to: { path: '^contracts/(run|suite\\.contract)\\.ts$' },
    },
    {
      name: 'ground-floor',
      severity: 'error',
      comment: 'Errors and their codes, credentials, the clock and random streams are what everything stands on: they import nothing of the simulator above them.',
      from: { path: '^src/(errors|credentials|clock|random)/', pathNot: TESTS },
      to: { path: '^src/', pathNot: '^src/(errors|credentials|clock|random)/' },
    },
    {
      name: 'store-below-services',
      severity: 'error',
      comment: 'The store keeps records and their indexes; minting keys, scheduling builds and the rest belong above it.',
      from: { path: '^src/store/', pathNot: TESTS },
      to: { path: [`^src/(auth|engine|limits|${ABOVE_ENGINE})/`, ROOT_SURFACES] },
    },
    {
      name: 'auth-below-engine',
      severity: 'error',
      comment: 'Authentication reads the store; the engine calls it, never the other way round.',
      from: { path: '^src/auth/', pathNot: TESTS },
      to: { path: [`^src/(engine|${ABOVE_ENGINE})/`, ROOT_SURFACES] },
    },
    {
      name: 'engine-below-services',
      severity: 'error',
      comment: 'The engine runs what the composition hands it on each call (handlers, the catch-up of builds, fault decisions, journal recording, mounted sub-apps); it imports no service, observe/, oauth/ or operations/ module.',
      from: { path: '^src/(engine|limits)/', pathNot: TESTS },
      to: { path: [`^src/(${ABOVE_ENGINE})/`, ROOT_SURFACES] },
    },
    {
      name: 'services-below-operations',
      severity: 'error',
      comment: 'Services do the work; the operations that call them, and the surfaces that serve them, sit above.',
      from: { path: `^src/(${SERVICES}|observe|client-report|oauth)/`, pathNot: TESTS },
      to: { path: [`^src/(operations|scenarios|state|${SURFACES})/`, ROOT_SURFACES] },
    },
    {
      name: 'operations-below-surfaces',
      severity: 'error',
      comment: 'Operations and the state they orchestrate are served by the surfaces; they never reach into them.',
      from: { path: '^src/(operations|scenarios|state)/', pathNot: TESTS },
      to: { path: [`^src/(${SURFACES})/`, ROOT_SURFACES] },
    },
    {
      name: 'state-below-operations',
      severity: 'error',
      comment: 'Saving, restoring and resetting orchestrate the stores; the control operations call them, not the other way round.',
      from: { path: '^src/state/', pathNot: TESTS },
      to: { path: '^src/(operations|scenarios)/' },
    },
    {
      name: 'persist-below-surfaces',
      comment: 'The durable layer (the state file, its log, checkpoints, and every file-system call they make) is used by the CLI; it reaches no surface, operation or scenario.',
      severity: 'error',
      from: { path: '^src/persist/', pathNot: TESTS },
      to: { path: [`^src/(operations|scenarios|${SURFACES})/`, ROOT_SURFACES] },
    },
    {
      name: 'no-tests-in-sources',
      severity: 'error',
      comment: 'Shipped code never imports a test or a test helper.',
      from: { path: '^src/', pathNot: '\\.test\\.ts$' },
      to: { path: ['\\.test\\.ts$', '^test/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.generated\\.js$', '^src/web/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    cache: false,
  },
};
