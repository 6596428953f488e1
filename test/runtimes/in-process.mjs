// The in-process scenario every runtime of the matrix runs: createSandbox, a
// Client on its fetch, a charge created and paid (its two events delivered to
// a `webhook` handler in process), 60 more seeded and all 61 walked, the
// charge read back paid. The caller passes the Client and
// createSandbox of the build under test (ESM or CommonJS, bundled for a Worker
// or a page) and the client options its runtime needs. Throws on a mismatch.
// Where the runtime offers node:diagnostics_channel through
// process.getBuiltinModule, every call must be published on lunas:operation,
// one per request the sandbox saw; `tracing` says which it was.
/* global Response */

/** Resolves to what the sandbox saw; rejects with the first mismatch. */
export async function inProcessScenario({ Client, createSandbox }, clientOptions = {}) {
  const received = [];
  const sandbox = createSandbox({
    webhook: (request) => {
      received.push(request.headers.get('lunas-event-id'));
      return new Response(null, { status: 204 });
    },
  });
  const channels = diagnosticsChannel();
  const operations = [];
  const onStart = (context) => operations.push(`${context.operation} ${context.route}`);
  channels?.tracingChannel('lunas:operation').start.subscribe(onStart);
  try {
    const client = new Client({
      fetch: sandbox.fetch,
      baseURL: sandbox.url,
      apiKey: sandbox.apiKey,
      maxRetries: 0,
      ...clientOptions,
    });
    const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
    check(charge.payment_url.startsWith(`${sandbox.url}/pay/`), `payment_url ${charge.payment_url}`);
    await sandbox.payCharge(charge.id);
    await sandbox.webhooksSettled();
    const delivered = sandbox.deliveries.filter(({ state }) => state === 'delivered').map(({ eventId }) => eventId);
    const events = sandbox.events.map(({ id }) => id);
    check(
      events.length === 2 && [delivered, received].every((ids) => ids.join() === events.join()),
      `events ${events} delivered ${delivered} received ${received}`,
    );
    sandbox.seedCharges(60);
    let walked = 0;
    for await (const item of client.charges.list({ pagesize: 25 })) if (item.id) walked += 1;
    check(walked === 61, `walked ${walked} in-process charges, expected 61`);
    const paid = (await client.charges.retrieve(charge.id)).status;
    check(paid === 'success', `in-process charge ${paid}, not paid`);
    const requests = sandbox.requests.length;
    if (channels) {
      check(operations.length === requests, `${operations.length} operations published for ${requests} requests`);
      check(operations[0] === 'charges.create /v1/payments/charges', `first operation ${operations[0]}`);
      check(operations.at(-1) === 'charges.retrieve /v1/payments/charges/{id}', `last operation ${operations.at(-1)}`);
    }
    return { walked, paid, requests, tracing: channels ? 'published' : 'unavailable' };
  } finally {
    channels?.tracingChannel('lunas:operation').start.unsubscribe(onStart);
    await sandbox.close();
  }
}

/** The runtime's diagnostics_channel, as lunas looks it up, or undefined. */
function diagnosticsChannel() {
  try {
    return globalThis.process?.getBuiltinModule?.('node:diagnostics_channel');
  } catch {
    return undefined;
  }
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}
