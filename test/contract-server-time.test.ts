import { describe, expect, it } from 'vitest';
import { ServerTime, SimulatorControl } from '../contracts/shared/server-time.js';
import { simulatorUnderTest } from './violations/violated-simulator.js';

const BASE = 'http://simulator.in-process';

/** The control API of an in-process simulator whose clock-move answers come back in reverse order. */
async function reversedMoves(): Promise<{ control: SimulatorControl; moves: number[]; release: () => void }> {
  const target = simulatorUnderTest();
  const moves: number[] = [];
  const held: Array<() => void> = [];
  const fetchImpl = async (input: string, init?: RequestInit) => {
    const response = await target.fetch(input, init);
    if (!new URL(input).pathname.endsWith('/clock/advance')) return response;
    moves.push(JSON.parse(String(init?.body)).ms);
    const body = await response.text();
    await new Promise<void>((resolve) => held.push(resolve));
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const control = await SimulatorControl.discover(BASE, fetchImpl, () => []);
  if (!control) throw new Error('no control API');
  await control.freeze();
  // Answers held until released, last first.
  return { control, moves, release: () => held.splice(0).reverse().forEach((r) => r()) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('the suite\'s reading of the simulator\'s time while the clock moves', () => {
  it('never goes back when concurrent moves are answered out of order', async () => {
    const { control, release } = await reversedMoves();
    const start = control.now();
    const moves = [control.advance(1000), control.advance(2000)];
    for (let i = 0; i < 4; i++) {
      await tick();
      release();
    }
    await Promise.all(moves);
    expect(control.now() - start).toBe(3000);
  });

  it('takes the server\'s now of an answer that came during a move from between the readings before and after it', async () => {
    const { control, release } = await reversedMoves();
    const time = new ServerTime(control, Date.now() + 60_000);
    const start = control.now();
    const move = control.advance(60_000);
    await tick();
    // A window reset a minute after the moved clock is within a minute of a now the server may have had.
    expect(time.nowNear(start + 90_000)).toBe(start + 60_000);
    expect(time.nowNear(start - 5_000)).toBe(start);
    release();
    await move;
    expect(time.nowNear(start)).toBe(start + 60_000);
    // An answer to a request sent before the move may have been made before it, though it came after.
    expect(time.nowNear(start + 10_000, start)).toBe(start + 10_000);
  });

  it('moves the clock once for waits that end at the same reset', async () => {
    const { control, moves, release } = await reversedMoves();
    const time = new ServerTime(control, Date.now() + 60_000);
    const reset = Math.ceil((control.now() + 30_000) / 1000);
    const waits = [time.until(reset), time.until(reset), time.until(reset)];
    await tick();
    release();
    await Promise.all(waits);
    expect(moves).toHaveLength(1);
    expect(control.now()).toBe(reset * 1000);
  });
});
