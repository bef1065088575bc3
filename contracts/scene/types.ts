/**
 * The scene a recording gives: a scenario in the documented format (scenario.schema.json,
 * docs/reference/scenarios.md; contracts/ reads the format from there, never from the
 * simulator's code), what of the recording it could not state, and the map from the
 * recording's ids to the scenario's names.
 */
export type Json = Record<string, unknown>;

export interface SceneKey {
  name: string;
  scopes: Array<'svc:read' | 'svc:write'>;
  revoked?: boolean;
  rateLimited?: boolean;
}

export interface SceneBuild extends Json {
  name: string;
  target: string;
  kind: string;
  objective: string;
  status: string;
  failedAt?: string;
  libraryItems?: string[];
  shares?: Array<{ name: string; page?: number; expiresInSeconds?: number }>;
  audio?: Array<{ name: string; voice: string; page?: number }>;
}

export interface SceneAccount {
  name: string;
  balance?: number;
  clock?: { at: string };
  keys: SceneKey[];
  purchases?: Array<{ bundle: string }>;
  targets?: Array<Json & { name: string; slug: string; library?: Array<Json & { name: string }> }>;
  builds?: SceneBuild[];
  images?: Array<Json & { name: string; prompt: string }>;
  chats?: Array<{ name: string; target: string; title?: string; messages?: string[] }>;
}

export interface SceneScenario {
  scenario: string;
  description: string;
  accounts: SceneAccount[];
}

/** One line of what the recording showed of an account that the scene leaves out, or cannot state. */
export interface SceneNote {
  /** `left out`: the recording does not show enough of it; `cannot state`: it shows it, a scenario has no way to say it. */
  kind: 'left out' | 'cannot state';
  text: string;
}

export type MappedKind = 'key' | 'target' | 'library' | 'build' | 'deliverable' | 'share' | 'audio' | 'image' | 'chat';

/** One recorded id, the scenario name it became, and (once loaded) the id the simulator gave it. */
export interface MappedObject {
  kind: MappedKind;
  /** The id as recorded. */
  recorded: string;
  account: string;
  /** The name in the scene (a target's slug; a deliverable's build). */
  name: string;
  /** A deliverable's page (its index among its build's deliverables). */
  page?: number;
  /** The id after loading (filled by `--map-loaded`, or by the check). */
  loaded?: string | null;
}

/** A recorded credential, named by where it was used (never by any part of its value): the scene key it became. */
export interface MappedCredential {
  account: string;
  key: string;
  /** The recording's calls made with it (1 = the first entry). */
  calls: number[];
}

export interface SceneMapping {
  recording: string;
  scenario: string;
  credentials: MappedCredential[];
  objects: MappedObject[];
  /** Calls of the recording the scene can say nothing of, with why (OAuth tokens, MCP sessions, …). */
  unmapped: Array<{ calls: number[]; why: string }>;
}

export interface Scene {
  scenario: SceneScenario;
  /** Notes by account name, in the scene's order. */
  notes: Record<string, SceneNote[]>;
  mapping: SceneMapping;
}
