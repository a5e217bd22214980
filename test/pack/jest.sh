#!/usr/bin/env bash
# Jest check: install the packed tarball into a fresh copy of the Jest recipe (test/pack/jest/)
# next to Jest 30, msw 2 and the official SDK from the registry, and run the recipe's own test
# command, `npm test`, on the Node on PATH (CI: Node 20) and then on Node 24.
#
#   bash test/pack/jest.sh                        build and pack the repository first
#   TARBALL=/path/to/model-access-sim.tgz bash test/pack/jest.sh    use that tarball, build nothing
#
# JEST_NODE24=0 skips the Node 24 run (it fetches Node 24 with `npx -p node@24` the first time).
# JEST_TIMEOUT (default 180) bounds each Jest run, in seconds. Exits non-zero if anything fails.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
RECIPE="$ROOT/test/pack/jest"
JEST_TIMEOUT="${JEST_TIMEOUT:-180}"
JEST_NODE24="${JEST_NODE24:-1}"

# shellcheck source=test/pack/lib.sh
source "$ROOT/test/pack/lib.sh"

[[ -f "$RECIPE/package.json" && -f "$RECIPE/jest.config.js" ]] || fail "the recipe is missing: $RECIPE"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/model-access-sim-jest.XXXXXX")"
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 1. The tarball ---------------------------------------------------------------------------
pack_tarball

# --- 2. The consumer project: a copy of the recipe --------------------------------------------
step "Creating the Jest project from $RECIPE"
CONSUMER="$WORK/consumer"
mkdir -p "$CONSUMER" "$WORK/tmp"
cp -R "$RECIPE/." "$CONSUMER/"
rm -rf "$CONSUMER/node_modules" "$CONSUMER/package-lock.json"
(cd "$CONSUMER" && npm_install --save-dev --no-audit --no-fund --loglevel=error \
  "$TARBALL" "jest@30" "@jest/globals@30" "msw@2" "@openrouter/sdk@1.3.19" \
  "@faker-js/faker@$(dev @faker-js/faker)" "fast-check@$(dev fast-check)")
(cd "$CONSUMER" && npm ls --depth=0)
echo "test command: $(cd "$CONSUMER" && node -p "require('./package.json').scripts.test")"

# Jest keeps its transform cache under os.tmpdir(): point that into $WORK, so that every run starts
# cold, as on a fresh CI machine, and nothing is left behind.
run_jest() { (cd "$CONSUMER" && TMPDIR="$WORK/tmp" timeout "$JEST_TIMEOUT" "$@"); }

# --- 3. Node on PATH (CI: Node 20) ------------------------------------------------------------
step "npm test on Node $(node --version)"
started=$SECONDS
run_jest npm test || { status=$?; fail "Jest failed on Node $(node --version) (exit $status)"; }
echo "Node $(node --version): passed in $((SECONDS - started)) s"

# --- 4. Node 24 -------------------------------------------------------------------------------
if [[ "$JEST_NODE24" != "0" ]]; then
  step "npm test on Node 24 (npx -p node@24)"
  # Fetch it first, so that the download does not count against the Jest timeout.
  node24="$(cd "$CONSUMER" && timeout 300 npx -y -p node@24 node --version)" || fail "could not get Node 24 with npx"
  [[ "$node24" == v24.* ]] || fail "npx -p node@24 gave $node24"
  started=$SECONDS
  # npx puts Node 24 first on PATH, so npm and the `node` of the test script are Node 24; the
  # version check runs in that same PATH.
  run_jest npx -y -p node@24 sh -c 'case "$(node --version)" in v24.*) ;; *) echo "not Node 24: $(node --version)" >&2; exit 3;; esac; npm test' ||
    { status=$?; fail "Jest failed on Node $node24 (exit $status)"; }
  echo "Node $node24: passed in $((SECONDS - started)) s"
fi

step "Jest check passed"
