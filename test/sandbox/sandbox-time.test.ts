/**
 * The sandbox's time on its root page: the time, whose clock it is and how
 * far advanceClock moved it, in words (the words' rules as a unit, the page
 * over HTTP and in process).
 */
import { describe, expect, it } from 'vitest';
import { clockNote } from '../../src/testing/pages/sandbox-time.js';
import { call, inProcessSandbox, sandbox } from './helpers.js';

const T0 = new Date('2025-03-01T10:00:00.000Z');

describe('clockNote', () => {
  it.each([
    [{ realClock: true, advancedMs: 0 }, ''],
    [{ realClock: true, advancedMs: 86_400_000 }, ' (1 d ahead of real time)'],
    [{ realClock: false, advancedMs: 0 }, " (the now option's clock)"],
    [{ realClock: false, advancedMs: 7_200_000 }, " (the now option's clock plus 2 h)"],
  ])('%o reads %j', (time, note) => {
    expect(clockNote({ now: T0.toISOString(), ...time })).toBe(note);
  });

  it.each([
    [1, '1 ms'],
    [1_500, '1 s 500 ms'],
    [90_000, '1 min 30 s'],
    [15 * 60_000, '15 min'],
    [3_600_000 + 500, '1 h'],
    [26 * 3_600_000, '1 d 2 h'],
    [3 * 86_400_000 + 59_000, '3 d'],
    [365 * 86_400_000, '365 d'],
  ])('says %s ms as %s: its largest unit, and the next one down unless it is zero', (advancedMs, text) => {
    expect(clockNote({ now: T0.toISOString(), realClock: true, advancedMs })).toBe(` (${text} ahead of real time)`);
  });
});

/** The page's line with the sandbox's time. */
const timeLine = (html: string): string => /<p id="sandbox-time">(.*?)<\/p>/.exec(html)?.[1] ?? '(no time line)';

describe('the root page shows the sandbox’s time', () => {
  it('over HTTP on the real clock: the time, and how far ahead once advanced', async () => {
    const box = await sandbox();
    const before = await call(box, 'GET', '/', { key: null });
    expect(timeLine(before.text)).toMatch(
      /^Sandbox time: <time datetime="(\d{4}-\d\d-\d\dT[\d:.]+Z)" title="\1">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d<\/time> UTC$/,
    );
    await box.advanceClock(26 * 3_600_000);
    const after = timeLine((await call(box, 'GET', '/', { key: null })).text);
    expect(after).toMatch(/ UTC \(1 d 2 h ahead of real time\)$/);
    const shown = Date.parse(/datetime="([^"]+)"/.exec(after)![1]!);
    expect(shown - Date.now()).toBeGreaterThan(26 * 3_600_000 - 60_000);
  });

  it('in process, on the now option’s clock', async () => {
    const box = inProcessSandbox({ now: () => T0 });
    await box.advanceClock(2 * 3_600_000);
    const page = await call(box, 'GET', '/', { key: null });
    expect(timeLine(page.text)).toBe(
      'Sandbox time: <time datetime="2025-03-01T12:00:00.000Z" title="2025-03-01T12:00:00.000Z">2025-03-01 12:00:00</time> UTC' +
        ' (the now option&#39;s clock plus 2 h)',
    );
  });
});
