import { SimulatorControl, type FetchLike } from '../shared/server-time.js';
import { header, type HarEntry } from '../shared/har.js';
import type { CredentialRole } from './credentials.js';

/** A fresh simulator account's balance when the recording never read one. */
const DEFAULT_BALANCE = 100;

/** Where a replay sends its calls, with what credentials, and whether it can move the target's time. */
export interface ReplayTarget {
  baseUrl: string;
  keys: Partial<Record<CredentialRole, string>>;
  /** The simulator's control API, when the replay runs on a fresh simulator account whose clock it moves. */
  control: SimulatorControl | null;
  /** The simulator's pipeline speed (`realistic`, `fast`, …), when the target is one. */
  pipelineSpeed?: string;
}

/**
 * Opens the target. Given credentials, the replay uses them as they are (another implementation,
 * or a simulator account prepared by hand) and moves no clock. Without, the target must be the
 * simulator: the replay gets a fresh account with a clock of its own, frozen, with the balance
 * the recording's account had when it was first read, so that a 402 comes where it came.
 */
export async function openTarget(options: { baseUrl: string; keys?: Partial<Record<CredentialRole, string>>; balance?: number; entries: readonly HarEntry[]; fetch: FetchLike }): Promise<ReplayTarget> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  if (options.keys?.readWrite) return { baseUrl, keys: options.keys, control: null };
  const control = await SimulatorControl.discover(baseUrl, options.fetch, () => []);
  if (!control) await options.fetch(baseUrl).catch((e: Error) => Promise.reject(new Error(`cannot reach ${baseUrl}: ${String(e.cause ?? e.message)}`)));
  if (!control) throw new Error(`${baseUrl} has no simulator control API (GET /_sim): give the target's credentials (--key-read-write, CONTRACT_KEY_READ_WRITE, …)`);
  const balance = options.balance ?? recordedOpeningBalance(options.entries) ?? DEFAULT_BALANCE;
  const keys = await control.createAccount(`Drift replay ${new Date().toISOString()}`, balance, true);
  if (!control.ownClock) throw new Error(`the simulator at ${baseUrl} has no clocks per account: a replay would move every account's time`);
  await control.freeze();
  return { baseUrl, keys: { ...keys, ...options.keys }, control, pipelineSpeed: control.pipelineSpeed };
}

/**
 * The balance the recording's account started with, from its first balance answer: what it held
 * then plus what it had spent (tokens the account was given count as bought, so purchases are
 * not taken off).
 */
export function recordedOpeningBalance(entries: readonly HarEntry[]): number | undefined {
  for (const e of entries) {
    if (e.request.method !== 'GET' || !/\/api\/v1\/tokens\/balance(\?|$)/.test(e.request.url) || e.response.status !== 200) continue;
    try {
      const b = JSON.parse(e.response.content.text ?? '') as { balance?: unknown; lifetimeUsed?: unknown };
      if (typeof b.balance !== 'number') continue;
      const used = typeof b.lifetimeUsed === 'number' ? b.lifetimeUsed : 0;
      return Math.max(0, Math.min(1_000_000_000, b.balance + used));
    } catch {
      continue;
    }
  }
  return undefined;
}

/** The service's time of a recorded answer: its Date header, else when the call started (a journal export's virtual time). */
export function recordedTime(e: HarEntry): number {
  const date = header(e.response.headers, 'date');
  const parsed = date ? Date.parse(date) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : Date.parse(e.startedDateTime);
}
