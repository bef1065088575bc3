/**
 * One copy of strings that repeat across records (the objective a load test sends again and
 * again, "1 × blog"): records hold the copy, not one string each. Bounded: cleared when full,
 * so strings that never repeat cost nothing for long.
 */
export class Interner {
  private readonly seen = new Map<string, string>();

  constructor(private readonly limit: number) {}

  of(text: string): string {
    const known = this.seen.get(text);
    if (known !== undefined) return known;
    if (this.seen.size >= this.limit) this.seen.clear();
    this.seen.set(text, text);
    return text;
  }
}
