import { describe, expect, it } from 'vitest';
import { Clock } from './clock.js';

describe('Clock', () => {
  it('follows real time with an offset that advance() adds to', () => {
    let real = 1_000;
    const clock = new Clock({ realTime: () => real });
    expect(clock.now()).toBe(1_000);
    real = 1_500;
    expect(clock.now()).toBe(1_500);
    clock.advance(10_000);
    expect(clock.now()).toBe(11_500);
  });

  it('stands still when frozen, moves only when advanced, and resumes without a jump', () => {
    let real = 1_000;
    const clock = new Clock({ realTime: () => real, frozenAt: 5_000 });
    real = 9_000;
    expect(clock.now()).toBe(5_000);
    clock.advance(1_000);
    expect(clock.now()).toBe(6_000);
    clock.resume();
    expect(clock.now()).toBe(6_000);
    real = 9_500;
    expect(clock.now()).toBe(6_500);
  });

  it('never goes back', () => {
    expect(() => new Clock().advance(-1)).toThrow(RangeError);
  });
});
