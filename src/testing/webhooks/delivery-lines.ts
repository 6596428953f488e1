/**
 * The `lunas-sandbox` command's lines about webhook deliveries: one report per
 * attempt while it serves, and a delivery's whole story for `lunas-sandbox deliveries`.
 */
import { printable } from '../cli/printable.js';
import type { WebhookAttempt, WebhookDelivery } from './delivery-types.js';

/**
 * The lines to print after an attempt of `delivery` (its last one): a line
 * for a failed attempt, saying when it is retried, then a line for the
 * delivery once it is delivered or given up.
 */
export function deliveryLines(delivery: WebhookDelivery): string[] {
  const attempt = delivery.attempts.at(-1);
  if (attempt === undefined) return [];
  const count = delivery.attempts.length;
  const subject = `webhook ${delivery.eventType} ${delivery.eventId}${delivery.redelivery ? ' (redelivery)' : ''}`;
  const lines: string[] = [];
  if (!attempt.ok) {
    const next =
      delivery.retryAt === null
        ? 'giving up'
        : `retrying in ${formatMs(delivery.retryAt.getTime() - attempt.startedAt.getTime() - attempt.durationMs)}`;
    lines.push(`${subject} attempt ${count} failed: ${outcome(attempt)} (${attempt.durationMs} ms); ${next}`);
  }
  if (delivery.state === 'pending') return lines;
  const first = delivery.attempts[0]!;
  const elapsed = attempt.startedAt.getTime() + attempt.durationMs - first.startedAt.getTime();
  const attempts = `${count} attempt${count === 1 ? '' : 's'}`;
  lines.push(`${subject} ${delivery.state}: ${outcome(attempt)}, ${attempts}, ${elapsed} ms`);
  return lines;
}

/**
 * A delivery with every attempt, for `lunas-sandbox deliveries`: a line for the
 * delivery (its event, the charge, where it stands), then one per attempt, then
 * when the next attempt is due while a retry waits.
 */
export function deliveryListing(delivery: WebhookDelivery): string[] {
  const count = delivery.attempts.length;
  const charge = delivery.event.data;
  const lines = [
    `webhook ${delivery.eventType} ${delivery.eventId}${delivery.redelivery ? ' (redelivery)' : ''} ` +
      `for ${charge.id} (${charge.status}): ${delivery.state}, ${count} attempt${count === 1 ? '' : 's'}`,
  ];
  delivery.attempts.forEach((attempt, index) => {
    lines.push(
      `  attempt ${index + 1} at ${attempt.startedAt.toISOString()}: ${outcome(attempt)} (${attempt.durationMs} ms)`,
    );
  });
  if (delivery.retryAt !== null) lines.push(`  next attempt at ${delivery.retryAt.toISOString()}`);
  return lines;
}

/** What an attempt got: its status (and a redirect's target), or why there was none. */
export function outcome(attempt: WebhookAttempt): string {
  if (attempt.status === null) return attempt.error ?? 'no answer';
  if (attempt.location === undefined) return `HTTP ${attempt.status}`;
  // The receiver wrote it: escaped, so no control character (C0, DEL, C1) reaches the terminal.
  return `HTTP ${attempt.status} to ${printable(attempt.location)}`;
}

/** `250 ms`, `1 s`, `2 min`: the schedule's delays as a person reads them. */
function formatMs(ms: number): string {
  const rounded = Math.max(0, Math.round(ms));
  if (rounded < 1_000) return `${rounded} ms`;
  if (rounded < 60_000 || rounded % 60_000 !== 0) return `${Math.round(rounded / 100) / 10} s`;
  return `${rounded / 60_000} min`;
}
