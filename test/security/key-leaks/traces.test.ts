/**
 * The API key in no context of the tracing channels (`lunas:operation`,
 * `lunas:attempt`), however it is rendered; a call whose raw path or query
 * holds it publishes nothing.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { InternalServerError, RequestValidationError } from '../../../src/index.js';
import { makeClient } from '../../helpers/msw.js';
import { jsonReply, route } from '../../helpers/requests.js';
import { API_KEY } from '../../helpers/fixtures.js';
import { rejection } from '../../helpers/rejection.js';
import { recordTracing } from '../../helpers/tracing.js';

const NO_WAIT = { 'retry-after-ms': '0' };

describe('the API key', () => {
  it('is in no context, however it is rendered; put in a raw path or query by mistake, nothing is published', async () => {
    const client = makeClient({ maxRetries: 1 });
    route('GET', '/v1/*', () => jsonReply(500, { status: 'error', message: `echo ${API_KEY}` }, NO_WAIT));
    const trace = recordTracing();

    // Refused before sending: a call refused publishes nothing.
    await rejection(client.get(`/v1/${API_KEY}`, { query: { key: API_KEY } }), RequestValidationError);
    await rejection(client.get(`/v1/${encodeURIComponent(API_KEY)}`), RequestValidationError);
    expect(trace.records).toEqual([]);
    await rejection(client.get('/v1/things'), InternalServerError);

    expect(trace.records.length).toBeGreaterThan(0);
    for (const record of trace.records) {
      for (const text of [JSON.stringify(record.seen), inspect(record.seen, { depth: 5, showHidden: true })]) {
        expect(text).not.toContain(API_KEY);
      }
    }
  });
});
