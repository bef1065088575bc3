/** A response as a client saw it, to be judged against the contract. */
export interface ObservedResponse {
  method: string;
  /** Path with or without the query string. */
  url: string;
  status: number;
  /** Header names in any case. */
  headers: Record<string, string | string[] | undefined>;
  /** The raw body text ('' when none). */
  body: string;
}

/** One way a response breaks the contract: the operation, the status, the rule and what was wrong. */
export interface Violation {
  operation: string;
  status: number;
  rule: string;
  message: string;
}
