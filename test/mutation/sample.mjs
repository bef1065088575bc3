/**
 * The sample of src/ that `npm run mutation` mutates: the code behind what the contract states
 * (tokens and prices, idempotency, rate-limit windows, credentials and authentication, keys,
 * shares, targets, builds and their REST operations), whole files, every mutant Stryker makes
 * in them. Left out: what the contract does not judge (src/web, src/cli, src/observe, src/persist,
 * src/client-report, src/scale, src/fixtures, src/adapters), the prose generators (src/content,
 * src/media, src/chat, src/suggestions: their words are not a contract fault), and, for the time
 * a run takes on a shared machine, the rest of the behavioural folders (src/oauth, src/mcp,
 * src/engine, src/store, src/state, src/library, src/images, src/audio); `MUTATE=glob,glob npm
 * run mutation` runs any of them. Left out too: src/limits/window-limiter.ts, the per-address
 * windows against guessing. The limits the contract states for them (30 failed authentications,
 * 60 share views a minute per address) spare loopback and in-process clients by contract, which
 * is where a contract suite runs beside the server; the others (OAuth registrations and token
 * calls) are stated by no source the suite holds a server to, only by the simulator's docs.
 */
export const MUTATE = [
  'src/ledger/*.ts',
  'src/credentials/api-key.ts',
  'src/credentials/constant-time.ts',
  'src/store/idempotency.ts',
  'src/auth/authenticate.ts',
  'src/auth/principal.ts',
  'src/keys/keys-service.ts',
  'src/sharing/shares-service.ts',
  'src/targets/targets-service.ts',
  'src/operations/tokens.ts',
  'src/operations/builds.ts',
  'src/builds/builds-service.ts',
];
