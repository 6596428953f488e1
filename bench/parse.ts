// Measurement 5: what the SDK adds on top of JSON.parse for one 100-charge
// list page, with the network taken out. The SDK exports no parse function,
// so a custom `fetch` hands it prebuilt Responses: the figure covers the whole
// client path (request setup, body read, envelope, Zod), not Zod alone.
import { sdkClient } from './clients.js';
import { listBody } from './fixtures.js';
import { median, timeMs } from './stats.js';

export interface ParseCost {
  sdkUsPerPage: number;
  jsonParseUsPerPage: number;
  /** Response body read plus JSON.parse: the part of the SDK figure that any fetch client pays. */
  responseTextParseUsPerPage: number;
  ratio: number;
  pageBytes: number;
}

const init = { status: 200, headers: { 'content-type': 'application/json' } };

export async function parseCost(iterations = 200, rounds = 7): Promise<ParseCost> {
  const text = listBody(1, 100, 100);
  let responses: Response[] = [];
  const client = sdkClient('http://127.0.0.1:9', {
    fetch: (async () => responses.pop()!) as typeof fetch,
    maxRetries: 0,
  });
  // Responses are built outside the timed loop: constructing them is the
  // network's share, which this figure leaves out.
  const prebuilt = () => Array.from({ length: iterations }, () => new Response(text, init));
  let sink: unknown;

  const sdk = async () => {
    for (let i = 0; i < iterations; i++) sink = await client.charges.list({ page: 1, pagesize: 100 });
  };
  const bodyAndParse = async () => {
    for (const res of responses) sink = JSON.parse(await res.text());
  };
  const parseOnly = async () => {
    for (let i = 0; i < iterations; i++) sink = JSON.parse(text);
  };

  const times = { sdk: [] as number[], body: [] as number[], json: [] as number[] };
  for (let round = -1; round < rounds; round++) {
    responses = prebuilt();
    const sdkMs = await timeMs(sdk);
    responses = prebuilt();
    const bodyMs = await timeMs(bodyAndParse);
    const jsonMs = await timeMs(parseOnly);
    if (round < 0) continue; // warm-up round
    times.sdk.push(sdkMs);
    times.body.push(bodyMs);
    times.json.push(jsonMs);
  }
  void sink;

  const perPage = (ms: number[]) => (median(ms) * 1000) / iterations;
  const sdkUsPerPage = perPage(times.sdk);
  const jsonParseUsPerPage = perPage(times.json);
  return {
    sdkUsPerPage,
    jsonParseUsPerPage,
    responseTextParseUsPerPage: perPage(times.body),
    ratio: sdkUsPerPage / jsonParseUsPerPage,
    pageBytes: Buffer.byteLength(text),
  };
}
