import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { listenForTest } from '../helpers/recorders.js';
import type { Json } from './helpers.js';

/**
 * What the receiver does with its nth request (0-based): answer a status;
 * `'hold'` it until a later request is answered (then it gets the same
 * status); or `'hang'`, never answering.
 */
export type Answer = (index: number) => number | 'hold' | 'hang';

interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** The parsed event. */
  event: Json;
  /** The exact bytes received, as text. */
  text: string;
}

/** A webhook endpoint on 127.0.0.1, closed after the test: records each request in arrival order. */
export async function webhookReceiver(answer: Answer = () => 204) {
  const received: ReceivedWebhook[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      const status = answer(received.length);
      received.push({ headers: request.headers, event: JSON.parse(text), text });
      if (status === 'hold') held.push(response);
      if (typeof status !== 'number') return;
      for (const waiting of [...held.splice(0), response]) waiting.writeHead(status).end();
    });
  });
  const origin = await listenForTest(server);
  return { url: `${origin}/hooks`, received, types: () => received.map(({ event }) => event.type as string) };
}
