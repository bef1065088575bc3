/** A scenario's names (scenario.schema.json's `name`): a letter or digit, then letters, digits, spaces, `_`, `.`, `-`; at most 80. */
export const NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,79}$/;

/** Gives each object of one account a name no other object of its kind has there. */
export class Names {
  private readonly used = new Map<string, Set<string>>();

  /** `wanted` as it is when it is a free, valid name; else made one (other characters dropped, a number added). */
  take(space: string, wanted: string, fallback: string): { name: string; changed: boolean } {
    const taken = this.used.get(space) ?? new Set<string>();
    this.used.set(space, taken);
    let base = NAME.test(wanted) ? wanted : wanted.normalize('NFKD').replace(/[^A-Za-z0-9 _.-]/g, '').replace(/^[^A-Za-z0-9]+/, '').slice(0, 72).trim();
    if (!base) base = fallback;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base.slice(0, 72)}-${n}`;
    taken.add(name);
    return { name, changed: name !== wanted };
  }
}
