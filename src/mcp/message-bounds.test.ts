import { describe, expect, it } from 'vitest';
import { idProblem, NestingScanner, readBoundedBody, uncountedMessages } from './message-bounds.js';

describe('bounds on an /mcp body', () => {
  it('follows nesting across pieces, skipping brackets inside strings and escaped quotes', () => {
    const scanner = new NestingScanner(2);
    expect(scanner.exceeded('{"a":"[[[[\\"')).toBe(false); // still inside the string: an escaped quote
    expect(scanner.exceeded('[[[", "b":[1]}')).toBe(false);
    expect(new NestingScanner(2).exceeded('[[[1]]]')).toBe(true);
  });

  it('refuses a deep body, draining what follows the piece that shows it, and a large one by its announced length', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode('['.repeat(1000)));
        if (pulled > 100) controller.close();
      },
    });
    const deep = await readBoundedBody(new Request('http://x/mcp', { method: 'POST', body, duplex: 'half' } as RequestInit), 1 << 20, 128);
    expect(deep).toEqual({ refused: 'tooDeep' });
    const large = await readBoundedBody(new Request('http://x/mcp', { method: 'POST', headers: { 'content-length': '2000000' }, body: 'x' }), 1 << 20, 128);
    expect(large).toEqual({ refused: 'tooLarge' });
    expect(await readBoundedBody(new Request('http://x/mcp', { method: 'POST', body: '{"a":[1]}' }), 1 << 20, 128)).toEqual({ text: '{"a":[1]}' });
  });

  it('takes ids that are numbers or short strings, and counts every message but tool calls and initialize', () => {
    expect(idProblem({ id: 1 })).toBeUndefined();
    expect(idProblem([{ id: 'a' }, { method: 'notifications/initialized' }])).toBeUndefined();
    expect(idProblem({ id: [1] })).toMatch(/string or a number/);
    expect(idProblem({ id: 'x'.repeat(257) })).toMatch(/at most 256/);
    expect(idProblem(Array.from({ length: 101 }, (_, i) => ({ id: i })))).toMatch(/at most 100 messages/);
    expect(uncountedMessages([{ method: 'tools/call' }, { method: 'initialize' }, { method: 'ping' }, { method: 'notifications/initialized' }])).toBe(2);
  });
});
