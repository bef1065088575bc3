/**
 * A scenario: a declared state (accounts, their keys, targets, builds at a chosen point, …)
 * that the simulator reaches by running the service's own operations, never by writing
 * records. Every request-shaped part (a target, a build, a library item, an image) carries
 * the fields of its API request body as they are, so the API's own validation judges it.
 */
import type { Scope } from '../credentials/api-key.js';

export type BuildStatusGoal = 'pending' | 'researching' | 'drafting' | 'critiquing' | 'merging' | 'completed' | 'failed';
export type FailureStage = 'researching' | 'drafting' | 'critiquing' | 'merging';

export interface Scenario {
  /** The scenario's name: ids are drawn from it, so two scenarios never give the same ids. */
  scenario: string;
  description?: string;
  accounts: ScenarioAccount[];
}

export interface ScenarioAccount {
  /** The name the load answer gives this account's keys and ids under. */
  name: string;
  /** The balance once everything is loaded (purchases, charges and refunds included). Default 100. */
  balance?: number;
  /** The account's own clock: its now once loaded (default 2026-01-05T09:00:00Z), frozen unless `running`. */
  clock?: { at?: string; running?: boolean };
  /** Default: one key named `default` with both scopes. */
  keys?: ScenarioKey[];
  /** Token bundles bought, oldest first (`GET /api/v1/tokens/bundles` lists them). */
  purchases?: Array<{ bundle: string }>;
  targets?: ScenarioTarget[];
  builds?: ScenarioBuild[];
  images?: ScenarioImage[];
  chats?: ScenarioChat[];
  /** Fault rules for this account's calls (the body of `POST /_sim/faults`, less `accountId`). */
  faults?: Array<Record<string, unknown> & { name?: string }>;
}

export interface ScenarioKey {
  name: string;
  scopes: Scope[];
  revoked?: boolean;
  /** Spend the key's requests of the current minute: its next call is 429 until the clock moves a minute. */
  rateLimited?: boolean;
}

/** `POST /api/v1/targets`'s body, and the target's library items. */
export interface ScenarioTarget extends Record<string, unknown> {
  name: string;
  slug: string;
  library?: Array<Record<string, unknown> & { name: string }>;
}

/** `POST /api/v1/builds`'s body with the target named by its slug, and where the build stands. */
export interface ScenarioBuild extends Record<string, unknown> {
  /** The name the load answer gives the build's id under. */
  name: string;
  /** The slug of one of the account's targets. */
  target: string;
  kind: string;
  objective: string;
  status: BuildStatusGoal;
  /** With status `failed`: the stage it fails in (the API's `[fail:<stage>]` objective marker). */
  failedAt?: FailureStage;
  /** Share links of its deliverables (once completed). */
  shares?: Array<{ name: string; page?: number; expiresInSeconds?: number }>;
  /** Listen versions of its deliverables (once completed). */
  audio?: Array<{ name: string; voice: string; page?: number }>;
}

export interface ScenarioImage extends Record<string, unknown> {
  name: string;
  prompt: string;
}

export interface ScenarioChat {
  name: string;
  /** The slug of the target whose brand context the assistant uses. */
  target: string;
  title?: string;
  /** The user's messages, sent in turn; each gets the assistant's reply. */
  messages?: string[];
}

/** What loading a scenario answers: each account's keys and the ids of what it made, by the names the scenario gave. */
export interface LoadedScenario {
  scenario: string;
  accounts: Record<string, LoadedAccount>;
}

export interface LoadedAccount {
  accountId: string;
  now: string;
  keys: Record<string, string>;
  targets: Record<string, string>;
  library: Record<string, string>;
  builds: Record<string, { buildId: string; status: BuildStatusGoal; deliverableIds: string[] }>;
  shares: Record<string, { shareId: string; token: string; url: string }>;
  audio: Record<string, string>;
  images: Record<string, string>;
  chats: Record<string, string>;
  faults: Record<string, string>;
}
