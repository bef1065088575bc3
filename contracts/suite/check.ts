import type { Role } from './config.js';
import type { ContractLevel } from '../shared/contract-validator.js';
import type { Session } from './session.js';

/** Checks that can be switched off, because they spend tokens, exhaust a rate limit or wait for builds. */
export type Group = 'spend' | 'exhaust' | 'wait';

export interface Check {
  /** Stable identifier, e.g. `auth.revoked.getBuild`. */
  id: string;
  /** The rule it checks, with its source: "Errors: 402 INSUFFICIENT_TOKENS carries required, available, shortfall". */
  title: string;
  /** The lowest level that runs it: documented checks run at both levels. */
  level: ContractLevel;
  groups?: Group[];
  /** Credentials it cannot do without (readWrite is always there). */
  roles?: Role[];
  /** It buys tokens: real money on a real service, so it runs only with --allow-purchases or against the simulator. */
  buys?: boolean;
  /** Set when it needs the simulator's control API: why. */
  simulator?: string;
  /** Operations whose behaviour this is a specific scenario for (the coverage report). */
  covers?: string[];
  /** True for the checks generated for every operation (auth matrix, generic calls): they do not make an operation verified. */
  generic?: boolean;
  /** About how many requests it makes, checked against what is left of the request budget before it starts. Tokens are reserved by the check itself (Session.spend). */
  requests: number;
  run(session: Session): Promise<void>;
}

/** What one check came to, as the reports show it. */
export interface CheckResult {
  id: string;
  /** The part of the contract it is about (auth, builds, rate-limits, …): the JUnit classname. */
  area: string;
  title: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Why it was skipped, or what failed (starting with the broken rule). */
  message?: string;
  durationMs: number;
}
