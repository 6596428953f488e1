// A Cloudflare Worker using lunas-sdk. The matrix bundles it with esbuild as
// wrangler would (conditions workerd, worker, browser) and serves it with
// workerd; workerd-driver.mjs sends one POST per step with the sandbox's URL
// and key, and pays the charge between the first two steps; a redirect step
// checks that a 307 the driver armed is an APIError. A third step runs the
// whole scenario against createSandbox inside the Worker, with no network.
/* global Response */
import { APIError, Client, LunasError, NotFoundError } from 'lunas-sdk';
import { createSandbox } from 'lunas-sdk/testing';
import { inProcessScenario } from './in-process.mjs';

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const steps = {
  async create(client) {
    const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
    assert(charge.amount === '25000.00', `charge amount ${charge.amount}`);
    return { chargeId: charge.id };
  },

  async rest(client, { chargeId }) {
    assert((await client.charges.retrieve(chargeId)).status === 'success', 'charge not paid');

    let walked = 0;
    for await (const item of client.charges.list({ pagesize: 50 })) if (item.id) walked += 1;
    assert(walked === 121, `walked ${walked} charges, expected 121`);

    const transfer = await client.transfers.create(
      { destination_account_id: 'acc_partner', amount: '125000.00', currency: 'idr' },
      { idempotencyKey: 'matrix-workerd' },
    );
    assert(transfer.amount === '125000.00', `transfer amount ${transfer.amount}`);

    const missing = await client.charges.retrieve('ch_missing').catch((error) => error);
    assert(missing instanceof NotFoundError && missing instanceof LunasError, `expected NotFoundError, got ${missing}`);
    return { nodeCompat: typeof globalThis.process?.versions?.node === 'string' };
  },

  // The driver armed a 307 pointing at another sandbox: an APIError, whatever workerd makes of redirect: 'manual'.
  async redirect(client) {
    const error = await client.transfers
      .create({ destination_account_id: 'acc_partner', amount: 1000, currency: 'idr' })
      .catch((caught) => caught);
    assert(error instanceof APIError, `expected APIError for a 307, got ${error}`);
    return { status: error.status, location: error.headers.get('location') };
  },

  async inProcess() {
    const { requests, tracing } = await inProcessScenario({ Client, createSandbox });
    return { requests, tracing };
  },
};

export default {
  async fetch(request) {
    const { step, url, apiKey, ...input } = await request.json();
    try {
      if (step === 'inProcess') return Response.json(await steps.inProcess());
      // Constructed per request: a Worker may not share I/O objects between requests.
      const client = new Client({ apiKey, baseURL: url, maxRetries: 0 });
      return Response.json(await steps[step](client, input));
    } catch (error) {
      return Response.json({ error: String(error?.stack ?? error) }, { status: 500 });
    }
  },
};
