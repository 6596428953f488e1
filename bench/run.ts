// `npm run bench`: runs every measurement in turn, then reports (report.ts).
// Every runtime figure is a ratio against a baseline timed in the same run,
// so the verdicts hold on a slower or busier machine; absolute times are context.
// `npm run bench -- walk heap` runs only the named measurements (`retrieve`,
// `concurrent` and `concurrent500` are the retrieve rows at 1, 100 and 500 in
// flight, 3c comes with the last; `cold` is `start`, `batch` is measurement 10,
// `sandbox-page` 11). lunas is timed as built
// (dist/, rebuilt from src/ first when older: clients.ts).
import { BATCH_SIDES, batchRetrieve, type BatchSide } from './batch.js';
import { OWN_BYTES_BUDGET, bundleClient, bundleLibraries } from './bundle.js';
import { coldImport, coldStart } from './cold-import.js';
import { heapWalk } from './heap.js';
import { parseCost } from './parse.js';
import { ms, pairRow, printTable, ratio, type Row, writeResults } from './report.js';
import { retrieveAt } from './retrieve.js';
import { sandboxPage } from './sandbox-page.js';
import { startServer, type BenchServer, type ServedComparison } from './server.js';
import type { Comparison } from './stats.js';
import { concurrentTracing, ownCost, sequentialTracing } from './tracing.js';
import { lookahead, lookaheadFloor, walkList } from './walk.js';

const rows: Row[] = [];
const results: Record<string, unknown> = {};
const aliases: Record<string, string> = { cold: 'start' };
const only = new Set(process.argv.slice(2).map((name) => aliases[name] ?? name));
const wanted = (key: string) => only.size === 0 || only.has(key);

async function withServer<T>(options: Parameters<typeof startServer>[0], fn: (s: BenchServer) => Promise<T>) {
  const server = await startServer(options);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

const referenceLabels: Record<string, string> = {
  sdkUndici: 'lunas with fetch: undiciFetch',
  ky: 'ky alone (global fetch)',
  kyUndici: 'ky over undiciFetch',
  openai: 'openai-node client.get()',
  stripe: 'stripe-node rawRequest',
  pool: 'undici Pool (floor)',
  fetchWithTimeout: 'fetch with a timeout signal',
  sdkUndici100: 'lunas with undiciFetch at 100 in flight',
};

/**
 * Adds the references timed in the same rounds, each against the same
 * baseline: ky alone is the lowest ratio an SDK sending through ky can reach.
 */
function withReferences(row: Row, comparison: Comparison): Row {
  const notes = Object.entries(comparison.references).map(
    ([name, reference]) => `${referenceLabels[name] ?? name} ${ratio(reference.ratio)}`,
  );
  return { ...row, value: [row.value, ...notes].join('; ') };
}

/**
 * The retrieve budgets at `inFlight`, each a ratio of two sides' medians in
 * the same rounds: lunas by default ≤ 0.95 × openai-node; lunas with
 * undiciFetch ≤ 0.80 × openai-node (at 100 and 500 in flight; shown at 1);
 * lunas's own work, lunas / ky alone on the same fetch, ≤ 1.10 (aim 1.05),
 * with lunas over undiciFetch / ky over undiciFetch beside it.
 */
function retrieveBudgetRows(number: string, inFlight: number, r: ServedComparison): Row[] {
  const { sdkUndici, ky, kyUndici, openai } = r.references;
  if (!sdkUndici || !ky || !kyUndici || !openai) return [];
  const at = inFlight === 1 ? 'one at a time' : `${inFlight} in flight`;
  const overOpenai = r.ratio / openai.ratio;
  const undiciOverOpenai = sdkUndici.ratio / openai.ratio;
  const own = r.ratio / ky.ratio;
  return [
    {
      figure: `${number}.a lunas / openai-node, ${at}`,
      value: ratio(overOpenai),
      budget: '≤ 0.95',
      met: overOpenai <= 0.95,
    },
    {
      figure: `${number}.b lunas with undiciFetch / openai-node, ${at}`,
      value: ratio(undiciOverOpenai),
      budget: inFlight === 1 ? '—' : '≤ 0.80',
      met: inFlight === 1 ? null : undiciOverOpenai <= 0.8,
    },
    {
      figure: `${number}.c lunas's own work: lunas / ky alone on global fetch, ${at}`,
      value: `${ratio(own)} (over undiciFetch: lunas / ky ${ratio(sdkUndici.ratio / kyUndici.ratio)})`,
      budget: '≤ 1.10 (aim 1.05)',
      met: own <= 1.1,
    },
  ];
}

/**
 * The tracing channels' cost (rows 1t and 3t): each side's ratio to bare fetch,
 * then what matters, as ratios between lunas sides of the same rounds: a second
 * client of the same build (the noise), a subscriber that does nothing, and
 * instrumentLunas(), each over lunas with no subscriber; and lunas with no
 * subscriber over the build before the channels, when one was timed.
 */
function tracingRow(figure: string, r: ServedComparison): Row {
  const { again, subscribed, otel, before } = r.references;
  const over = (side: { ratio: number } | undefined, base: number) => (side ? ratio(side.ratio / base) : 'n/a');
  const sides = [
    `lunas ${ratio(r.ratio)}`,
    `a second client ${over(again, 1)}`,
    `subscribed ${over(subscribed, 1)}`,
    `instrumentLunas ${over(otel, 1)}`,
    ...(before ? [`before the channels ${ratio(before.ratio)}`] : []),
  ].join(', ');
  const between = [
    `second client / lunas ${over(again, r.ratio)}`,
    `subscribed / lunas ${over(subscribed, r.ratio)}`,
    `instrumentLunas / lunas ${over(otel, r.ratio)}`,
    ...(before ? [`lunas / before ${ratio(r.ratio / before.ratio)}`] : []),
  ].join('; ');
  return { figure, value: `${sides} (of bare fetch); ${between}`, budget: '—', met: null };
}

/**
 * lunas with undiciFetch: its time per call at 500 in flight over its time
 * per call at 100, both timed in row 3b's rounds (the same 2,000 calls).
 */
function scalingRow(at500: ServedComparison): Row | undefined {
  const { sdkUndici, sdkUndici100 } = at500.references;
  if (!sdkUndici || !sdkUndici100) return undefined;
  const perCall = (ms: number) => ((ms * 1000) / at500.requests.baseline).toFixed(1);
  const scaling = sdkUndici.ms / sdkUndici100.ms;
  return {
    figure: '3c. lunas with undiciFetch, per call at 500 in flight / per call at 100 (same rounds)',
    value: `${ratio(scaling)} (${perCall(sdkUndici.ms)} µs vs ${perCall(sdkUndici100.ms)} µs a call)`,
    budget: '≤ 1.20',
    met: scaling <= 1.2,
  };
}

await withServer({ total: 10_000 }, async (server) => {
  const retrieveRows = [
    { key: 'retrieve', number: '1', inFlight: 1 },
    { key: 'concurrent', number: '3', inFlight: 100 },
    { key: 'concurrent500', number: '3b', inFlight: 500 },
  ];
  for (const { key, number, inFlight } of retrieveRows) {
    if (!wanted(key)) continue;
    const r = await retrieveAt(server, inFlight);
    results[`retrieve${inFlight}`] = r;
    const at = inFlight === 1 ? 'one at a time' : `${inFlight} in flight`;
    const figure = `${number}. charges.retrieve, 2,000 calls ${at}: side / bare fetch`;
    rows.push(withReferences(pairRow(figure, r), r), ...retrieveBudgetRows(number, inFlight, r));
  }
  const at500 = results.retrieve500 as ServedComparison | undefined;
  const scaling = at500 && scalingRow(at500);
  if (scaling) rows.push(scaling);
  if (wanted('walk')) {
    const r = (results.walk = await walkList(server, 10_000));
    rows.push(withReferences(pairRow('2. walk 10,000 charges, pagesize 100: SDK / bare page loop', r, 1.2), r));
  }
  if (wanted('tracing')) {
    const sequential = (results.tracingSequential = await sequentialTracing(server));
    rows.push(tracingRow('1t. charges.retrieve, 2,000 sequential, tracing channels: side / bare fetch', sequential));
    const concurrent = (results.tracingConcurrent = await concurrentTracing(server));
    rows.push(tracingRow('3t. 1,000 retrieves, 100 concurrent, tracing channels: side / bare fetch', concurrent));
  }
});

if (wanted('tracingcpu')) {
  const r = (results.tracingOwnCost = await ownCost());
  const { lunas, again, subscribed, otel, before } = r.microseconds as Record<string, number>;
  const us = (n: number | undefined) => (n === undefined ? 'n/a' : `${n.toFixed(1)} µs`);
  const over = (n: number | undefined) => (n === undefined ? 'n/a' : ratio(n / lunas!));
  rows.push({
    figure: `1u. charges.retrieve through a fetch answering from memory, ${r.calls.toLocaleString('en-US')} calls: CPU per call`,
    value:
      `lunas ${us(lunas)}, a second client ${us(again)} (${over(again)}), subscribed ${us(subscribed)} ` +
      `(${over(subscribed)}), instrumentLunas ${us(otel)} (${over(otel)})` +
      (before === undefined ? '' : `, before the channels ${us(before)} (lunas / before ${ratio(lunas! / before)})`),
    budget: '—',
    met: null,
  });
}

if (wanted('lookahead')) {
  await withServer({ total: 5_000, latencyMs: 5 }, async (server) => {
    const r = (results.lookahead = await lookahead(server, 5_000, 5));
    const floor = (results.lookaheadFloor = await lookaheadFloor(server, 5_000, 5));
    const row = pairRow('4. 50 pages, 5 ms latency + 5 ms work: look-ahead / sequential', r);
    const value = `${row.value}; bare-fetch floor ${ratio(floor.ratio)}`;
    rows.push({ ...row, value, budget: '≤ floor + 0.03', met: r.ratio - floor.ratio <= 0.03 });
  });
}

if (wanted('parse')) {
  const r = (results.parse = await parseCost());
  rows.push({
    figure: '5. one 100-charge page, no network: SDK / JSON.parse',
    value: `${ratio(r.ratio)} (${r.sdkUsPerPage.toFixed(0)} µs vs ${r.jsonParseUsPerPage.toFixed(0)} µs per page)`,
    budget: '—',
    met: null,
  });
}

if (wanted('heap')) {
  const r = (results.heap = await heapWalk());
  const growth = Math.max(r.growthMB, r.retainedDuringWalkMB);
  rows.push({
    figure: '6. heap growth walking 1,000,000 charges (after GC; peak sampled)',
    value: `${growth.toFixed(1)} MB (peak +${r.peakMB.toFixed(1)} MB; ${r.seconds.toFixed(0)} s)`,
    budget: '< 30 MB',
    met: growth < 30,
  });
}

if (wanted('bundle')) {
  const r = (results.bundle = await bundleClient());
  const libraries = (results.bundleLibrariesGzipBytes = await bundleLibraries());
  // What is lunas's own: the bundle less ky and the zod parts it uses, each bundled alone.
  const own = r.gzipBytes - libraries;
  rows.push({
    figure: "7. gzip bundle of import { Client } from 'lunas-sdk': lunas's own bytes",
    value:
      `${own.toLocaleString('en-US')} B: the bundle ${r.gzipBytes.toLocaleString('en-US')} B ` +
      `(${r.minifiedBytes.toLocaleString('en-US')} B minified: ${shares(r.minifiedByPackage, r.minifiedBytes)}) ` +
      `less ky and the zod parts used, alone, ${libraries.toLocaleString('en-US')} B`,
    budget: `own ≤ ${OWN_BYTES_BUDGET.toLocaleString('en-US')} B`,
    met: own <= OWN_BYTES_BUDGET,
  });
}

if (wanted('import')) {
  const r = (results.coldImport = coldImport());
  rows.push({
    figure: '8. cold import: (lunas − bare) / (openai − bare)',
    value:
      `${r.ratio.toFixed(2)} (lunas +${ms(r.lunasDeltaMs)}, openai +${ms(r.openaiDeltaMs)}, bare ${ms(r.bareMs)}; ` +
      `whole processes: ${(r.lunasMs / r.openaiMs).toFixed(2)})`,
    budget: '≤ 0.90',
    met: r.ratio <= 0.9,
  });
}

if (wanted('start')) {
  const r = await withServer({ total: 10 }, (server) => coldStart(server.url));
  results.coldStart = r;
  rows.push({
    figure: '9. cold start, whole process (import + first retrieve): lunas / openai-node',
    value: `${r.ratio.toFixed(2)} (over an empty process: lunas +${ms(r.lunasMs - r.bareMs)}, openai +${ms(r.openaiMs - r.bareMs)})`,
    budget: 'lunas ≤ openai-node (≤ 1.00)',
    met: r.ratio <= 1,
  });
}

if (wanted('batch')) {
  // Its own server: thousands of connections opened at once need a deep listen queue (server.ts).
  const r = (results.batch = await withServer({ total: 10, backlog: 8_192 }, (server) => batchRetrieve(server)));
  const names: Record<BatchSide, string> = {
    lunas: 'lunas',
    lunasUndici: 'lunas with undiciFetch',
    fetch: 'bare fetch',
    openai: 'openai-node',
    stripe: 'stripe-node',
  };
  const drops = r.listenDrops ? `; the kernel dropped ${r.listenDrops} connection attempts: wall times suspect` : '';
  if (drops) console.error(`bench batch${drops}`);
  for (const [i, v] of r.variants.entries()) {
    const { lunas, fetch } = v.sides;
    const number = ['10', '10b', '10c'][i] ?? `10.${i}`;
    const calls = `${v.warmups} call${v.warmups === 1 ? '' : 's'}`;
    const label = `${number}. ${v.calls.toLocaleString('en-US')} retrieves at once after ${calls}`;
    const others = (pick: (side: BatchSide) => string) =>
      BATCH_SIDES.filter((side) => side !== 'lunas' && side !== 'fetch')
        .map((side) => `${names[side]} ${pick(side)}`)
        .join(', ');
    rows.push({
      figure: `${label}, wall time: lunas / bare fetch`,
      value: `${ratio(lunas.ratio)} (${ms(lunas.wallMs)} vs ${ms(fetch.wallMs)}); ${others((s) => ratio(v.sides[s].ratio))}${drops}`,
      budget: '≤ 1.00',
      met: lunas.ratio <= 1,
    });
    const kb = (side: BatchSide) => `${v.sides[side].peakKBPerCall.toFixed(1)} KB`;
    rows.push({
      figure: `${label}, peak heap growth per call in flight`,
      value: `lunas ${kb('lunas')}; bare fetch ${kb('fetch')}, ${others(kb)}`,
      budget: '≤ 30 KB',
      met: lunas.peakKBPerCall <= 30,
    });
  }
}

if (wanted('sandbox-page')) {
  const r = (results.sandboxPage = await sandboxPage());
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  rows.push({
    figure: "11. the sandbox's root page with 100,000 charges / with 50 (GET / in process)",
    value:
      `${ratio(r.ratio)} (${ms(r.fullMs)} vs ${ms(r.smallMs)}; ${kb(r.fullBytes)} vs ${kb(r.smallBytes)}; ` +
      `seeding took ${ms(r.seedMs)})`,
    budget: '≤ 1.50, and < 300 KB',
    met: r.ratio <= 1.5 && r.fullBytes < 300 * 1024,
  });
}

/** Each package's part of the minified bundle, largest first, e.g. `zod 48%, lunas 31%, ky 21%`. */
function shares(parts: Record<string, number>, total: number): string {
  return Object.entries(parts)
    .sort(([, a], [, b]) => b - a)
    .map(([name, bytes]) => `${name} ${Math.round((bytes / total) * 100)}%`)
    .join(', ');
}

printTable(rows);
writeResults(rows, results);
