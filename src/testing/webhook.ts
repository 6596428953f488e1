import type { SandboxEvent } from './types.js';

const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Fire-and-forget delivery of events to one URL. A failed delivery (network
 * error, timeout, non-2xx answer) is counted, never thrown: a webhook receiver
 * must not be able to break the API under test.
 */
export class WebhookSender {
  readonly #url: string;
  readonly #stop = new AbortController();
  #failures = 0;

  constructor(url: string) {
    this.#url = url;
  }

  /** Deliveries that failed so far. */
  get failures(): number {
    return this.#failures;
  }

  /** Starts delivering `event`; the outcome is only counted. */
  send(event: SandboxEvent): void {
    if (this.#stop.signal.aborted) return;
    const attempt = new AbortController();
    const onStop = (): void => attempt.abort();
    this.#stop.signal.addEventListener('abort', onStop, { once: true });
    const timer = setTimeout(() => attempt.abort(), DELIVERY_TIMEOUT_MS);
    timer.unref();
    fetch(this.#url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'lunas-event-id': event.id },
      body: JSON.stringify(event),
      signal: attempt.signal,
    })
      .then(async (response) => {
        if (!response.ok) this.#failures++;
        await response.body?.cancel();
      })
      .catch(() => {
        if (!this.#stop.signal.aborted) this.#failures++;
      })
      .finally(() => {
        clearTimeout(timer);
        this.#stop.signal.removeEventListener('abort', onStop);
      });
  }

  /** Abandons deliveries in flight; the sandbox is shutting down. */
  close(): void {
    this.#stop.abort();
  }
}
