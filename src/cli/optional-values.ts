/**
 * `--frozen` takes an optional value (`--frozen` alone freezes the clock now), which
 * node:util's parseArgs cannot express: a string option must have a value. This turns a
 * bare `--frozen` (last, or followed by another option or the command) into `--frozen=now`.
 */
export function withOptionalValues(argv: string[], names: readonly string[] = ['--frozen']): string[] {
  return argv.map((arg, i) => {
    if (!names.includes(arg)) return arg;
    const next = argv[i + 1];
    return next === undefined || next.startsWith('-') || next === 'serve' ? `${arg}=now` : arg;
  });
}
