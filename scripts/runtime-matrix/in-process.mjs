// The in-process scenario every runtime of the matrix runs: createSandbox, a
// Client on its fetch, a charge created and paid (its two events delivered to
// a `webhook` handler in process), 60 more seeded and all 61 walked, the
// charge read back paid. The caller passes the Client and
// createSandbox of the build under test (ESM or CommonJS, bundled for a Worker
// or a page) and the client options its runtime needs. Throws on a mismatch.
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
    return { walked, paid, requests: sandbox.requests.length };
  } finally {
    await sandbox.close();
  }
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}
