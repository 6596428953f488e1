// `npm run measure:files`: how many of the SDK's own source files run during a
// warm call (issue 25's first measure). V8's precise coverage (call counts,
// block detail) is reset after a first call and taken over the second, so what
// runs once per client or per process (ky's lazy import, schema compilation)
// is left out and what every call pays is counted. The `fetch` answers from
// memory with responses the in-process sandbox gave once before the timing, so
// no sandbox code runs in the counted call and no socket is involved.
//
// Runs against src/ through tsx, so each file is counted under its own name.
// `--json` prints the figures as JSON instead of the lists.
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { Client } from '../src/index.js';
import { createSandbox } from '../src/testing/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const srcUrl = new URL('../src/', import.meta.url).href;
const testingUrl = new URL('../src/testing/', import.meta.url).href;

/** One answer recorded from the sandbox: what the memory `fetch` gives back. */
interface Recorded {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
}

/**
 * A `fetch` that records the sandbox's answers while `recording` is on and
 * replays them from memory afterwards, keyed by method and URL.
 */
function memoryFetch(sandbox: ReturnType<typeof createSandbox>) {
  const answers = new Map<string, Recorded>();
  const state = { recording: true, requests: 0 };
  const fetchFn: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const key = `${request.method} ${request.url}`;
    state.requests++;
    if (state.recording) {
      const response = await sandbox.fetch(request);
      const body = await response.text();
      answers.set(key, {
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers],
        body,
      });
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }
    const answer = answers.get(key);
    if (!answer) throw new Error(`measure: no recorded answer for ${key}`);
    return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  };
  return { fetch: fetchFn, state };
}

interface Scenario {
  name: string;
  /** Run once before anything is recorded (data the call needs, e.g. charges to walk). */
  prepare?: (client: Client) => Promise<string | undefined>;
  call: (client: Client, prepared: string | undefined) => Promise<unknown>;
  /** Requests one call makes: a scenario that made more or fewer measured something else. */
  requests: number;
}

const scenarios: Scenario[] = [
  {
    name: 'transfers.create',
    call: (client) =>
      client.transfers.create({
        destination_account_id: 'acc_partner',
        amount: '150000.25',
        currency: 'IDR',
        client_reference_id: 'invoice-118',
        description: 'Weekly settlement',
      }),
    requests: 1,
  },
  {
    name: 'charges.retrieve',
    prepare: async (client) => (await client.charges.create({ payment_method: 'qris', amount: 25_000 })).id,
    call: (client, id) => client.charges.retrieve(id!),
    requests: 1,
  },
  {
    name: 'three-page for await walk',
    prepare: async (client) => {
      for (let i = 0; i < 5; i++) await client.charges.create({ payment_method: 'qris', amount: 10_000 + i });
      return undefined;
    },
    // Five charges, two a page: the third page is short and ends the walk.
    call: async (client) => {
      let items = 0;
      for await (const _charge of client.charges.list({ pagesize: 2 })) items++;
      if (items !== 5) throw new Error(`measure: the walk saw ${items} charges, expected 5`);
    },
    requests: 3,
  },
];

interface ScriptCoverage {
  url: string;
  functions: { functionName: string; ranges: { count: number }[] }[];
}

/** The src/ files (the sandbox's excepted) with at least one function that ran. */
function filesRun(result: ScriptCoverage[]): string[] {
  const files = new Set<string>();
  for (const script of result) {
    if (!script.url.startsWith(srcUrl) || script.url.startsWith(testingUrl)) continue;
    if (script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0)) {
      files.add(relative(root, fileURLToPath(script.url.replace(/\?.*$/, ''))));
    }
  }
  return [...files].sort();
}

const macrotask = () => new Promise((resolve) => setImmediate(resolve));

const session = new Session();
session.connect();
await session.post('Profiler.enable');

const figures: Record<string, string[]> = {};
for (const scenario of scenarios) {
  const sandbox = createSandbox();
  const memory = memoryFetch(sandbox);
  const client = new Client({
    apiKey: sandbox.apiKey,
    baseURL: sandbox.url,
    fetch: memory.fetch,
    logLevel: 'off',
  });
  const prepared = await scenario.prepare?.(client);
  // Call 0 records the answers; call 1 warms the path from memory; call 2 is counted.
  await scenario.call(client, prepared);
  memory.state.recording = false;
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  await scenario.call(client, prepared);
  await macrotask();
  await session.post('Profiler.takePreciseCoverage'); // resets the counters
  memory.state.requests = 0;
  await scenario.call(client, prepared);
  await macrotask();
  if (memory.state.requests !== scenario.requests) {
    throw new Error(`measure: ${scenario.name} made ${memory.state.requests} requests, expected ${scenario.requests}`);
  }
  const { result } = (await session.post('Profiler.takePreciseCoverage')) as { result: ScriptCoverage[] };
  await session.post('Profiler.stopPreciseCoverage');
  figures[scenario.name] = filesRun(result);
}
session.disconnect();

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(figures, null, 2));
} else {
  for (const [name, files] of Object.entries(figures)) {
    console.log(`\n${name}: ${files.length} files`);
    for (const file of files) console.log(`  ${file}`);
  }
  console.log(
    `\n${Object.entries(figures)
      .map(([name, files]) => `${name} ${files.length}`)
      .join(', ')}`,
  );
}
