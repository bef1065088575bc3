import { closestName } from './closest-name.js';

/**
 * A command-line mistake said in one line, as content-sim says it: the problem, "did you mean"
 * for a mistyped option, and where the whole usage is. The usage itself only on --help.
 */
export class UsageProblem extends Error {}

/** `unknown option --bse-url: did you mean --base-url?`, from the options the command knows. */
export function unknownOption(flag: string, known: readonly string[]): UsageProblem {
  const guess = closestName(flag.replace(/^-+/, ''), known);
  return new UsageProblem(`unknown option ${flag}${guess ? `: did you mean --${guess}?` : ''}`);
}

/** The line to print: `contracts proxy: … (content-contracts proxy --help lists every option)`. */
export function usageLine(subcommand: string | undefined, message: string): string {
  const command = `content-contracts${subcommand ? ` ${subcommand}` : ''}`;
  return `contracts${subcommand ? ` ${subcommand}` : ''}: ${message} (${command} --help lists every option)\n`;
}

/** node:util parseArgs's errors for a person: an unknown option with the nearest known one. */
export function explainParseArgs(error: unknown, known: readonly string[]): string {
  const { code, message } = error as { code?: string; message: string };
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return unknownOption((/option '([^']+)'/.exec(message)?.[1] ?? message).split('=')[0]!, known).message;
  return message.replace(/\. To specify a positional argument starting with a '-'.*$/s, '').replace(/\.$/, '');
}
