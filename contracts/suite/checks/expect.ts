import type { Reply } from '../http-client.js';
import { ContractFailure } from '../../shared/outcomes.js';

function seen(reply: Reply): string {
  return `got ${reply.status}${reply.text ? ` ${reply.text.slice(0, 240)}` : ''}`;
}

export function isSuccess(reply: Reply): boolean {
  return reply.status >= 200 && reply.status < 300;
}

export function expectSuccess(reply: Reply, rule: string): void {
  if (!isSuccess(reply)) throw new ContractFailure(`${rule}: expected a 2xx success, ${seen(reply)}`);
}

export function expectStatus(reply: Reply, status: number, rule: string): void {
  if (reply.status !== status) throw new ContractFailure(`${rule}: expected ${status}, ${seen(reply)}`);
}

/** An error with this code, and this status when one is given (the spec leaves some statuses open). */
export function expectError(reply: Reply, status: number | '4xx', code: string | undefined, rule: string): void {
  const statusOk = status === '4xx' ? reply.status >= 400 && reply.status < 500 : reply.status === status;
  const codeOk = code === undefined || reply.json?.code === code;
  if (!statusOk || !codeOk) {
    throw new ContractFailure(`${rule}: expected ${status}${code ? ` ${code}` : ' error'}, ${seen(reply)}`);
  }
}

/** A deletion answered as openapi.yaml says: 204 and no body at all. */
export function expectNoContent(reply: Reply, rule: string): void {
  expectStatus(reply, 204, rule);
  if (reply.bytes.length > 0) throw new ContractFailure(`${rule}: a 204 has no body, got ${reply.bytes.length} byte(s): ${reply.text.slice(0, 120)}`);
}

/** The media type of a response, without its parameters. */
export function mediaType(reply: Reply): string {
  return (reply.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
