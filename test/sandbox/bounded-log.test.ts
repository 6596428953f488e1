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

  it('skips the entries in use, passing its limit by them, and trims once they may go, the oldest first', () => {
    const inUse = new Set<string>();
    const log = new BoundedLog<string>(2, (entry) => !inUse.has(entry));
    const push = (entry: string) => {
      inUse.add(entry);
      log.push(entry);
    };
    push('a');
    push('b');
    push('c');
    expect(log.all()).toEqual(['a', 'b', 'c']);
    inUse.delete('b');
    log.trim();
    expect(log.all()).toEqual(['a', 'c']);
    inUse.delete('a');
    log.trim();
    expect(log.all()).toEqual(['a', 'c']);
    push('d');
    expect(log.all()).toEqual(['c', 'd']);
  });

  it('hands out a new array: changing it changes nothing kept', () => {
    const log = new BoundedLog<number>(3);
    log.push(1);
    log.all().push(2);
    log.newest(1).push(3);
    expect(log.all()).toEqual([1]);
  });
});
