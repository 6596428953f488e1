#!/usr/bin/env bash
# Package quality gate, on the tarball `npm publish` would upload:
#   publint --strict   package.json fields, exports, bin and files agree with what is packed
#   attw               "Are the types wrong?": types resolve, and as the right module format,
#                      for every entry point ("lunas-sdk", "lunas-sdk/testing") under node10,
#                      node16 (from CJS and from ESM) and bundler resolution
# Needs a build first (npm run build); packing does not rebuild.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
[[ -f dist/index.js ]] || { echo "dist/ is missing: run npm run build first" >&2; exit 1; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/lunas-package.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
tarball="$WORK/$(npm pack --ignore-scripts --silent --pack-destination "$WORK" 2>/dev/null | tail -n 1)"

echo "== publint --strict $(basename "$tarball")"
npx --no-install publint run --strict "$tarball"

echo "== attw $(basename "$tarball")"
npx --no-install attw "$tarball" --profile strict --format table-flipped --no-color --no-emoji
