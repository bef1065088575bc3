/** A count with its noun, singular for one: "1 token", "2 tokens", "1 entry", "3 entries". */
export function counted(n: number, one: string, many = one.endsWith('y') ? `${one.slice(0, -1)}ies` : `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
