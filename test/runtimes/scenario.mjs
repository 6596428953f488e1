// The scenario every Node.js, Bun and Deno row of the matrix runs on one build of lunas-sdk,
// handed its exports by esm.mjs (import) or cjs.cjs (require): the sandbox started, a charge
// created and paid, a list walked across pages, a transfer, an error class, and a 307 that is
// an APIError (nothing sent where it points); then the in-process scenario (in-process.mjs).
// On the Node.js rows (LUNAS_MATRIX_TRANSPORT set), it first checks which transport sends
// (`fetch`: global fetch; `undici`: undiciFetch from lunas-sdk/undici) and ends with
// lunas-sdk/otel and lunas-sdk/mcp, each checked with one call. Prints `OK <format>`.
/* global console, process, setTimeout, clearTimeout */
import { inProcessScenario } from './in-process.mjs';

/** 'fetch' or 'undici' on the Node.js rows, unset elsewhere (Deno runs without environment access, where reading it throws). */
function expectedTransport() {
  try {
    return process.env.LUNAS_MATRIX_TRANSPORT;
  } catch {
    return undefined;
  }
}

export async function runScenario(format, lunas) {
  const { APIError, Client, LunasError, NotFoundError, createSandbox, startSandbox } = lunas;
  const watchdog = setTimeout(() => {
    console.error(`${format}: timed out`);
    process.exit(1);
  }, 30_000);
  const transport = expectedTransport();
  const fetchOption = transport === 'undici' ? { fetch: (await lunas.loadUndici()).undiciFetch } : {};
  if (transport) await checkTransport(Client, fetchOption, transport);
  const sandbox = await startSandbox();
  try {
    const client = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url, maxRetries: 0, ...fetchOption });
    const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
    assert(charge.amount === '25000.00', `charge amount ${charge.amount}`);
    await sandbox.payCharge(charge.id);
    assert((await client.charges.retrieve(charge.id)).status === 'success', 'charge not paid');

    sandbox.seedCharges(120);
    let walked = 0;
    for await (const item of client.charges.list({ pagesize: 50 })) if (item.id) walked += 1;
    assert(walked === 121, `walked ${walked} charges, expected 121`);

    const transfer = await client.transfers.create(
      { destination_account_id: 'acc_partner', amount: '125000.00', currency: 'idr' },
      { idempotencyKey: `matrix-${format}` },
    );
    assert(transfer.amount === '125000.00', `transfer amount ${transfer.amount}`);
    assert(sandbox.balance('acc_partner') === '125000.00', `partner balance ${sandbox.balance('acc_partner')}`);

    const missing = await client.charges.retrieve('ch_missing').catch((error) => error);
    assert(missing instanceof NotFoundError && missing instanceof LunasError, `expected NotFoundError, got ${missing}`);

    // A redirect is never followed, whatever this runtime's fetch makes of redirect: 'manual'.
    const elsewhere = await startSandbox();
    try {
      const location = `${elsewhere.url}/v1/transfers`;
      sandbox.inject({ kind: 'status', status: 307, path: '/v1/transfers', headers: { location } });
      const redirected = await client.transfers
        .create({ destination_account_id: 'acc_partner', amount: 1000, currency: 'idr' })
        .catch((error) => error);
      assert(
        redirected instanceof APIError && redirected.status === 307 && redirected.headers.get('location') === location,
        `expected APIError 307 with its Location, got ${redirected}`,
      );
      assert(elsewhere.requests.length === 0, `the redirect's target saw ${elsewhere.requests.length} requests`);
    } finally {
      await elsewhere.close();
    }
  } finally {
    await sandbox.close();
    clearTimeout(watchdog);
  }
  // Node.js (20.16 on), Bun and Deno all offer diagnostics_channel, so every call is published.
  const { tracing } = await inProcessScenario({ Client, createSandbox });
  assert(tracing === 'published', `lunas:operation ${tracing} on this runtime`);
  if (transport) await optionalEntryPoints(lunas, fetchOption);
  console.log(`OK ${format}`);
}

// lunas-sdk/otel on the lowest @opentelemetry/api of its peer range, with an in-memory tracer and
// meter: a call's operation and attempt spans end, and its duration is recorded. lunas-sdk/mcp on
// @modelcontextprotocol/server: createMcpServer builds a server.
async function optionalEntryPoints({ Client, startSandbox, loadOtel, loadMcp }, fetchOption) {
  const { instrumentLunas } = await loadOtel();
  const spans = [];
  const durations = [];
  const tracer = {
    startSpan(name, options = {}) {
      const span = { name, attributes: { ...options.attributes }, ended: false };
      Object.assign(span, {
        spanContext: () => ({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 }),
        setAttribute: (key, value) => ((span.attributes[key] = value), span),
        setAttributes: (values) => (Object.assign(span.attributes, values), span),
        setStatus: (status) => ((span.status = status), span),
        recordException: () => undefined,
        isRecording: () => true,
        end: () => void (span.ended = true),
      });
      spans.push(span);
      return span;
    },
  };
  const meter = { createHistogram: () => ({ record: (seconds) => durations.push(seconds) }) };
  const stop = instrumentLunas({
    tracerProvider: { getTracer: () => tracer },
    meterProvider: { getMeter: () => meter },
  });
  const sandbox = await startSandbox();
  try {
    const client = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url, maxRetries: 0, ...fetchOption });
    await client.charges.create({ payment_method: 'qris', amount: 1000 });
    const { createMcpServer } = await loadMcp();
    const server = createMcpServer({ apiKey: sandbox.apiKey, baseURL: sandbox.url });
    assert(typeof server.connect === 'function', `createMcpServer gave ${server}`);
    await server.close();
  } finally {
    stop();
    await sandbox.close();
  }
  const names = spans.map((span) => `${span.name}${span.ended ? '' : ' (open)'}`).join(', ');
  assert(spans.length === 2 && spans.every((span) => span.ended), `spans: ${names}`);
  assert(
    spans[0].name === 'lunas charges.create' && spans[0].attributes['http.response.status_code'] === 200,
    `spans: ${names}`,
  );
  assert(durations.length === 1 && durations[0] > 0, `durations: ${durations.join(', ')}`);
}

// Node's fetch adds the Fetch standard's `sec-fetch-mode`; undici's request sends only what it is given.
// The first request and the later ones go the same way.
async function checkTransport(Client, fetchOption, expected) {
  const { createServer } = await import('node:http');
  const seen = [];
  const server = createServer((request, response) => {
    seen.push(request.headers['sec-fetch-mode'] === 'cors' ? 'fetch' : 'undici');
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"status":"error","message":"no such charge"}');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const baseURL = `http://127.0.0.1:${server.address().port}`;
    const client = new Client({ apiKey: 'sk_test_which_transport', baseURL, maxRetries: 0, ...fetchOption });
    for (let call = 0; call < 3; call++) await client.charges.retrieve('ch_1').catch(() => undefined);
  } finally {
    server.closeAllConnections();
    server.close();
  }
  assert(
    seen.length === 3 && seen.every((sent) => sent === expected),
    `sent through ${seen.join(', ')}, expected ${expected} each time`,
  );
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}
