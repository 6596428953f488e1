#!/usr/bin/env bash
# The public types as a merchant's compiler sees them, on the tarball `npm publish` would upload:
#   1. no Zod type in the packed declarations (they are lunas' own interfaces);
#   2. test/types/consumer.ts, installed beside the package in a fresh project,
#      compiles with `tsc --strict` and without skipLibCheck under each module
#      resolution a consumer may use. Its `@ts-expect-error` lines are typos the
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
declarations=("$WORK"/package/dist/*.d.ts "$WORK"/package/dist/*.d.cts "$WORK"/package/dist/testing/*.d.ts "$WORK"/package/dist/testing/*.d.cts)
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
npm install --no-audit --no-fund --loglevel=error --ignore-scripts "$tarball" >"$WORK/install.log" 2>&1 || {
  cat "$WORK/install.log" >&2
  exit 1
}
cp "$ROOT/test/types/consumer.ts" consumer.ts
# The same program as an ES module, for node16 resolution from ESM (the CommonJS
# consumer above resolves the package's `require` types, this one its `import` types).
cp consumer.ts consumer.mts

# No tsconfig: only these flags, and no skipLibCheck. The consumer has no
# @types packages (no @types/node either), so only the program and what it
# imports is checked.
COMMON=(--strict --noEmit --target es2022)
failures=0
check() {
  local name="$1" file="$2"
  shift 2
  echo "== tsc $name"
  if node "$TSC" "${COMMON[@]}" "$@" "$file"; then echo "   ok"; else failures=$((failures + 1)); fi
}
check "bundler (module esnext)" consumer.ts --module esnext --moduleResolution bundler
check "node16 from CommonJS (module node16)" consumer.ts --module node16 --moduleResolution node16
check "node16 from ESM (module node16)" consumer.mts --module node16 --moduleResolution node16
check "node10 (module commonjs)" consumer.ts --module commonjs --moduleResolution node10

if [[ $failures -gt 0 ]]; then
  echo "$failures configuration(s) failed: an error above in a declaration is ours to fix; an unused" >&2
  echo "'@ts-expect-error' means a typo in test/types/consumer.ts now compiles" >&2
  exit 1
fi
