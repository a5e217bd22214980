#!/usr/bin/env bash
# The test suite on Node 24, as most users now run it (Node 20 reached its end of life in April
# 2026; the dev toolchain stays on 20, see docs/development.md). The shared and isolated projects,
# at the local depth (a quarter of each property's CI runs): the real clients already run in Node
# 24 children, and the timing project measures the server once, on Node 20.
# Node 24 is the npm registry's `node` package, through npx (cached after the first run). Its bin
# directory goes first on PATH, so that the tests' own `node`, `npm` and `npx` children are Node 24's.
# Extra arguments go to vitest (a file to run alone, a reporter). Writes .vitest-results-node24.json.
set -euo pipefail
cd "$(dirname "$0")/.."
node24="$(npx -y -p node@24 node -p process.execPath)"
major="$("$node24" -p 'process.versions.node.split(".")[0]')"
if [ "$major" != "24" ]; then
  echo "test-node24: npx gave Node $major, not 24 ($node24)" >&2
  exit 1
fi
rm -f .vitest-results-node24.json
# The local depth even where CI (or FULL_RUNS) is set: test/support/runs.ts reads both, and the full
# depth has run on Node 20 already.
exec env -u CI -u FULL_RUNS VITEST_RESULTS=.vitest-results-node24.json PATH="$(dirname "$node24"):$PATH" \
  "$node24" node_modules/vitest/vitest.mjs run --project shared --project isolated "$@"
