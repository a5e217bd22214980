#!/usr/bin/env bash
# Consumer-project check: build, pack, install the tarball into a fresh ESM project next to msw,
# the official SDK and tsx from the registry, run the README's example, and load both entry
# points from CJS (require) and ESM (import).
#
#   bash test/pack/run.sh [README path]      (default: ./README.md of the repository)
#
# The README must hold exactly one fenced block that opens with the line ```ts and whose first
# line is `// readme-example`; that block's body becomes example.ts in the consumer project.
# Exits non-zero if anything fails, including the example throwing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
README_ARG="${1:-$ROOT/README.md}"
EXAMPLE_TIMEOUT="${EXAMPLE_TIMEOUT:-120}"

# shellcheck source=test/pack/lib.sh
source "$ROOT/test/pack/lib.sh"

[[ -f "$README_ARG" ]] || fail "README not found: $README_ARG"
README="$(cd "$(dirname "$README_ARG")" && pwd)/$(basename "$README_ARG")"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/model-access-sim-pack.XXXXXX")"
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 1. The README example -------------------------------------------------------------------
step "Extracting the README example from $README"
EXAMPLE="$WORK/example.ts"
# Blocks: a line that is exactly ```ts, then a first line that is exactly // readme-example,
# up to the closing ``` line. CRLF line ends and trailing blanks are tolerated.
awk -v out="$EXAMPLE" '
  { sub(/\r$/, ""); line = $0; sub(/[ \t]+$/, "", line) }
  state == 0 && line == "```ts"            { state = 1; next }
  state == 0 && line ~ /^```/              { state = 3; next }   # some other fenced block
  state == 3                               { if (line == "```") state = 0; next }
  state == 1 && line == "// readme-example" { found++; state = 2; print $0 > out; next }
  state == 1                               { state = (line == "```") ? 0 : 3; next }
  state == 2 && line == "```"              { state = 0; closed++; next }
  state == 2                               { print $0 > out; next }
  END {
    if (found != 1) { printf "expected exactly one ```ts block starting with // readme-example, found %d\n", found > "/dev/stderr"; exit 2 }
    if (closed != 1) { print "the // readme-example block is not closed by a ``` line" > "/dev/stderr"; exit 2 }
  }
' "$README" || fail "could not extract the example from $README"
echo "example.ts: $(wc -l < "$EXAMPLE") lines"

# --- 2. Build ---------------------------------------------------------------------------------
step "npm run build"
(cd "$ROOT" && npm run build)
missing=()
ENTRIES=(index msw/index pricing/index fixtures/index arbitraries/index server/index vitest/index live/index)
for entry in "${ENTRIES[@]}"; do
  for ext in js cjs d.ts d.cts; do
    [[ -f "$ROOT/dist/$entry.$ext" ]] || missing+=("dist/$entry.$ext")
  done
done
((${#missing[@]} == 0)) || fail "the build did not produce: ${missing[*]}"
echo "dist: all ${#ENTRIES[@]} entry points, in ESM, CJS and both type flavours"

# --- 3. Pack ----------------------------------------------------------------------------------
TARBALL="" # this check packs what it has just built
NO_BUILD=1 pack_tarball
tar -tzf "$TARBALL" | sed 's/^/  /'
# grep without -q reads the whole listing: with -q it would stop at the match, and tar's SIGPIPE
# fails the pipeline under pipefail, which printed this warning for a tarball that has the README.
tar -tzf "$TARBALL" | grep -x 'package/README.md' > /dev/null || echo "warning: the tarball has no README.md" >&2

# --- 4. Consumer project ----------------------------------------------------------------------
step "Creating the consumer project"
CONSUMER="$WORK/consumer"
mkdir -p "$CONSUMER"
cat > "$CONSUMER/package.json" <<'JSON'
{ "name": "model-access-sim-consumer", "version": "0.0.0", "private": true, "type": "module" }
JSON
(cd "$CONSUMER" && npm_install --no-audit --no-fund --loglevel=error \
  "$TARBALL" "msw@2" "@openrouter/sdk@1.3.19" "tsx@$(dev tsx)" "@faker-js/faker@$(dev @faker-js/faker)" "fast-check@$(dev fast-check)")
(cd "$CONSUMER" && npm ls --depth=0)
cp "$EXAMPLE" "$CONSUMER/example.ts"

# --- 5. Run the README example ----------------------------------------------------------------
step "Running the README example with tsx"
(cd "$CONSUMER" && timeout "$EXAMPLE_TIMEOUT" ./node_modules/.bin/tsx example.ts) ||
  fail "the README example failed (exit $?)"

# --- 6. CJS and ESM entry points --------------------------------------------------------------
step "require() from CJS"
(cd "$CONSUMER" && node -e '
  const assert = require("node:assert/strict")
  const root = require("model-access-sim")
  const { createHandlers } = require("model-access-sim/msw")
  const pricing = require("model-access-sim/pricing")
  assert.equal(pricing.estimateCost({ prompt: "0.1", completion: "0", discount: 0.1 }, { promptTokens: 3 }, { at: 0 }), "0.27")
  assert.equal(root.resolvePricing, pricing.resolvePricing, "the root re-exports the pricing functions")
  assert.equal(root.PricingError, pricing.PricingError, "one PricingError class for both entry points")
  // faker 10 is ESM-only: the CJS build of ./fixtures loads it through require(esm), on by default from Node 20.19.
  const fixtures = require("model-access-sim/fixtures")
  const arbitraries = require("model-access-sim/arbitraries")
  assert.equal(fixtures.fakeModel({ seed: 1 }).id, fixtures.fakeModel({ seed: 1 }).id)
  assert.equal(require("fast-check").sample(arbitraries.pricing(), { seed: 1, numRuns: 3 }).length, 3)
  assert.equal(typeof root.createSimulator, "function", "createSimulator")
  assert.equal(typeof createHandlers, "function", "createHandlers")
  const sim = root.createSimulator()
  const res = sim.handle({ method: "GET", path: "/keys", authorization: "Bearer " + sim.world.managementKey })
  assert.equal(res.status, 200)
  assert.ok(createHandlers(sim).length > 0)
  console.log("CJS ok: require(\"model-access-sim\"), require(\"model-access-sim/msw\"), require(\"model-access-sim/pricing\"), /fixtures and /arbitraries; GET /keys ->", res.status, "with", res.body.data.length, "keys")
')

step "import() from ESM"
(cd "$CONSUMER" && node --input-type=module -e '
  import assert from "node:assert/strict"
  const root = await import("model-access-sim")
  const msw = await import("model-access-sim/msw")
  const pricing = await import("model-access-sim/pricing")
  const { fakePricing } = await import("model-access-sim/fixtures")
  const { requestContext } = await import("model-access-sim/arbitraries")
  const fc = (await import("fast-check")).default
  assert.deepEqual(pricing.validatePricing(fakePricing({ seed: 3 })), [])
  assert.equal(fc.sample(requestContext(), { seed: 2, numRuns: 2 }).length, 2)
  assert.equal(pricing.compilePricing({ prompt: "0.000001", completion: "0", overrides: [{ min_prompt_tokens: 10, prompt: "0.000002" }] }).resolve({ promptTokens: 11, at: 0 }).prompt, "0.000002")
  assert.equal(typeof root.createSimulator, "function", "createSimulator")
  assert.equal(typeof msw.createHandlers, "function", "createHandlers")
  const sim = root.createSimulator()
  const res = sim.handle({ method: "GET", path: "/videos/models" })
  assert.equal(res.status, 200)
  console.log("ESM ok: import(\"model-access-sim\"), import(\"model-access-sim/msw\"), import(\"model-access-sim/pricing\"), /fixtures and /arbitraries; GET /videos/models ->", res.status)
')

step "the default world: read from a file on Node, embedded elsewhere, parsed on first use (decisions/0059, 0066, 0067)"
node "$ROOT/test/pack/default-world.mjs" "$CONSUMER" "$ROOT"

step "the engine: compiled from a script on the first createSimulator() on Node, a module elsewhere (decisions/0072)"
node "$ROOT/test/pack/engine.mjs" "$CONSUMER" "$ROOT"

step "date-fns and pure-rand are built in, not installed (decisions/0062)"
(cd "$CONSUMER" && node --input-type=module -e '
  import assert from "node:assert/strict"
  import { existsSync, readdirSync, readFileSync } from "node:fs"
  const pkg = "node_modules/model-access-sim"
  assert.deepEqual(JSON.parse(readFileSync(pkg + "/package.json", "utf8")).dependencies ?? {}, {}, "the package declares no dependencies")
  const notices = readFileSync(pkg + "/THIRD-PARTY-NOTICES.md", "utf8")
  const files = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? files(dir + "/" + e.name) : [dir + "/" + e.name])
  for (const name of ["date-fns", "@date-fns/utc", "pure-rand"]) {
    assert.ok(notices.includes("## " + name + " "), name + " has its license in THIRD-PARTY-NOTICES.md")
    for (const file of files(pkg + "/dist").filter((f) => /\.c?js$/.test(f))) {
      const text = readFileSync(file, "utf8")
      assert.ok(!text.includes("from \"" + name + "/") && !text.includes("require(\"" + name + "/"), file + " loads " + name + " from node_modules")
    }
  }
  console.log("no dependencies; date-fns, @date-fns/utc and pure-rand built in, their licenses shipped")
')

step "model-access-sim serve --port 0, as a new user runs it"
(cd "$CONSUMER" && node --input-type=module -e '
  import assert from "node:assert/strict"
  import { spawn } from "node:child_process"
  import { execFileSync } from "node:child_process"
  // npx finds the command the package installs...
  const version = execFileSync("npx", ["--no-install", "model-access-sim", "--version"], { encoding: "utf8" }).trim()
  assert.equal(version, JSON.parse(execFileSync("npm", ["pkg", "get", "version", "--prefix", "node_modules/model-access-sim"], { encoding: "utf8" })))
  // ...and the command itself serves; it runs without npx here, so that its own exit code on SIGINT is the one seen.
  const child = spawn("node_modules/.bin/model-access-sim", ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] })
  let out = ""
  child.stdout.on("data", (chunk) => (out += chunk))
  child.stderr.on("data", (chunk) => process.stderr.write(chunk))
  const deadline = Date.now() + 30_000
  while (!/management key: (\S+)/.test(out) || !/API at (\S+)/.test(out)) {
    assert.ok(Date.now() < deadline, "the banner did not appear within 30 s: " + out)
    assert.equal(child.exitCode, null, "serve exited early: " + out)
    await new Promise((done) => setTimeout(done, 100))
  }
  const url = /API at (\S+)/.exec(out)[1]
  const key = /management key: (\S+)/.exec(out)[1]
  const res = await fetch(url + "/keys", { headers: { authorization: "Bearer " + key } })
  assert.equal(res.status, 200)
  const health = await fetch(url.replace(/\/api\/v1$/, "/__sim/health"))
  assert.deepEqual(await health.json(), { status: "ok" })
  const exited = new Promise((done) => child.on("exit", (code, signal) => done({ code, signal })))
  child.kill("SIGINT")
  const timer = setTimeout(() => { child.kill("SIGKILL"); console.error("serve did not stop within 10 s of SIGINT") }, 10_000)
  const { code } = await exited
  clearTimeout(timer)
  assert.equal(code, 0, "serve should exit 0 on SIGINT")
  const { startServer } = await import("model-access-sim/server")
  assert.equal(typeof startServer, "function")
  console.log("serve ok:", url, "GET /keys ->", res.status, "; SIGINT -> exit", code)
')

step "Consumer-project check passed"
