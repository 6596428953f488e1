#!/usr/bin/env bash
# The public types as a merchant's compiler sees them, on the tarball `npm publish` would upload:
#   1. no Zod type in the packed declarations (they are lunas' own interfaces);
#   2. test/types/consumer.ts and mcp-consumer.ts, installed beside the package (and the
#      optional entry points' peers) in a fresh project, import every entry point and
#      compile with `tsc --strict` and without skipLibCheck under each module
#      resolution a consumer may use. Their `@ts-expect-error` lines are typos the
#      types must catch: one that compiles leaves its directive unused, which tsc
#      reports as an error (TS2578), so this script fails.
# Uses the repository's TypeScript. Needs a build first (npm run build); packing does not rebuild.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
[[ -f dist/index.js ]] || { echo "dist/ is missing: run npm run build first" >&2; exit 1; }
TSC="$ROOT/node_modules/typescript/bin/tsc"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/lunas-types.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
tarball="$WORK/$(npm pack --ignore-scripts --silent --pack-destination "$WORK" 2>/dev/null | tail -n 1)"

echo "== no Zod type in the declarations of $(basename "$tarball")"
tar -xzf "$tarball" -C "$WORK"
mapfile -t declarations < <(find "$WORK/package/dist" -name '*.d.ts' -o -name '*.d.cts')
# Imports of zod, its namespaces and its type names; prose that mentions zod (a
# Standard Schema from zod is accepted by raw calls) is not a zod type.
if grep -nE "from ['\"]zod|import\\(['\"]zod|\\\$Zod|\\bz\\.[A-Za-z]+<|\\bZod[A-Z][A-Za-z]*" "${declarations[@]}"; then
  echo "the lines above name Zod in the public declarations" >&2
  exit 1
fi

echo "== install $(basename "$tarball") into a fresh consumer"
mkdir "$WORK/consumer"
cd "$WORK/consumer"
echo '{ "name": "lunas-types-consumer", "private": true }' >package.json
# The optional entry points' peers, at the versions this repository tests with, so
# lunas-sdk/otel, lunas-sdk/mcp and lunas-sdk/undici are compiled against their types too.
peers=()
for peer in @opentelemetry/api @modelcontextprotocol/server undici @types/node; do
  peers+=("$peer@$(node -p "require('$ROOT/node_modules/$peer/package.json').version")")
done
npm install --no-audit --no-fund --loglevel=error --ignore-scripts "$tarball" "${peers[@]}" >"$WORK/install.log" 2>&1 || {
  cat "$WORK/install.log" >&2
  exit 1
}
cp "$ROOT/test/types/consumer.ts" "$ROOT/test/types/mcp-consumer.ts" .
# The same programs as ES modules, for node16 resolution from ESM (the CommonJS
# consumer resolves the package's `require` types, this one its `import` types).
cp consumer.ts consumer.mts
cp mcp-consumer.ts mcp-consumer.mts

# No tsconfig: only these flags, and no skipLibCheck. No @types package is included
# unless a program names it: consumer.ts has no Node types; mcp-consumer.ts names
# @types/node (`/// <reference types="node" />`), which the MCP SDK's declarations need.
COMMON=(--strict --noEmit --target es2022 --typeRoots ./no-type-roots)
failures=0
check() {
  local name="$1" file="$2"
  shift 2
  echo "== tsc $name: $file"
  if node "$TSC" "${COMMON[@]}" "$@" "$file"; then echo "   ok"; else failures=$((failures + 1)); fi
}
for program in consumer mcp-consumer; do
  check "bundler (module esnext)" $program.ts --module esnext --moduleResolution bundler
  check "node16 from CommonJS (module node16)" $program.ts --module node16 --moduleResolution node16
  check "node16 from ESM (module node16)" $program.mts --module node16 --moduleResolution node16
done
check "node10 (module commonjs)" consumer.ts --module commonjs --moduleResolution node10
# The MCP SDK's CommonJS declarations default-import zod's locales: esModuleInterop, as `tsc --init` sets.
check "node10 (module commonjs, esModuleInterop)" mcp-consumer.ts --module commonjs --moduleResolution node10 --esModuleInterop

if [[ $failures -gt 0 ]]; then
  echo "$failures configuration(s) failed: an error above in a declaration is ours to fix; an unused" >&2
  echo "'@ts-expect-error' means a typo in test/types/consumer.ts now compiles" >&2
  exit 1
fi
