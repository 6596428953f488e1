/**
 * The API key never leaks, property-based: keys drawn from the base64 and
 * base64url alphabets and from all of printable ASCII, put where a caller or
 * a service can put them (a raw call's path, a query name and value, an id,
 * a charge's description, a raw body: each refused before sending; a
 * body echoing it literal, JSON-escaped or percent-encoded in either case),
 * and a custom fetch that throws errors carrying the Request, its Headers,
 * an axios-style config and nested causes. No form of the key (literal,
 * percent-encoded in either case, as a URL serialises it, JSON-escaped)
 * appears in the error's message, stack, `util.inspect` or JSON, in any
 * event, in any debug line, or in the result.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Secret } from '../../../src/core/report/secrets.js';
import { Client, LunasError, RequestValidationError } from '../../../src/index.js';
import { keyForms, keyLeaks, renderings } from '../../helpers/key-forms.js';
import { recordEvents, recordingLogger } from '../../helpers/recorders.js';
import { chargeJson } from '../../helpers/fixtures.js';

const RUNS = Number(process.env.LUNAS_PROPERTY_RUNS ?? 150);
const BASE_URL = 'https://api.lunas.test';

const alphabet = (chars: string) => fc.constantFrom(...chars);
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=';
const PRINTABLE = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join('');

/** Keys long enough that no other text holds them by chance. */
const key = fc.oneof(
  fc.string({ unit: alphabet(BASE64), minLength: 16, maxLength: 48 }),
  fc.string({ unit: alphabet(`${BASE64.slice(0, 62)}-_`), minLength: 16, maxLength: 48 }),
  fc.string({ unit: alphabet(PRINTABLE), minLength: 16, maxLength: 48 }),
);

/** Where the caller puts the key. */
type Placement = 'path' | 'query name' | 'query value' | 'id' | 'description' | 'raw body' | 'nowhere';
const placement = fc.constantFrom<Placement>(
  'path',
  'query name',
  'query value',
  'id',
  'description',
  'raw body',
  'nowhere',
);

/** How the service writes the key back, from the text it is given (the key, or the URL it received). */
const encodings: Record<string, (text: string) => string> = {
  literal: (text) => text,
  'JSON-escaped': (text) => JSON.stringify(text).slice(1, -1).replaceAll('/', '\\/'),
  'unicode-escaped': (text) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'percent-encoded': (text) => encodeURIComponent(text),
  'percent-encoded, lower case': (text) => encodeURIComponent(text).replace(/%../g, (e) => e.toLowerCase()),
};
/**
 * The key echoed in any form, or the URL the service received (the key in it
 * as the URL serialised it) in the forms a service writes a URL in: a JSON
 * encoder escapes no `%`, so a percent-encoded key is never also \u-escaped.
 */
const echoed = fc.oneof(
  fc.constantFrom(...Object.keys(encodings)).map((form) => ({ url: false, form })),
  fc
    .constantFrom(...Object.keys(encodings).filter((form) => form !== 'unicode-escaped'))
    .map((form) => ({ url: true, form })),
);

/** What the service answers, `echo` being the key or the URL, encoded as a JSON string's content or raw. */
type Answer = 'success' | 'fail' | 'error' | 'text' | 'retry' | 'throw';
const answer = fc.constantFrom<Answer>('success', 'fail', 'error', 'text', 'retry', 'throw');

/** What a custom fetch's error carries besides its message. */
const carrier = fc.constantFrom('Request', 'Headers', 'axios config', 'nested causes');

function thrownBy(request: Request, kind: string, echo: string): unknown {
  const authorization = request.headers.get('authorization');
  const carried =
    kind === 'Request'
      ? { request }
      : kind === 'Headers'
        ? { headers: request.headers }
        : kind === 'axios config'
          ? { config: { url: request.url, headers: { Authorization: authorization } } }
          : {};
  const inner = Object.assign(new Error(`socket to ${request.url} reset (${echo})`), { code: authorization }, carried);
  const middle = new Error(`${authorization} refused`, { cause: inner });
  return Object.assign(
    new TypeError(`fetch failed: ${echo}`, { cause: kind === 'nested causes' ? middle : inner }),
    carried,
  );
}

function respond(request: Request, kind: Answer, echo: string, thrown: string, attempt: number): Response {
  // The JSON-escaped and unicode-escaped forms are already a JSON string's content.
  const inJson = (text: string) => (text.includes('\\') ? text : JSON.stringify(text).slice(1, -1));
  const message = `Bearer ${inJson(echo)} at ${inJson(request.url)}`;
  switch (kind) {
    case 'success':
      return new Response(
        `{"status":"success","data":${JSON.stringify(chargeJson({ description: null })).replace('"description":null', () => `"description":"${message}"`)}}`,
      );
    case 'fail':
      return new Response(`{"status":"fail","data":{"authorization":["${message}"],"${inJson(echo)}":"x"}}`, {
        status: 400,
      });
    case 'error':
      return new Response(`{"status":"error","message":"${message}"}`, { status: 401 });
    case 'text':
      return new Response(`<pre>${echo} ${request.url}</pre>`, { status: 502, headers: { 'x-echo': echo } });
    case 'retry':
      return attempt === 1
        ? new Response(`{"status":"error","message":"${message}"}`, {
            status: 503,
            headers: { 'retry-after-ms': '0' },
          })
        : new Response(`{"status":"success","data":{"note":"${message}"}}`);
    case 'throw':
      throw thrownBy(request, thrown, echo);
  }
}

/** Calls with the key placed `where`; in a raw body, written in `form` (as a caller may copy it from a log). */
async function call(client: Client, secret: string, where: Placement, form: string): Promise<unknown> {
  switch (where) {
    case 'path':
      return client.get(`/v1/things/${secret}`);
    case 'query name':
      return client.get('/v1/things', { query: { [secret]: 'x' } });
    case 'query value':
      return client.get('/v1/things', { query: { q: secret } });
    case 'id':
      return client.charges.retrieve(secret);
    case 'description':
      return client.charges.create({ payment_method: 'qris', amount: 10_000, description: `key: ${secret}.` });
    case 'raw body':
      return client.post('/v1/things', { body: { metadata: { note: [`the key is ${encodings[form]!(secret)}`] } } });
    case 'nowhere':
      return client.charges.retrieve('ch_1');
  }
}

describe('the API key, in any form, placed anywhere', () => {
  it('the forms the tests look for are the forms a URL and JSON give it', () => {
    const forms = keyForms('sk_Zm9v+YmFy/cXV4==');
    expect(forms).toContain('sk_Zm9v%2BYmFy%2FcXV4%3D%3D');
    expect(forms).toContain('sk_Zm9v%2bYmFy%2fcXV4%3d%3d');
    expect(forms).toContain('sk_Zm9v+YmFy\\/cXV4==');
    expect(forms).toContain(new URLSearchParams({ k: 'sk_Zm9v+YmFy/cXV4==' }).toString().slice(2));
  });

  it('a URL path that resolves a dot segment of the key away is not one of its forms (seed -1976588416)', () => {
    // new URL() drops `./`, leaving `!!"!!` written as `!!%22!!`: a piece of the key, not the key.
    expect(keyForms('./!!"!!')).not.toContain('!!%22!!');
    expect(keyForms('./!!"!!')).toContain('.%2F!!%22!!');
    expect(keyForms('a./b"c')).toContain('a./b%22c');
  });

  it('appears in no error, event, log line or result', async () => {
    await fc.assert(
      fc.asyncProperty(
        key,
        placement,
        answer,
        echoed,
        carrier,
        async (secret, where, kind, { url: echoUrl, form }, thrown) => {
          const { lines, logger } = recordingLogger();
          const client = new Client({
            apiKey: secret,
            baseURL: BASE_URL,
            maxRetries: kind === 'retry' ? 1 : 0, // A connection error would wait out a backoff.
            logger,
            logLevel: 'debug',
            fetch: async (input, init) => {
              const request = new Request(input, init);
              attempts++;
              const echo = encodings[form]!(echoUrl ? request.url : secret);
              return respond(request, kind, echo, thrown, attempts);
            },
          });
          let attempts = 0;
          const events = recordEvents(client);
          let outcome: unknown;
          try {
            outcome = await call(client, secret, where, form);
          } catch (error) {
            expect(error).toBeInstanceOf(LunasError);
            outcome = error;
          }
          const shown = [...renderings(outcome), ...events.flatMap(({ event }) => renderings(event)), ...lines];
          expect(keyLeaks(shown, secret)).toEqual([]);
          if (where !== 'nowhere') {
            // The key as a parameter is refused before sending, whatever the key (one with `?`
            // or `..` in a path may be refused for that first).
            expect(outcome).toBeInstanceOf(RequestValidationError);
            expect(attempts).toBe(0);
          } else if (!echoUrl || kind === 'throw') {
            // The key reached the SDK (in an echo or a thrown error), and was masked.
            expect(shown.join('\n')).toContain('[REDACTED]');
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});

/** Keys heavy in the characters whose forms overlap: `\\`, `/`, `"`, `%`. */
const trickyKey = fc.string({
  unit: fc.constantFrom('\\', '/', '"', '%', '2', '5', 'u', '0', 'c', 'A'),
  minLength: 1,
  maxLength: 40,
});

describe('the API key as a name the caller gave', () => {
  it('is masked in every refusal that quotes names: client and request options, headers, fields, toArray', async () => {
    const where = fc.constantFrom('client option', 'request option', 'header', 'charge field', 'toArray option');
    await fc.assert(
      fc.asyncProperty(key, where, async (apiKey, place) => {
        const client = new Client({
          apiKey,
          baseURL: BASE_URL,
          maxRetries: 0,
          fetch: () => Promise.reject(new Error('sent')),
        });
        const named = { [apiKey]: 1 };
        const refusal = await (async () => {
          try {
            if (place === 'client option') new Client({ apiKey, baseURL: BASE_URL, ...named });
            if (place === 'request option') await client.charges.retrieve('ch_1', named);
            if (place === 'header') await client.charges.retrieve('ch_1', { headers: { [`x-${apiKey}`]: 'v' } });
            if (place === 'charge field')
              await client.charges.create({ payment_method: 'qris', amount: 10_000, ...named });
            if (place === 'toArray option') await client.payouts.list().toArray({ limit: 1, ...named });
          } catch (error) {
            return error;
          }
          return undefined;
        })();
        expect(refusal).toBeInstanceOf(LunasError);
        expect(keyLeaks(renderings(refusal), apiKey)).toEqual([]);
        // Nor the start of a key too long to be quoted whole (a quote shows 40 characters, then …).
        for (const text of renderings(refusal)) expect(text).not.toContain(apiKey.slice(0, 12));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('a key too short to mask safely', () => {
  it('is refused at construction, and never cuts letters out of a message', () => {
    const short = fc.string({ unit: alphabet(PRINTABLE), minLength: 1, maxLength: 11 });
    fc.assert(
      fc.property(short, (apiKey) => {
        const refusal = (options: object) => {
          try {
            new Client({ apiKey, baseURL: BASE_URL, ...options });
          } catch (error) {
            return error;
          }
          return undefined;
        };
        expect(refusal({})).toEqual(
          new LunasError(
            'The API key is shorter than 12 characters, which no real key is: ' +
              'check that the whole key was read from your secret store, not a placeholder',
          ),
        );
        expect(refusal({ timeOut: 1 })).toEqual(new LunasError('Unknown option "timeOut": did you mean "timeout"?'));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('what lunas refuses to send is what it masks', () => {
  it('a raw body holding any form of the key inside any text is refused, naming the field, nothing sent', async () => {
    const longTricky = fc.string({
      unit: fc.constantFrom('\\', '/', '"', '%', '2', '5', 'u', '0', 'c', 'A'),
      minLength: 12,
      maxLength: 40,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(key, longTricky),
        fc.nat(),
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        async (secret, pick, before, after) => {
          const forms = keyForms(secret);
          const note = `${before}${forms[pick % forms.length]!}${after}`;
          let sent = 0;
          const client = new Client({
            apiKey: secret,
            baseURL: BASE_URL,
            maxRetries: 0,
            fetch: () => {
              sent++;
              return Promise.reject(new Error('sent'));
            },
          });
          const error = await client.post('/v1/things', { body: { metadata: { note } } }).catch((e: unknown) => e);
          expect(sent).toBe(0);
          expect(error).toBeInstanceOf(RequestValidationError);
          expect(Object.keys((error as RequestValidationError).fields)).toEqual(['body.metadata.note']);
          expect(keyLeaks(renderings(error), secret)).toEqual([]);
        },
      ),
      { numRuns: RUNS * 4 },
    );
  });
});

describe('the matcher', () => {
  it('masks every form an encoder gives any key, inside any text', () => {
    fc.assert(
      fc.property(
        fc.oneof(key, trickyKey),
        fc.nat(),
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        (secret, pick, before, after) => {
          const forms = keyForms(secret);
          const text = `${before}${forms[pick % forms.length]!}${after}`;
          const masked = new Secret(secret).mask(text);
          expect(masked).toContain('[REDACTED]');
          // Only where the mask itself spells the key (a key inside "[REDACTED]") may it remain.
          if (!'[REDACTED]'.includes(secret)) expect(masked).not.toContain(secret);
        },
      ),
      { numRuns: RUNS * 10 },
    );
  });

  it('takes linear time on a hostile body, whatever the key', () => {
    // Runs of backslashes and `\\/` pairs: per-character alternatives backtracked exponentially on them.
    for (const secret of ['\\'.repeat(24), '\\/'.repeat(16), '\\"'.repeat(16), '%'.repeat(24), '%25'.repeat(12)]) {
      const near = keyForms(secret).map((form) => form.slice(0, -1));
      const body = `${near.join('x')}x`.repeat(Math.ceil(50_000 / near.join('x').length));
      const started = performance.now();
      new Secret(secret).mask(body);
      expect(performance.now() - started).toBeLessThan(250);
    }
  });
});
