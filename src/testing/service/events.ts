import type { IdSource } from './ids.js';
import type { ChargeRecord, SandboxEvent, SandboxEventType } from '../types.js';

/** Every event, oldest first, each handed to `deliver` as it is recorded. */
export class EventLog {
  readonly all: SandboxEvent[] = [];
  readonly #now: () => Date;
  readonly #ids: IdSource;
  readonly #deliver: (event: SandboxEvent) => void;

  constructor(now: () => Date, ids: IdSource, deliver: (event: SandboxEvent) => void = () => {}) {
    this.#now = now;
    this.#ids = ids;
    this.#deliver = deliver;
  }

  /** The newest `count` events, newest first (the events themselves). */
  newest(count: number): SandboxEvent[] {
    return this.all.slice(Math.max(0, this.all.length - count)).reverse();
  }

  /** Records an event that happened `at` (default: now), and hands it to delivery. */
  record(type: SandboxEventType, data: ChargeRecord, at: Date = this.#now()): SandboxEvent {
    const event: SandboxEvent = { id: this.#ids.next('evt_'), type, created_at: at.toISOString(), data };
    this.all.push(event);
    this.#deliver(event);
    return event;
  }
}
