import type { SuiteConfig } from './config.js';
import type { ServiceClient } from './http-client.js';
import type { ServerTime } from '../shared/server-time.js';

/**
 * What the shared fixtures and the build observer use of a session: the client, the clock, the
 * budgets. A session is one (session.ts); naming only this much keeps them free of the session
 * that owns them, so neither imports the other.
 */
export interface SessionView {
  readonly config: SuiteConfig;
  readonly client: ServiceClient;
  readonly time: ServerTime;
  readonly strict: boolean;
  readonly fineStepMs: number;
  /** Tokens spent so far; the fixtures correct it by what a build really cost. */
  tokensSpent: number;
  spend(tokens: number, what: string): void;
  requireWait(): void;
  newTargetName(label: string): { slug: string; name: string };
}
