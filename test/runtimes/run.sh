#!/usr/bin/env bash
# The runtime matrix (npm run test:runtimes; CI runs it on its own line, npm test does not):
# the packed package (as `npm publish` would ship it), installed into a fresh consumer project
# with its optional peers, run where merchants run it. Each program is a file of this folder:
#   esm.mjs, cjs.cjs  the scenario (scenario.mjs) on the ES module and the CommonJS build, on
#                     Node 20 (this machine's), 22 and 24, Bun and Deno; each Node.js row twice,
#                     on global fetch and on undiciFetch (undici 7 beside the package)
#   dual.mjs          both builds in one process: each one's errors instances of the other's classes
#   workerd-*.mjs     a Cloudflare Worker bundled as wrangler would, in workerd, with and without
#                     nodejs_compat, against a sandbox on 127.0.0.1 and createSandbox inside it
#   browser-*.mjs     a page, a dedicated and a shared Web Worker in headless Chromium (Debian's,
#                     which .ci/run installs; $CHROMIUM names another) each refused a client
#                     without dangerouslyAllowBrowser
# and the lunas-sandbox bin answers --help.
#
#   npm run build && npm run test:runtimes
#
# The runtimes come from the npm registry (packages node, bun, deno, workerd) and are
# cached in $LUNAS_RUNTIMES_DIR (default .tmp/runtimes, git-ignored), one
# directory each, so a second run in the same clone installs nothing.
# Prints a table and exits non-zero when any cell fails.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
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

cp "$ROOT/test/runtimes/"*.mjs "$ROOT/test/runtimes/"*.cjs .
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
