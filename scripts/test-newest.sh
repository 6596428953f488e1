#!/usr/bin/env bash
# The suite again on the newest versions package.json's ranges allow. The
# runtime dependencies take caret ranges, so a merchant's install may resolve a
# newer ky or zod than package-lock.json holds: this builds and tests
# lunas against the newest each range allows, in a copy of the repository, so
# the checkout's node_modules and package-lock.json stay as they are.
#   1. the tracked (and untracked, not ignored) files copied to a temporary
#      directory, with the checkout's node_modules when there is one (a copy,
#      never a link: the install below rewrites it);
#   2. npm install --no-save of each runtime dependency at its range, which takes
#      the newest version the range allows; the versions are printed;
#   3. build, the public-ground check on that build, and the unit and e2e tests.
# When every range's newest is the version package-lock.json holds, step 3 is
# skipped: `npm test` has just run on those very versions (.ci/run). --always
# runs it all the same.
set -euo pipefail
always=false
[[ "${1:-}" == "--always" ]] && always=true
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/lunas-newest.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
lock_before="$(git hash-object package-lock.json)"

echo "== copy of the repository in $WORK"
# Files deleted in the work tree but still tracked are skipped (--ignore-failed-read). A
# node_modules symlink (another checkout's) is not ignored by .gitignore's node_modules/: left out.
git ls-files -z --cached --others --exclude-standard -- . ':(exclude)node_modules' |
  tar --null --files-from=- --ignore-failed-read -cf - 2>/dev/null |
  tar -xf - -C "$WORK"
if [[ -d node_modules ]]; then
  # node_modules/. copies the contents even when node_modules is a symlink to another checkout's.
  mkdir "$WORK/node_modules"
  cp -a node_modules/. "$WORK/node_modules/"
fi

cd "$WORK"
mapfile -t specs < <(node -e '
  const { dependencies = {} } = require("./package.json");
  for (const [name, range] of Object.entries(dependencies)) console.log(`${name}@${range}`);
')
echo "== npm install --no-save ${specs[*]}"
npm install --no-save --no-audit --no-fund "${specs[@]}"
names=("${specs[@]%@*}")
# name@version of each runtime dependency, from a lock file or from node_modules.
versions() {
  node -e '
    const [from, ...names] = process.argv.slice(1);
    const lock = from === "lock" ? require("./package-lock.json").packages : undefined;
    const version = (n) => (lock ? lock[`node_modules/${n}`] : require(`./node_modules/${n}/package.json`)).version;
    console.log(names.map((n) => `${n}@${version(n)}`).join(" "));
  ' "$@"
}
locked="$(cd "$ROOT" && versions lock "${names[@]}")"
newest="$(versions installed "${names[@]}")"
echo "== the versions installed: $newest (package-lock.json has $locked)"
npm ls "${names[@]}"
if [[ "$newest" == "$locked" && "$always" == false ]]; then
  echo "== the newest versions are the locked ones, which npm test covers: nothing more to run (--always runs it)"
  exit 0
fi

echo "== build, public ground and tests on them"
npm run build
npm run check:ground
npx vitest run test/unit test/e2e test/security/key-leaks

cd "$ROOT"
[[ "$(git hash-object package-lock.json)" == "$lock_before" ]] || {
  echo "package-lock.json of the checkout changed while the copy was tested" >&2
  exit 1
}
echo "== the suite passes on the newest versions the ranges allow"
