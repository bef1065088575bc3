// A copy of src/errors/closest-name.ts, line for line (contracts/ imports nothing from src/; test/command-copies.test.ts holds them equal).
/**
 * The known name nearest to one typed, when it is near enough to be a typo ("did you mean"):
 * for command-line options, configuration keys and the fields of a request alike.
 */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  // A word of a name (state for state-file, control for no-control): the shortest such name.
  const containing = typed.length >= 3 ? names.filter((name) => name.includes(typed)).sort((a, b) => a.length - b.length)[0] : undefined;
  if (containing) return containing;
  // Else a typo: a wrong, dropped, added or swapped letter or two, never any name at all.
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(best.name.length / 3)) ? best.name : undefined;
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
