import { newId } from './ids.js';
import type { ChargeRecord, SandboxEvent, SandboxEventType } from './types.js';

/** Every event, oldest first, each handed to `deliver` as it is recorded. */
export class EventLog {
  readonly all: SandboxEvent[] = [];

  constructor(
    private readonly now: () => Date,
    private readonly deliver: (event: SandboxEvent) => void = () => {},
  ) {}

  record(type: SandboxEventType, data: ChargeRecord): SandboxEvent {
    const event: SandboxEvent = { id: newId('evt_'), type, created_at: this.now().toISOString(), data };
    this.all.push(event);
    this.deliver(event);
    return event;
  }
}
