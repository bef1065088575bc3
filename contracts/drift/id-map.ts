/**
 * The recording's identifiers and secrets, mapped to the target's as a client learns them: from
 * the answers, side by side. A recorded answer gave build `b1`, the replayed one build `b2`;
 * from then on a call the recording made about `b1` is made about `b2`. Secrets were redacted
 * in the recording (`svc_live_…abcd`, a share token's `…9f2c`): the redacted form is what the
 * recording's later calls carry, so it maps as well as a whole id does.
 */

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** A redacted secret: an optional known prefix, an ellipsis, its last four characters. */
const REDACTED = '(?:svc_live_|sim_[a-z]{2,5}_)?…[A-Za-z0-9_~.=-]{1,4}';
const TOKEN = new RegExp(`${UUID}|${REDACTED}`, 'g');
/** Fields whose string value is an identifier whatever it looks like. */
const ID_FIELD = /(^id$|Id$|^token$|Token$|^key$|Key$|^cursor$|Cursor$)/;
const ELLIPSIS_ENCODED = /%E2%80%A6/gi;

export class IdMap {
  private readonly map = new Map<string, string>();

  get size(): number {
    return this.map.size;
  }

  /** What the recording's `value` stands for on the target, if learnt. */
  get(value: string): string | undefined {
    return this.map.get(value);
  }

  set(recorded: string, replayed: string): void {
    // A redacted value on the target's side (a key's hint) is no value to send: the key itself maps.
    if (recorded === replayed || replayed.includes('…') || this.map.has(recorded)) return;
    this.map.set(recorded, replayed);
  }

  /** Learns from a recorded answer and the replayed one, walked side by side. */
  learn(recorded: unknown, replayed: unknown, key = ''): void {
    if (typeof recorded === 'string' && typeof replayed === 'string') {
      if (recorded !== replayed && (ID_FIELD.test(key) || isToken(recorded))) this.set(recorded, replayed);
      return;
    }
    if (Array.isArray(recorded) && Array.isArray(replayed)) {
      for (let i = 0; i < Math.min(recorded.length, replayed.length); i++) this.learn(recorded[i], replayed[i], key);
      return;
    }
    if (recorded && replayed && typeof recorded === 'object' && typeof replayed === 'object') {
      for (const [k, v] of Object.entries(recorded as Record<string, unknown>)) {
        if (k in (replayed as object)) this.learn(v, (replayed as Record<string, unknown>)[k], k);
      }
    }
  }

  /** A recorded text (a URL, a body, a header) with every id and redacted secret the map knows replaced by the target's. */
  substitute(text: string): string {
    if (this.map.size === 0) return text;
    const decoded = text.replace(ELLIPSIS_ENCODED, '…');
    return decoded.replace(TOKEN, (token) => this.map.get(token) ?? token);
  }

  /** A recorded JSON body with its string values substituted, whole values first (an id field). */
  substituteJson(value: unknown): unknown {
    if (typeof value === 'string') return this.map.get(value) ?? this.substitute(value);
    if (Array.isArray(value)) return value.map((v) => this.substituteJson(v));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.substituteJson(v)]));
    return value;
  }
}

const WHOLE_TOKEN = new RegExp(`^(?:${UUID}|${REDACTED})$`);
const PREFIXED_ID = /^[a-z]{2,6}_[A-Za-z0-9_-]{8,}$/;

function isToken(value: string): boolean {
  return WHOLE_TOKEN.test(value) || PREFIXED_ID.test(value);
}
