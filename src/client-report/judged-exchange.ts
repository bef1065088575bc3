import type { EngineRequest, EngineResponse } from '../engine/types.js';
import type { Account } from '../store/account.js';
import type { Transport } from './findings.js';

/** One exchange as the judge sees it: the request, its answer, who sent it, and when on the account's clock. */
export interface JudgedExchange {
  request: EngineRequest;
  response: EngineResponse;
  operationId: string | undefined;
  credential: string;
  via: Transport;
  now: number;
  /** Real time when it came, ms: the second clock of every judgement (a test that waits instead of moving the account's clock). */
  real: number;
  /** The account the exchange was for: its builds, and its balance after the exchange. */
  account: Account;
}
