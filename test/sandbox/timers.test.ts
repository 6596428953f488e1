/**
 * The sandbox's background timers: a charge's expiry, a webhook's retry and
 * its attempt's time limit let the process exit, except while someone awaits
 * webhooksSettled(). keep-alive.test.ts checks it on a whole process.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackgroundTimers, setKeepsProcessAlive } from '../../src/testing/timers.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('setKeepsProcessAlive', () => {
  it('unrefs and refs a Node.js or Bun timer object', () => {
    const timer = setTimeout(() => {}, 60_000);
    try {
      setKeepsProcessAlive(timer, false);
      expect(timer.hasRef()).toBe(false);
      setKeepsProcessAlive(timer, true);
      expect(timer.hasRef()).toBe(true);
    } finally {
      clearTimeout(timer);
    }
  });

  it("uses Deno's refTimer and unrefTimer for Deno's numeric timer ids", () => {
    const deno = { refTimer: vi.fn(), unrefTimer: vi.fn() };
    vi.stubGlobal('Deno', deno);
    setKeepsProcessAlive(42 as unknown as ReturnType<typeof setTimeout>, false);
    setKeepsProcessAlive(43 as unknown as ReturnType<typeof setTimeout>, true);
    expect(deno.unrefTimer.mock.calls).toEqual([[42]]);
    expect(deno.refTimer.mock.calls).toEqual([[43]]);
  });

  it('does nothing with a numeric id where there is no process to keep (a browser, workerd)', () => {
    expect(() => setKeepsProcessAlive(42 as unknown as ReturnType<typeof setTimeout>, false)).not.toThrow();
  });
});

describe('BackgroundTimers', () => {
  it('sets timers that keep no process alive, until someone waits, then again none', () => {
    const timers = new BackgroundTimers();
    const first = timers.setTimeout(() => {}, 60_000);
    const cleared = timers.setTimeout(() => {}, 60_000);
    timers.clearTimeout(cleared);
    try {
      expect(first.hasRef()).toBe(false);
      timers.keepProcessAlive(true);
      const second = timers.setTimeout(() => {}, 60_000);
      expect([first.hasRef(), second.hasRef(), cleared.hasRef()]).toEqual([true, true, false]);
      timers.keepProcessAlive(false);
      expect([first.hasRef(), second.hasRef()]).toEqual([false, false]);
      timers.clearTimeout(second);
    } finally {
      timers.clearTimeout(first);
    }
  });

  it('runs a timer when it fires, and forgets it: waiting later switches it no more', async () => {
    const timers = new BackgroundTimers();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => (timer = timers.setTimeout(resolve, 1)));
    timers.keepProcessAlive(true);
    expect(timer?.hasRef()).toBe(false);
  });
});
