import { RULE_IDS, RULES, type RuleId, type RuleSource } from './rules.js';

/** Examples kept per rule and account: the first ones seen (the count goes on). */
export const MAX_EXAMPLES = 5;

export type Transport = 'rest' | 'mcp';

export interface FindingExample {
  /** On the account's clock, ISO 8601. */
  at: string;
  method: string;
  path: string;
  via: Transport;
  problem: string;
}

export interface Finding {
  rule: RuleId;
  title: string;
  source: RuleSource;
  threshold: string;
  advice: string;
  count: number;
  firstAt: string;
  lastAt: string;
  examples: FindingExample[];
}

interface Tally {
  count: number;
  firstAt: number;
  lastAt: number;
  examples: FindingExample[];
}

/** One account's breaches, by rule: a count, the first and last time, and the first few examples. */
export class Findings {
  private readonly tallies = new Map<RuleId, Tally>();

  /**
   * Counts one breach; true while the rule still keeps examples, and only then does the caller
   * word one (`example`): a client that breaks a rule in a loop costs a count, not a string.
   */
  count(rule: RuleId, at: number): boolean {
    let tally = this.tallies.get(rule);
    if (tally === undefined) {
      tally = { count: 0, firstAt: at, lastAt: at, examples: [] };
      this.tallies.set(rule, tally);
    }
    tally.count++;
    if (at < tally.firstAt) tally.firstAt = at;
    if (at > tally.lastAt) tally.lastAt = at;
    return tally.examples.length < MAX_EXAMPLES;
  }

  /** Keeps an example of the breach just counted (when `count` said so). */
  example(rule: RuleId, at: number, method: string, path: string, via: Transport, problem: string): void {
    const tally = this.tallies.get(rule);
    if (tally !== undefined && tally.examples.length < MAX_EXAMPLES) tally.examples.push({ at: iso(at), method, path, via, problem });
  }

  get size(): number {
    return this.tallies.size;
  }

  /** In the catalogue's order, leaving out the rules switched off since they were found. */
  list(off: (rule: RuleId) => boolean): Finding[] {
    const findings: Finding[] = [];
    for (const rule of RULE_IDS) {
      const tally = this.tallies.get(rule);
      if (!tally || off(rule)) continue;
      const { title, source, threshold, advice } = RULES[rule];
      findings.push({ rule, title, source, threshold, advice, count: tally.count, firstAt: iso(tally.firstAt), lastAt: iso(tally.lastAt), examples: tally.examples.map((e) => ({ ...e })) });
    }
    return findings;
  }
}

function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : new Date(0).toISOString();
}
