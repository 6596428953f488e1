/**
 * core/options.ts: a client's options resolved into settings, the hand-over in
 * withOptions() (listeners shared only with a derived client).
 */
import { describe, expect, it } from 'vitest';
import { readClientOptions, resolveClientSettings } from '../../src/core/options.js';
import { Client, LunasError } from '../../src/index.js';
import { API_KEY, BASE_URL } from '../helpers/fixtures.js';

describe('resolveClientSettings', () => {
  it('applies the defaults and drops a final /v1 from the base URL', () => {
    const settings = resolveClientSettings({ apiKey: API_KEY, baseURL: `${BASE_URL}/v1/`, logLevel: 'off' });
    expect(settings).toMatchObject({ baseURL: BASE_URL, timeout: 30_000, maxRetries: 2, defaultHeaders: {} });
    expect(settings.secret.mask(`key ${API_KEY}`)).toBe('key [REDACTED]');
  });

  it('reports the first bad value the way the constructor always has', () => {
    const options = { apiKey: API_KEY, baseURL: BASE_URL, timeout: 0, defaultHeaders: { host: 'x' } };
    expect(() => resolveClientSettings(options)).toThrow(/^Invalid timeout: Timeout must be/);
    expect(() => resolveClientSettings({ ...options, timeout: 1 })).toThrow(/^Invalid defaultHeaders\.host: /);
  });
});

describe('readClientOptions', () => {
  it('keeps every known name as an own key and refuses others by name', () => {
    expect(Object.keys(readClientOptions(null))).toContain('dangerouslyAllowBrowser');
    expect(() => readClientOptions({ baseUrl: BASE_URL })).toThrow('did you mean "baseURL"?');
  });
});

describe('listeners reach a new client only through withOptions()', () => {
  it('an options object shaped like the hand-over is refused by name, not read', () => {
    const forged = { options: { apiKey: API_KEY, baseURL: BASE_URL }, events: {} };
    expect(() => new Client(forged as never)).toThrow(LunasError);
    expect(() => new Client(forged as never)).toThrow(/Unknown option "options"/);
  });
});
