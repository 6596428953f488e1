#!/usr/bin/env bash
# Runtime matrix: installs the packed package (as `npm publish` would ship it)
# into a fresh consumer project and runs one ESM and one CommonJS program on
# Node 20 (this machine's), Node 22, Node 24, Bun and Deno. On Node.js each
# runs twice: with no `fetch` (lunas sends through global `fetch`, as on every
# runtime) and with `fetch: undiciFetch` from lunas-sdk/undici (undici 7, the
# optional peer, installed beside it), each run checking which of the two sent
# its requests, and loads lunas-sdk/otel (on the lowest @opentelemetry/api its
# peer range allows) and lunas-sdk/mcp, each checked with one call. Each program starts
# the sandbox, creates and pays a charge, walks a list across pages, makes a
# transfer and checks an error class and that a 307 is an APIError (nothing
# sent where it points), then does a create, pay and list against
# createSandbox (in process, through its fetch) and prints OK. A third program
# (runtime-matrix/dual.mjs) loads the ESM and the CommonJS build in one process
# and checks that each one's errors are instances of the other's classes.
#
# Cloudflare Workers: runtime-matrix/workerd-worker.mjs, bundled with esbuild as
# wrangler would, runs the same scenario in workerd (Cloudflare's runtime) with
# and without the nodejs_compat flag, against a sandbox on 127.0.0.1 that
# runtime-matrix/workerd-driver.mjs starts and drives, then against createSandbox
# inside the Worker.
#
# Browsers: runtime-matrix/browser-driver.mjs opens a page in headless Chromium
# (Debian's package, which .ci/run installs; $CHROMIUM names another binary)
# whose page, dedicated and shared Web Worker must each be refused a client
# without dangerouslyAllowBrowser.
#
#   npm run build && npm run test:runtimes
#
# The runtimes come from the npm registry (packages node, bun, deno, workerd) and are
# cached in $LUNAS_RUNTIMES_DIR (default .tmp/runtimes, git-ignored), one
# directory each, so a second run in the same clone installs nothing.
# Prints a table and exits non-zero when any cell fails.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNTIMES_DIR="${LUNAS_RUNTIMES_DIR:-$ROOT/.tmp/runtimes}"
NODE22_VERSION="${NODE22_VERSION:-22.23.3}"
NODE24_VERSION="${NODE24_VERSION:-24.21.0}"
BUN_VERSION="${BUN_VERSION:-1.4.5}"
DENO_VERSION="${DENO_VERSION:-2.9.6}"
WORKERD_VERSION="${WORKERD_VERSION:-1.20261117.1}"
RUN_TIMEOUT="${RUN_TIMEOUT:-90}"

export NO_COLOR=1 DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1 BUN_RUNTIME_TRANSPILER_CACHE_PATH=0
NPM_FLAGS=(--no-audit --no-fund --loglevel=error)

WORK="$(mktemp -d "${TMPDIR:-/tmp}/lunas-matrix.XXXXXX")"
# LUNAS_MATRIX_KEEP=1 keeps the consumer project and the logs for a look.
if [[ "${LUNAS_MATRIX_KEEP:-}" == 1 ]]; then echo "work dir: $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi

# --- runtimes --------------------------------------------------------------

# install_runtime DIR PACKAGE VERSION BIN: npm-installs PACKAGE@VERSION into
# $RUNTIMES_DIR/DIR unless that exact version is already there.
install_runtime() {
  local dir="$RUNTIMES_DIR/$1" package="$2" version="$3" bin="$4"
  local installed
  installed="$(node -p "try { require('$dir/node_modules/$package/package.json').version } catch { '' }")"
  if [[ "$installed" == "$version" && -x "$dir/node_modules/.bin/$bin" ]]; then return 0; fi
  rm -rf "$dir" && mkdir -p "$dir"
  # The packages fetch their platform binary in an install script (node) or
  # pick it from optionalDependencies and link it in one (bun, deno, workerd): allow it.
  cat >"$dir/package.json" <<JSON
{ "private": true, "dependencies": { "$package": "$version" }, "allowScripts": { "$package": true } }
JSON
  (cd "$dir" && npm install "${NPM_FLAGS[@]}" >install.log 2>&1) || {
    echo "installing $package@$version failed:" >&2
    cat "$dir/install.log" >&2
    return 1
  }
}

echo "runtimes in $RUNTIMES_DIR"
started=$SECONDS
pids=()
install_runtime node22 node "$NODE22_VERSION" node & pids+=($!)
install_runtime node24 node "$NODE24_VERSION" node & pids+=($!)
install_runtime bun bun "$BUN_VERSION" bun & pids+=($!)
install_runtime deno deno "$DENO_VERSION" deno & pids+=($!)
install_runtime workerd workerd "$WORKERD_VERSION" workerd & pids+=($!)
install_failed=0
for pid in "${pids[@]}"; do wait "$pid" || install_failed=1; done
[[ $install_failed == 0 ]] || { echo "a runtime could not be installed" >&2; exit 1; }
echo "runtimes ready in $((SECONDS - started))s"

# --- the package and its consumer -----------------------------------------

[[ -f "$ROOT/dist/index.js" ]] || (cd "$ROOT" && npm run build)
# --ignore-scripts: pack exactly the dist/ that was built and tested.
tarball="$(cd "$ROOT" && npm pack --ignore-scripts --silent --pack-destination "$WORK" 2>/dev/null | tail -n 1)"
mkdir "$WORK/consumer"
cd "$WORK/consumer"
echo '{ "name": "lunas-consumer", "private": true }' >package.json
# The optional peers: undici (lunas-sdk/undici, which the Node.js rows' second run sends through) and
# @modelcontextprotocol/server (lunas-sdk/mcp) at the versions tested here; @opentelemetry/api
# (lunas-sdk/otel) at the lowest version package.json's peer range promises.
tested() { echo "$1@$(node -p "require('$ROOT/node_modules/$1/package.json').version")"; }
OTEL_API_FLOOR="$(node -p "require('$ROOT/package.json').peerDependencies['@opentelemetry/api'].replace(/^[\\^~]/, '')")"
npm install "${NPM_FLAGS[@]}" "$WORK/$tarball" "$(tested undici)" "$(tested @modelcontextprotocol/server)" \
  "@opentelemetry/api@$OTEL_API_FLOOR" >"$WORK/consumer-install.log" 2>&1 || {
  cat "$WORK/consumer-install.log" >&2
  exit 1
}

# One scenario, written once, run as ESM (esm.mjs) and as CommonJS (cjs.cjs).
scenario() {
  cat <<'JS'
// 'fetch' or 'undici' on the Node.js rows (which transport lunas must send through), unset elsewhere
// (Deno runs without environment access, where reading it throws).
const transport = (() => {
  try {
    return process.env.LUNAS_MATRIX_TRANSPORT;
  } catch {
    return undefined;
  }
})();
let fetchOption = {};

async function main(format) {
  const watchdog = setTimeout(() => {
    console.error(`${format}: timed out`);
    process.exit(1);
  }, 30_000);
  if (transport === 'undici') fetchOption = { fetch: (await loadUndici()).undiciFetch };
  if (transport) await checkTransport(transport);
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
  await inProcess();
  if (transport) await optionalEntryPoints();
  console.log(`OK ${format}`);
}

// lunas-sdk/otel on the lowest @opentelemetry/api of its peer range, with an in-memory tracer and
// meter: a call's operation and attempt spans end, and its duration is recorded. lunas-sdk/mcp on
// @modelcontextprotocol/server: createMcpServer builds a server.
async function optionalEntryPoints() {
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
  const stop = instrumentLunas({ tracerProvider: { getTracer: () => tracer }, meterProvider: { getMeter: () => meter } });
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
  assert(spans[0].name === 'lunas charges.create' && spans[0].attributes['http.response.status_code'] === 200, `spans: ${names}`);
  assert(durations.length === 1 && durations[0] > 0, `durations: ${durations.join(', ')}`);
}

// Node's fetch adds the Fetch standard's `sec-fetch-mode`; undici's request sends only what it is given.
// The first request and the later ones go the same way.
async function checkTransport(expected) {
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
  assert(seen.length === 3 && seen.every((sent) => sent === expected), `sent through ${seen.join(', ')}, expected ${expected} each time`);
}

// The same sandbox in process (createSandbox's fetch, no port), with this build's exports;
// Node.js (20.16 on), Bun and Deno all offer diagnostics_channel, so every call is published.
async function inProcess() {
  const { inProcessScenario } = await import('./in-process.mjs');
  const { tracing } = await inProcessScenario({ Client, createSandbox });
  assert(tracing === 'published', `lunas:operation ${tracing} on this runtime`);
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}
JS
}
{
  echo "import { APIError, Client, LunasError, NotFoundError } from 'lunas-sdk';"
  echo "import { createSandbox, startSandbox } from 'lunas-sdk/testing';"
  echo "const loadUndici = () => import('lunas-sdk/undici');"
  echo "const loadOtel = () => import('lunas-sdk/otel');"
  echo "const loadMcp = () => import('lunas-sdk/mcp');"
  scenario
  echo "await main('esm');"
} >esm.mjs
{
  echo "'use strict';"
  echo "const { APIError, Client, LunasError, NotFoundError } = require('lunas-sdk');"
  echo "const { createSandbox, startSandbox } = require('lunas-sdk/testing');"
  echo "const loadUndici = async () => require('lunas-sdk/undici');"
  echo "const loadOtel = async () => require('lunas-sdk/otel');"
  echo "const loadMcp = async () => require('lunas-sdk/mcp');"
  scenario
  echo "main('cjs').catch((error) => { console.error(error); process.exitCode = 1; });"
} >cjs.cjs
cp "$ROOT/scripts/runtime-matrix/"*.mjs .
# As wrangler bundles a Worker: ESM, the workerd/worker/browser export conditions,
# and `node:` imports left to the runtime (wrangler warns without nodejs_compat but
# builds): startSandbox's lazy import('node:http') is then never run, as the Worker
# uses createSandbox only.
"$ROOT/node_modules/.bin/esbuild" workerd-worker.mjs --bundle --format=esm --platform=neutral \
  --conditions=workerd,worker,browser --main-fields=browser,module,main --external:'node:*' \
  --outfile=worker.js --log-level=warning
# As a web bundler builds for a browser (Vite, too, leaves `node:` imports out);
# IIFE so the Web Workers are classic ones.
"$ROOT/node_modules/.bin/esbuild" browser-bundle.mjs --bundle --format=iife --platform=browser \
  --external:'node:*' --outfile=lunas.js --log-level=warning

# --- the matrix ------------------------------------------------------------

NODE22="$RUNTIMES_DIR/node22/node_modules/.bin/node"
NODE24="$RUNTIMES_DIR/node24/node_modules/.bin/node"
BUN="$RUNTIMES_DIR/bun/node_modules/.bin/bun"
DENO="$RUNTIMES_DIR/deno/node_modules/.bin/deno"
WORKERD="$RUNTIMES_DIR/workerd/node_modules/.bin/workerd"
export DENO_DIR="$WORK/deno-cache"
# Deno needs only loopback network access: the sandbox listens on 127.0.0.1 and
# the client fetches from it. Deno lets a program read its own npm packages in
# node_modules without --allow-read; environment access stays denied, which the
# client tolerates (it reads LUNAS_LOG through a try/catch).
DENO_RUN=("$DENO" run --allow-net=127.0.0.1)

# name|version command|run command (the program's file name is appended)
RUNTIMES=(
  "Node 20|node --version|env LUNAS_MATRIX_TRANSPORT=fetch node"
  "Node 20, undiciFetch|node --version|env LUNAS_MATRIX_TRANSPORT=undici node"
  "Node 22|$NODE22 --version|env LUNAS_MATRIX_TRANSPORT=fetch $NODE22"
  "Node 22, undiciFetch|$NODE22 --version|env LUNAS_MATRIX_TRANSPORT=undici $NODE22"
  "Node 24|$NODE24 --version|env LUNAS_MATRIX_TRANSPORT=fetch $NODE24"
  "Node 24, undiciFetch|$NODE24 --version|env LUNAS_MATRIX_TRANSPORT=undici $NODE24"
  "Bun|$BUN --version|$BUN"
  "Deno|$DENO --version|${DENO_RUN[*]}"
)

failures=0
rows=()
# run_cell LABEL COMMAND...: runs one program, prints PASS or FAIL; on failure
# the program's output goes to stderr.
run_cell() {
  local label="$1" status=0 log
  shift
  log="$WORK/$(echo "$label" | tr -c 'A-Za-z0-9.\n' '-').log"
  timeout "$RUN_TIMEOUT" "$@" >"$log" 2>&1 || status=$?
  if [[ $status == 0 ]] && grep -q '^OK ' "$log"; then
    echo PASS
  else
    echo FAIL
    echo "--- $label failed (exit $status$([[ $status == 124 ]] && echo ", killed after ${RUN_TIMEOUT}s")):" >&2
    cat "$log" >&2
  fi
}
row() { printf '| %-21s | %-10s | %-4s | %-4s | %-7s |' "$@"; }

for entry in "${RUNTIMES[@]}"; do
  IFS='|' read -r name version_cmd run_cmd <<<"$entry"
  version="$($version_cmd 2>&1 | head -n 1 | sed -E 's/^deno //; s/ \(.*//')"
  cells=()
  for program in esm.mjs cjs.cjs dual.mjs; do
    # shellcheck disable=SC2086 # run_cmd is a command line
    cells+=("$(run_cell "$name $program" $run_cmd "$program")")
    [[ ${cells[-1]} == PASS ]] || failures=$((failures + 1))
  done
  rows+=("$(row "$name" "$version" "${cells[@]}")")
done

# Cloudflare Workers: ESM only (a Worker is an ES module bundle), with and without nodejs_compat.
workerd_version="$("$WORKERD" --version | sed -E 's/^workerd //')"
for variant in plain nodejs_compat; do
  name="workerd"
  [[ $variant == plain ]] || name+=" $variant"
  cell="$(run_cell "$name" node workerd-driver.mjs "$WORKERD" "$variant")"
  [[ $cell == PASS ]] || failures=$((failures + 1))
  rows+=("$(row "$name" "$workerd_version" "$cell" "-" "-")")
done

# The browser guard, in a real browser.
CHROMIUM="${CHROMIUM:-$(command -v chromium || true)}"
if [[ -z "$CHROMIUM" ]]; then
  browser=FAIL
  echo "--- no chromium: install Debian's (apt-get install chromium) or set CHROMIUM" >&2
else
  browser="$(run_cell "Chromium" node browser-driver.mjs "$CHROMIUM")"
  browser_version="$("$CHROMIUM" --version 2>/dev/null | grep -oE '[0-9]+(\.[0-9]+)+' | head -n 1)"
fi
[[ $browser == PASS ]] || failures=$((failures + 1))

# The bin, as `npx lunas-sandbox` runs it.
if node_modules/.bin/lunas-sandbox --help | grep -q '^Usage: lunas-sandbox'; then bin=PASS; else bin=FAIL; failures=$((failures + 1)); fi

echo
echo "lunas runtime matrix ($tarball)"
row runtime version ESM CJS ESM+CJS
echo
echo '|-----------------------|------------|------|------|---------|'
printf '%s\n' "${rows[@]}"
echo "browser guard in Chromium ${browser_version:-?} (page, dedicated and shared Web Worker), createSandbox in the page: $browser"
echo "lunas-sandbox bin (Node 20): $bin"
echo "Node.js rows: lunas-sdk/otel on @opentelemetry/api@$OTEL_API_FLOOR, lunas-sdk/mcp on $(tested @modelcontextprotocol/server)"
if [[ $failures -gt 0 ]]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
