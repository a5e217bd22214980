#!/usr/bin/env bash
# publint, and attw on every resolution profile (node10 included), over the package as dist/ holds
# it now: packed with --ignore-scripts, since `npm pack` would otherwise run prepack (the whole
# build) again. `npm run lint:package` builds first; .ci/run calls this after test/pack/run.sh built.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f dist/index.js && -f dist/index.d.cts ]] || { echo "lint-package: dist/ is not built (npm run build)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
npm pack --silent --ignore-scripts --pack-destination "$work" > /dev/null
tarballs=("$work"/*.tgz)
npx --no-install publint
npx --no-install attw "${tarballs[0]}"
