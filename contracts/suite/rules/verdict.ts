/**
 * What the catalogue does with one statement of a source: the rules that hold a server to it;
 * or why no rule can (a client cannot see it from outside); or why none does yet (a statement
 * the suite could check and does not, which the report lists as unverified, never as passed).
 */
export type Verdict = { rules: string[] } | { outside: string } | { unchecked: string };

export const ruled = (...rules: string[]): Verdict => ({ rules });
export const outside = (reason: string): Verdict => ({ outside: reason });
export const unchecked = (reason: string): Verdict => ({ unchecked: reason });
