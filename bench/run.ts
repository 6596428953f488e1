// `npm run bench`: runs every measurement, prints a markdown table of
// figure | value | budget | met?, and writes all numbers to bench/results.json.
// Every runtime figure is a ratio against a baseline timed in the same run,
// so the verdicts hold on a slower or busier machine; absolute times are context.
// `npm run bench -- walk heap` runs only the named measurements.
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { GZIP_BUDGET_BYTES, bundleClient, ensureBuilt } from './bundle.js';
import { coldImport } from './cold-import.js';
import { heapWalk } from './heap.js';
import { parseCost } from './parse.js';
import { concurrentRetrieve, sequentialRetrieve } from './retrieve.js';
import { startServer, type BenchServer, type ServedComparison } from './server.js';
import { lookahead, walkList } from './walk.js';

interface Row {
  figure: string;
  value: string;
  budget: string;
  met: boolean | null; // null: informational, no budget set
}

const rows: Row[] = [];
const results: Record<string, unknown> = {};
const only = new Set(process.argv.slice(2));
const wanted = (key: string) => only.size === 0 || only.has(key);

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;
const ratio = (n: number) => `${n.toFixed(2)}×`;

function pairRow(figure: string, r: ServedComparison, budget?: number): Row {
  const requests =
    r.requests.subject === r.requests.baseline ? '' : `; requests ${r.requests.subject} vs ${r.requests.baseline}`;
  return {
    figure,
    value: `${ratio(r.ratio)} (${ms(r.subjectMs)} vs ${ms(r.baselineMs)}${requests})`,
    budget: budget === undefined ? '—' : `≤ ${budget.toFixed(2)}`,
    met: budget === undefined ? null : r.ratio <= budget,
  };
}

async function withServer<T>(options: Parameters<typeof startServer>[0], fn: (s: BenchServer) => Promise<T>) {
  const server = await startServer(options);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

// Dist is needed by the bundle and cold-import figures; build before any timing.
if (wanted('bundle') || wanted('import')) ensureBuilt();

await withServer({ total: 10_000 }, async (server) => {
  if (wanted('retrieve')) {
    const r = (results.retrieveSequential = await sequentialRetrieve(server));
    rows.push(pairRow('1. charges.retrieve, 2,000 sequential: SDK / bare fetch', r));
  }
  if (wanted('walk')) {
    const r = (results.walk = await walkList(server, 10_000));
    rows.push(pairRow('2. walk 10,000 charges, pagesize 100: SDK / bare page loop', r));
  }
  if (wanted('concurrent')) {
    const r = (results.retrieveConcurrent = await concurrentRetrieve(server));
    rows.push(pairRow('3. 1,000 retrieves, 100 concurrent: SDK / bare fetch', r));
  }
});

if (wanted('lookahead')) {
  const r = (results.lookahead = await withServer({ total: 5_000, latencyMs: 5 }, (s) => lookahead(s, 5_000, 5)));
  rows.push(pairRow('4. 50 pages, 5 ms latency + 5 ms work: look-ahead / sequential', r, 0.6));
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
  rows.push({
    figure: "7. gzip bundle of import { Client } from 'lunas'",
    value: `${r.gzipBytes.toLocaleString('en-US')} B (${r.minifiedBytes.toLocaleString('en-US')} B minified)`,
    budget: `≤ ${GZIP_BUDGET_BYTES.toLocaleString('en-US')} B`,
    met: r.gzipBytes <= GZIP_BUDGET_BYTES,
  });
}

if (wanted('import')) {
  const r = (results.coldImport = coldImport());
  rows.push({
    figure: '8. cold import: (lunas − bare) / (openai − bare)',
    value: `${r.ratio.toFixed(2)} (lunas +${ms(r.lunasDeltaMs)}, openai +${ms(r.openaiDeltaMs)}, bare ${ms(r.bareMs)})`,
    budget: '≤ 1.00',
    met: r.ratio <= 1,
  });
}

const cells = (r: Row) => [r.figure, r.value, r.budget, r.met === null ? 'n/a' : r.met ? 'yes' : 'NO'];
console.log(`\nlunas bench: Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}\n`);
console.log('| figure | value | budget | met? |\n|---|---|---|---|');
for (const row of rows) console.log(`| ${cells(row).join(' | ')} |`);

const out = new URL('./results.json', import.meta.url);
const environment = { node: process.version, platform: process.platform, arch: process.arch, cpus: cpus().length };
writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), environment, rows, results }, null, 2)}\n`);
