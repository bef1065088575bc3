/**
 * Command-line mistakes said as a person would want them: one line naming the problem and the
 * fix. Node's parser speaks of `ERR_PARSE_ARGS_UNKNOWN_OPTION` with its own quoting; here an
 * unknown option gets the closest known one ("did you mean"), read from the same option table
 * the parser is given, so every option added there is suggested too.
 */
import type { ParseArgsConfig } from 'node:util';
import { closestName } from '../errors/closest-name.js';

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
  const name = closestName(typed.replace(/^-+/, ''), Object.keys(options));
  return name === undefined ? undefined : `--${name}`;
}
