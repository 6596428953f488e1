/**
 * The API key in no log line, even at debug level with the service echoing it
 * in an error body, and in the lines of a call that finally fails.
 */
import { describe, expect, it } from 'vitest';
import { InternalServerError } from '../../../src/index.js';
import { makeClient } from '../../helpers/msw.js';
import { recordingLogger } from '../../helpers/recorders.js';
import { CHARGE_PATH, jsonReply, route, textReply, TRANSFER_PARAMS, TRANSFERS_PATH } from '../../helpers/requests.js';
import { API_KEY, CHARGE_ID, success, transferJson } from '../../helpers/fixtures.js';
import { rejection } from '../../helpers/rejection.js';

describe('the API key never appears in a log line', () => {
  it('even when the server echoes it in an error body and debug logging is on', async () => {
    route('POST', TRANSFERS_PATH, (attempt) =>
      attempt < 3
        ? jsonReply(500, { status: 'error', message: `upstream rejected Bearer ${API_KEY}` }, { 'retry-after-ms': '0' })
        : jsonReply(200, success(transferJson())),
    );
    const { lines, logger } = recordingLogger();
    await makeClient({ logger, logLevel: 'debug' }).transfers.create(TRANSFER_PARAMS);

    expect(lines.length).toBeGreaterThanOrEqual(5); // 3 attempts, 2 retries
    expect(lines.some((line) => line.includes('upstream rejected Bearer [REDACTED]'))).toBe(true);
    for (const line of lines) expect(line).not.toContain(API_KEY);
  });

  it('nor in the lines of a call that finally fails', async () => {
    route('GET', CHARGE_PATH, () => textReply(503, `<h1>${API_KEY}</h1>`, { 'retry-after-ms': '0' }));
    const { lines, logger } = recordingLogger();
    const error = await rejection(makeClient({ logger, logLevel: 'debug' }).charges.retrieve(CHARGE_ID));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) expect(line).not.toContain(API_KEY);
  });
});
