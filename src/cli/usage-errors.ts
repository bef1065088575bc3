/**
 * Command-line mistakes said as a person would want them: one line naming the problem and the
 * fix. Node's parser speaks of `ERR_PARSE_ARGS_UNKNOWN_OPTION` with its own quoting; here an
 * unknown option gets the closest known one ("did you mean"), read from the same option table
 * the parser is given, so every option added there is suggested too.
 */
import type { ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

const HELP_HINT = 'content-sim --help lists every option';

type OptionTable = NonNullable<ParseArgsConfig['options']>;

/** Turns an error thrown by node:util's parseArgs into a UsageError a person can act on; other errors pass through. */
export function explainParseError(error: unknown, options: OptionTable): unknown {
  const code = (error as { code?: string }).code;
  const message = (error as Error).message ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const given = /option '([^']+)'/.exec(message)?.[1] ?? message;
    const flag = given.split('=')[0]!;
    const guess = closestOption(flag, options);
    return new UsageError(`unknown option ${flag}${guess ? `: did you mean ${guess}?` : ''} (${HELP_HINT})`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    // "Option '--port <value>' argument missing" or "Option '--quiet' does not take an argument".
    const flag = /'(-{1,2}[a-z][\w-]*)/i.exec(message)?.[1] ?? 'an option';
    const name = flag.replace(/^-+/, '');
    const takesValue = options[name]?.type === 'string' || (flag.length === 2 && Object.values(options).some((o) => o.short === name && o.type === 'string'));
    return new UsageError(takesValue ? `${flag} needs a value: ${flag} <value> or ${flag}=<value> (${HELP_HINT})` : `${flag} takes no value: give it alone (${HELP_HINT})`);
  }
  if (code?.startsWith('ERR_PARSE_ARGS_')) return new UsageError(`${message.replace(/\.$/, '')} (${HELP_HINT})`);
  return error;
}

/** The known option nearest to what was typed, when it is near enough to be a typo. */
export function closestOption(typed: string, options: OptionTable): string | undefined {
  const word = typed.replace(/^-+/, '');
  const names = Object.keys(options);
  // A word of an option (--state for --state-file, --control for --no-control): the shortest such option.
  const containing = word.length >= 3 ? names.filter((name) => name.includes(word)).sort((a, b) => a.length - b.length)[0] : undefined;
  if (containing) return `--${containing}`;
  // Else a typo: a wrong, dropped, added or swapped letter or two, never any option at all.
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(word, name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(best.name.length / 3)) ? `--${best.name}` : undefined;
}

/** Damerau-Levenshtein (optimal string alignment) distance: swapped neighbours count as one edit. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
