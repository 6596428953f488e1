/**
 * Creating and settling stay linear in the number of pending webhook
 * deliveries: what one create (an event sent) or one settle costs with 30,000
 * deliveries pending is a small multiple of its cost with 1,000, not 30 times
 * it. Ratios, not a time budget, so a loaded machine does not fail it.
 * In `npm run test:slow`: the five runs, 30,000 deliveries each, take seconds of CPU.
 */
import { describe, expect, it } from 'vitest';
import { timePending } from './pending-timing.js';

describe('pending webhook deliveries', () => {
  it('cost each create and settle about the same with 1,000 or 30,000 pending', async () => {
    // Warm up, then take each size's best of two runs: the least disturbed by the rest of the machine.
    await timePending(1_000);
    const best = async (pending: number) => {
      const runs = [await timePending(pending), await timePending(pending)];
      return {
        perSend: Math.min(...runs.map(({ perSend }) => perSend)),
        perSettle: Math.min(...runs.map(({ perSettle }) => perSettle)),
      };
    };
    const few = await best(1_000);
    const many = await best(30_000);
    const ratios = { create: many.perSend / few.perSend, settle: many.perSettle / few.perSettle };
    expect(ratios.create, JSON.stringify({ few, many })).toBeLessThan(8);
    expect(ratios.settle, JSON.stringify({ few, many })).toBeLessThan(8);
  }, 120_000);
});
