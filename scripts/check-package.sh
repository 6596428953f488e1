#!/usr/bin/env bash
# Package quality gate, on the tarball `npm publish` would upload:
#   publint --strict   package.json fields, exports, bin and files agree with what is packed:
#                      each file they name is in the tarball, a bin starts with its shebang
#   attw               "Are the types wrong?": types resolve, and as the right module format,
#                      for every entry point under node10,
#                      node16 (from CJS and from ESM) and bundler resolution
#   remark-validate-links  on the unpacked tarball: every local link and #anchor of the shipped
#                      Markdown resolves inside the package, where the repository is not beside it
#                      (links into src/ that name a symbol, `x.ts#Name`, are typedoc's to check)
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

echo "== remark-validate-links on the unpacked $(basename "$tarball")"
tar -xzf "$tarball" -C "$WORK"
npx --no-install remark --rc-path "$ROOT/.remarkrc.json" --no-stdout --frail --quiet "$WORK"/package/*.md "$WORK"/package/docs/*.md
echo "the shipped Markdown's local links resolve inside the package"
