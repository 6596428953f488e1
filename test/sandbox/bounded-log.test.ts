import { describe, expect, it } from 'vitest';
import { BoundedLog } from '../../src/testing/bounded-log.js';

describe('BoundedLog', () => {
  it('keeps the newest entries up to its limit, oldest first', () => {
    const log = new BoundedLog<number>(3);
    for (let n = 1; n <= 5; n++) log.push(n);
    expect(log.all()).toEqual([3, 4, 5]);
    expect(log.size).toBe(3);
  });

  it('lists the newest first, touching no more than asked', () => {
    const log = new BoundedLog<number>(10);
    for (let n = 1; n <= 4; n++) log.push(n);
    expect(log.newest(2)).toEqual([4, 3]);
    expect(log.newest(10)).toEqual([4, 3, 2, 1]);
    expect(log.newest(0)).toEqual([]);
  });

  it('skips the entries in use, passing its limit by them, and drops them once released, the oldest first', () => {
    const log = new BoundedLog<string>(2);
    const a = log.push('a', true);
    const b = log.push('b', true);
    const c = log.push('c', true);
    expect(log.all()).toEqual(['a', 'b', 'c']);
    log.release(b);
    expect(log.all()).toEqual(['a', 'c']);
    log.release(a);
    expect(log.all()).toEqual(['a', 'c']);
    log.release(a);
    log.push('d', true);
    expect(log.all()).toEqual(['c', 'd']);
    log.release(c);
    expect(log.all()).toEqual(['c', 'd']);
    expect(log.newest(1)).toEqual(['d']);
  });

  it('drops the oldest that may go, whichever was released first', () => {
    const log = new BoundedLog<number>(3);
    const handles = [1, 2, 3, 4, 5, 6].map((n) => log.push(n, true));
    for (const index of [4, 1, 3, 0]) log.release(handles[index]!);
    // Past the limit, each release drops the oldest released at once: 5, then 2, then 4; 1 is released at the limit.
    expect(log.all()).toEqual([1, 3, 6]);
    log.push(7);
    // Past it again: 1 is the oldest that may go, released before 7 came.
    expect(log.all()).toEqual([3, 6, 7]);
    expect(log.size).toBe(3);
  });

  it('hands out a new array: changing it changes nothing kept', () => {
    const log = new BoundedLog<number>(3);
    log.push(1);
    log.all().push(2);
    log.newest(1).push(3);
    expect(log.all()).toEqual([1]);
  });
});
