import { basename } from 'node:path';
import type { Har } from '../shared/har.js';
import { servicePath } from '../drift/index.js';
import { accountScene } from './account-scene.js';
import { NAME } from './names.js';
import { observe } from './observe.js';
import { sameShapeText } from './redact-text.js';
import type { Scene, SceneMapping, SceneNote } from './types.js';

export interface SceneOptions {
  /** The recording's file name, as the mapping and the description name it. */
  recording: string;
  /** The scenario's name (ids are drawn from it); default: from the recording's file name. */
  name?: string;
  /** Replace user text (names, descriptions, objectives, prompts, messages) with generated text of the same shape and length. */
  redactText?: boolean;
}

const DOWNLOAD = /^\/api\/v1\/deliverables\/([^/?]+)\/download(?:\?(.*))?$/;

/**
 * A scene from a recording: per account seen, the last state the recording shows of it as a
 * scenario (docs/reference/scenarios.md), what it leaves out or cannot state, line by line, and
 * the map from the recording's ids to the scenario's names. No recorded secret is carried over:
 * keys are stated by name and scopes (loading draws new ones), share links by name.
 */
export function makeScene(har: Har, options: SceneOptions): Scene {
  const observed = observe(har);
  const text = options.redactText ? sameShapeText() : (t: string) => t;
  const downloads = new Map<string, string[]>();
  har.log.entries.forEach((e) => {
    const m = DOWNLOAD.exec(servicePath(e.request.url) ?? '');
    if (!m || e.response.status !== 200) return;
    const format = new URLSearchParams(m[2] ?? '').get('format') ?? 'md';
    const list = downloads.get(m[1] as string) ?? [];
    if (!list.includes(format)) list.push(format);
    downloads.set(m[1] as string, list);
  });
  const scenario = { scenario: scenarioName(options), description: `Made by content-contracts scene from ${basename(options.recording)}: the last state it shows of each account.`, accounts: [] as Scene['scenario']['accounts'] };
  const notes: Record<string, SceneNote[]> = {};
  const mapping: SceneMapping = { recording: basename(options.recording), scenario: scenario.scenario, credentials: [], objects: [], unmapped: [] };
  observed.accounts.forEach((seen, i) => {
    const made = accountScene(seen, `account-${i + 1}`, text, downloads);
    if (made.account.keys.length === 0) {
      mapping.unmapped.push(...made.unmapped);
      return; // an OAuth-only account: nothing a scenario can sign in with
    }
    scenario.accounts.push(made.account);
    notes[made.account.name] = made.notes;
    mapping.credentials.push(...made.credentials);
    mapping.objects.push(...made.objects);
    mapping.unmapped.push(...made.unmapped);
  });
  if (scenario.accounts.length === 0) throw new Error(`${options.recording} shows no account: no call of the service API carries an API key`);
  if (scenario.accounts.length > 20) throw new Error(`${options.recording} shows ${scenario.accounts.length} accounts: a scenario holds at most 20`);
  return { scenario, notes, mapping };
}

function scenarioName(options: SceneOptions): string {
  if (options.name !== undefined) {
    if (!NAME.test(options.name)) throw new Error(`--name must be a scenario name (letters, digits, space, _ . -; at most 80), not ${JSON.stringify(options.name)}`);
    return options.name;
  }
  const stem = basename(options.recording).replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9 _.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return `scene ${stem}`.slice(0, 80).trim();
}
