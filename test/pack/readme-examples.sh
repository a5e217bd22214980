#!/usr/bin/env bash
# Every example of the README and of the guides in docs/, typechecked and run against the packed
# tarball in two consumer projects:
#   (a) msw 2 on the machine's Node (20 on CI),
#   (b) msw 3 on Node 24 (from the npm registry: npx -p node@24), since msw 3 needs Node 22.12+.
#
#   bash test/pack/readme-examples.sh [FILE.md ...]      (default: README.md and docs/*.md of the repository)
#   TARBALL=/path/to/model-access-sim-x.y.z.tgz bash test/pack/readme-examples.sh
#
# Without TARBALL it builds (npm run build) and packs the repository first. Each project installs the
# tarball with msw, @openrouter/sdk, typescript, tsx, @faker-js/faker and fast-check (the repository's
# devDependency versions) and @types/node of its Node major, typechecks the examples it runs with one
# strict `tsc --noEmit` (in the background) and runs each of them with tsx under a timeout.
#
# Examples are the files' fenced blocks that open with the line ```ts and whose first line is
# `// readme-example`, `// example: NAME` or `// vitest-example: NAME` (a vitest test file). A NAME
# ending in " (msw 2)" or " (msw 3)" runs only against that msw major, and must have a twin of the same
# NAME in the same file for the other one; every other example runs against both. A NAME ending in
# " (node 24)" shows a client whose engines need Node 22+ (the AI SDK, LangChain): it runs in the
# project on Node 22 or later only (msw 3 on Node 24), which also installs those clients at the
# repository's devDependency versions (decisions/0040). Each is reported as
# "FILE: NAME" (docs/spending.md: embeddings). test/readme.test.ts and test/vitest/docs.test.ts apply
# the same rules under vitest.
#
# Environment: TARBALL (skip the build), NODE_MSW2 (default: node on PATH), NODE_MSW3 (default: Node 24
# through npx), EXAMPLE_TIMEOUT (seconds per example, default 90), TSC_TIMEOUT (default 300),
# KEEP_WORK=1 (keep the scratch directory). Exits non-zero if anything fails.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
EXAMPLE_TIMEOUT="${EXAMPLE_TIMEOUT:-90}"
TSC_TIMEOUT="${TSC_TIMEOUT:-300}"
NPM_FLAGS=(--no-audit --no-fund --loglevel=error)

# shellcheck source=test/pack/lib.sh
source "$ROOT/test/pack/lib.sh"
elapsed() { printf '%ss' "$((SECONDS - $1))"; }

# The documentation: the files given, or README.md and every docs/*.md, as absolute paths.
DOCS=()
if (($# > 0)); then
  for doc in "$@"; do
    [[ -f "$doc" ]] || fail "not found: $doc"
    DOCS+=("$(cd "$(dirname "$doc")" && pwd)/$(basename "$doc")")
  done
else
  DOCS+=("$ROOT/README.md")
  for doc in "$ROOT"/docs/*.md; do [[ -f "$doc" ]] && DOCS+=("$doc"); done
fi
START=$SECONDS

WORK="$(mktemp -d "${TMPDIR:-/tmp}/model-access-sim-readme.XXXXXX")"
cleanup() {
  local pid
  for pid in $(jobs -p); do kill "$pid" 2>/dev/null || true; done
  if [[ "${KEEP_WORK:-}" == 1 ]]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 1. The examples of the README and docs/ -------------------------------------------------
step "Extracting the examples from ${#DOCS[@]} file(s): ${DOCS[*]#"$ROOT/"}"
mkdir -p "$WORK/examples"
# Writes examples/<slug>.ts for each example and a manifest, one "<major or *>\t<slug>\t<FILE: NAME>" a line.
node - "$ROOT" "$WORK/examples" "${DOCS[@]}" > "$WORK/manifest.tsv" <<'JS' || fail "the documentation's examples break the rules above"
const fs = require('node:fs')
const path = require('node:path')
const [root, out, ...docs] = process.argv.slice(2)
const MAJORS = [2, 3]
const examples = []
for (const doc of docs) {
  // The file as the report names it: relative to the repository when it is in it.
  const file = path.relative(root, doc).startsWith('..') ? doc : path.relative(root, doc)
  const lines = fs.readFileSync(doc, 'utf8').split('\n').map((line) => line.replace(/\r$/, ''))
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trimEnd() !== '```ts') {
      if (lines[i].startsWith('```')) while (++i < lines.length && lines[i].trimEnd() !== '```');
      continue
    }
    const start = i + 1
    let end = start
    while (end < lines.length && lines[end].trimEnd() !== '```') end++
    if (end === lines.length) throw new Error(`${file} line ${i + 1}: a \`\`\`ts block is never closed`)
    i = end
    const first = (lines[start] ?? '').trimEnd()
    const vitest = /^\/\/ vitest-example: (.+)$/.exec(first)
    if (vitest) {
      // A vitest test file: run by vitest in each project, after the examples.
      const name = vitest[1].trim()
      examples.push({ file, name, base: name, major: undefined, vitest: true, line: start + 1, code: lines.slice(start, end).join('\n') })
      continue
    }
    const head = /^\/\/ (readme-example|example: (.+))$/.exec(first)
    if (!head) continue
    const name = head[1] === 'readme-example' ? 'readme-example' : head[2].trim()
    const tag = / \(msw (\d+)\)$/.exec(name)
    examples.push({ file, name, base: tag ? name.slice(0, tag.index) : name, major: tag ? Number(tag[1]) : undefined, node24: name.endsWith(' (node 24)'), line: start + 1, code: lines.slice(start, end).join('\n') })
  }
}
const problems = []
const slugs = new Set()
for (const e of examples) {
  e.label = `${e.file}: ${e.name}`
  e.slug = e.label.toLowerCase().replace(/\W+/g, '-').replace(/^-|-$/g, '')
  if (slugs.has(e.slug)) problems.push(`${e.file} line ${e.line}: a second example named "${e.name}"`)
  slugs.add(e.slug)
  if (e.major === undefined) continue
  if (!MAJORS.includes(e.major)) problems.push(`${e.file} line ${e.line}: "${e.name}" is tagged for msw ${e.major}; this script tests msw ${MAJORS.join(' and ')}`)
  for (const other of MAJORS) {
    if (other !== e.major && !examples.some((t) => t.file === e.file && t.base === e.base && t.major === other)) {
      problems.push(`${e.file} line ${e.line}: "${e.name}" has no twin "${e.base} (msw ${other})" in ${e.file}`)
    }
  }
}
if (examples.length === 0) problems.push('no ```ts block starts with // readme-example, // example: NAME or // vitest-example: NAME')
if (problems.length > 0) {
  console.error(problems.join('\n'))
  process.exit(2)
}
for (const e of examples) {
  fs.writeFileSync(path.join(out, e.vitest ? `${e.slug}.test.ts` : `${e.slug}.ts`), `${e.code}\nexport {}\n`)
  console.log(`${e.vitest ? 'vitest' : e.node24 ? 'node24' : (e.major ?? '*')}\t${e.slug}\t${e.label}`)
}
JS
while IFS=$'\t' read -r major slug name; do
  printf '  %-7s %s\n' "$([[ $major == '*' ]] && echo both || { [[ $major == vitest || $major == node24 ]] && echo "$major"; } || echo "msw $major")" "$name"
done < "$WORK/manifest.tsv"

# --- 2. The tarball ---------------------------------------------------------------------------
pack_tarball

# --- 3. Node binaries -------------------------------------------------------------------------
step "Node for each msw major"
NODE_MSW2="${NODE_MSW2:-$(command -v node)}"
if [[ -z "${NODE_MSW3:-}" ]]; then
  NODE_MSW3="$(npx -y -p node@24 node -p process.execPath 2>"$WORK/npx-node.log")" ||
    { cat "$WORK/npx-node.log" >&2; fail "could not get Node 24 with npx -p node@24"; }
fi
for node_bin in "$NODE_MSW2" "$NODE_MSW3"; do
  [[ -x "$node_bin" ]] || fail "not an executable: $node_bin"
done
echo "msw 2: $NODE_MSW2 ($("$NODE_MSW2" --version))"
echo "msw 3: $NODE_MSW3 ($("$NODE_MSW3" --version))"

# --- 4. Consumer projects, installed side by side ---------------------------------------------
# The clients of the " (node 24)" examples, for a project on Node 22 or later.
CLIENTS=("ai@$(dev ai)" "@openrouter/ai-sdk-provider@$(dev @openrouter/ai-sdk-provider)" "@langchain/core@$(dev @langchain/core)"
  "@langchain/openai@$(dev @langchain/openai)" "@langchain/openrouter@$(dev @langchain/openrouter)" "openai@$(dev openai)" "zod@$(dev zod)")
COMMON=("@openrouter/sdk@1.3.19" "typescript@$(dev typescript)" "tsx@$(dev tsx)" "vitest@$(dev vitest)"
  "@faker-js/faker@$(dev @faker-js/faker)" "fast-check@$(dev fast-check)")

# setup_project DIR MSW_MAJOR NODE: writes package.json and tsconfig.json, then npm install, with npm
# itself running on that Node (its `#!/usr/bin/env node` finds the Node directory first on PATH).
setup_project() {
  local dir="$1" major="$2" node_bin="$3" node_major clients=()
  node_major="$("$node_bin" -p 'process.versions.node.split(".")[0]')"
  ((node_major >= 22)) && clients=("${CLIENTS[@]}")
  mkdir -p "$dir/examples" "$dir/vitest-examples"
  printf "export default { test: { include: ['*.test.ts'], testTimeout: 60000 } }\n" > "$dir/vitest-examples/vitest.config.mjs"
  cat > "$dir/package.json" <<JSON
{ "name": "model-access-sim-readme-msw$major", "version": "0.0.0", "private": true, "type": "module" }
JSON
  cat > "$dir/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2022", "DOM", "DOM.Iterable"],
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "noUncheckedIndexedAccess": true,
    "exactOptionalPropertyTypes": true,
    "verbatimModuleSyntax": true,
    "isolatedModules": true,
    "skipLibCheck": false,
    "types": ["node"],
    "noEmit": true
  },
  "include": ["examples/*.ts", "vitest-examples/*.ts"]
}
JSON
  (cd "$dir" && PATH="$(dirname "$node_bin"):$PATH" npm_install "${NPM_FLAGS[@]}" \
    "$TARBALL" "msw@$major" "@types/node@$node_major" "${COMMON[@]}" "${clients[@]}")
}

PROJECTS=(2 3)
declare -A NODE_OF=([2]="$NODE_MSW2" [3]="$NODE_MSW3")
step "Installing both consumer projects"
t0=$SECONDS
declare -A INSTALL_PID
for major in "${PROJECTS[@]}"; do
  setup_project "$WORK/msw$major" "$major" "${NODE_OF[$major]}" > "$WORK/install-msw$major.log" 2>&1 &
  INSTALL_PID[$major]=$!
done
for major in "${PROJECTS[@]}"; do
  if ! wait "${INSTALL_PID[$major]}"; then
    cat "$WORK/install-msw$major.log" >&2
    fail "npm install failed in the msw $major project"
  fi
done
echo "installed in $(elapsed "$t0")"

# --- 5. Typecheck (in the background) and run, project by project ------------------------------
# PATH_OF: anything a project's commands spawn as `node` is that project's Node too.
declare -A PATH_OF TSX_OF TSC_PID SELECTED VITEST_SELECTED NODE24_RAN
step "Starting tsc in each project"
for major in "${PROJECTS[@]}"; do
  dir="$WORK/msw$major"
  node_bin="${NODE_OF[$major]}"
  PATH_OF[$major]="$(dirname "$node_bin"):$PATH"
  versions="$(cd "$dir" && PATH="${PATH_OF[$major]}" node -p '
    const v = (name) => require(`./node_modules/${name}/package.json`).version;
    `msw ${v("msw")}, typescript ${v("typescript")}, tsx ${v("tsx")}, @types/node ${v("@types/node")}, Node ${process.version}`')"
  echo "msw $major project: $versions"
  [[ "$(cd "$dir" && node -p 'require("./node_modules/msw/package.json").version.split(".")[0]')" == "$major" ]] ||
    fail "the msw $major project did not install msw $major"

  SELECTED[$major]=""
  VITEST_SELECTED[$major]=""
  node_major="$("$node_bin" -p 'process.versions.node.split(".")[0]')"
  while IFS=$'\t' read -r tag slug name; do
    if [[ "$tag" == node24 ]]; then
      if ((node_major >= 22)); then
        cp "$WORK/examples/$slug.ts" "$dir/examples/"
        SELECTED[$major]+="$slug"$'\t'"$name"$'\n'
        NODE24_RAN[$slug]=1
      fi
    elif [[ "$tag" == vitest ]]; then
      cp "$WORK/examples/$slug.test.ts" "$dir/vitest-examples/"
      VITEST_SELECTED[$major]+="$slug"$'\t'"$name"$'\n'
    elif [[ "$tag" == '*' || "$tag" == "$major" ]]; then
      cp "$WORK/examples/$slug.ts" "$dir/examples/"
      SELECTED[$major]+="$slug"$'\t'"$name"$'\n'
    fi
  done < "$WORK/manifest.tsv"

  # tsx runs its loader in a child of process.execPath: check the examples really run on this Node.
  TSX_OF[$major]="$dir/node_modules/tsx/$(cd "$dir" && node -p 'const { bin } = require("./node_modules/tsx/package.json"); typeof bin === "string" ? bin : bin.tsx')"
  printf 'console.log(process.version)\n' > "$dir/node-version.ts"
  seen="$(cd "$dir" && PATH="${PATH_OF[$major]}" "$node_bin" "${TSX_OF[$major]}" node-version.ts)"
  [[ "$seen" == "$("$node_bin" --version)" ]] || fail "tsx ran on $seen, not $("$node_bin" --version)"

  # One tsc for all of the project's examples, while they run.
  (cd "$dir" && PATH="${PATH_OF[$major]}" timeout "$TSC_TIMEOUT" "$node_bin" node_modules/typescript/bin/tsc --noEmit -p tsconfig.json \
    > "$WORK/tsc-msw$major.log" 2>&1; echo $? > "$WORK/tsc-msw$major.status") &
  TSC_PID[$major]=$!
done

# A " (node 24)" example that no project runs would pass unseen: fail instead.
while IFS=$'\t' read -r tag slug name; do
  [[ "$tag" != node24 || -n "${NODE24_RAN[$slug]:-}" ]] || fail "no project runs on Node 22+ for \"$name\" (NODE_MSW3 must be Node 22 or later)"
done < "$WORK/manifest.tsv"

# One lane per msw major, both at once (with the two tsc runs): each lane runs its examples one
# after another, writes what it prints to its log and each example's status and time to its
# results, and the logs are printed in order once both are done. One lane after the other left a
# core idle for most of this step.
run_lane() {
  local major="$1" slug name t0 status verdict
  local results="$WORK/results-msw$major.tsv"
  : > "$results"
  step "Running the msw $major examples on Node $("${NODE_OF[$major]}" --version)"
  while IFS=$'\t' read -r slug name; do
    [[ -n "$slug" ]] || continue
    t0=$SECONDS
    status=0
    (cd "$WORK/msw$major" && PATH="${PATH_OF[$major]}" timeout --kill-after=10 "$EXAMPLE_TIMEOUT" "${NODE_OF[$major]}" "${TSX_OF[$major]}" "examples/$slug.ts") \
      > "$WORK/run-msw$major-$slug.log" 2>&1 || status=$?
    printf '%s\t%s\t%s\n' "$slug" "$status" "$(elapsed "$t0")" >> "$results"
    if ((status == 0)); then
      echo "  ran   $name ($(elapsed "$t0"))"
    else
      echo "  FAILED $name: $([[ $status == 124 ]] && echo "timed out after ${EXAMPLE_TIMEOUT}s" || echo "exit $status") ($(elapsed "$t0"))"
      tail -n 40 "$WORK/run-msw$major-$slug.log" | sed 's/^/    | /'
    fi
  done <<< "${SELECTED[$major]}"
  if [[ -n "${VITEST_SELECTED[$major]}" ]]; then
    # The vitest test files, in one vitest run; each file passes when all its tests pass.
    t0=$SECONDS
    (cd "$WORK/msw$major" && PATH="${PATH_OF[$major]}" timeout --kill-after=10 300 "${NODE_OF[$major]}" node_modules/vitest/vitest.mjs run \
      --root vitest-examples --reporter=json --outputFile="$WORK/vitest-msw$major.json") > "$WORK/run-msw$major-vitest.log" 2>&1 || true
    while IFS=$'\t' read -r slug name; do
      [[ -n "$slug" ]] || continue
      verdict="$(node -e '
        const [report, file] = process.argv.slice(1)
        let r; try { r = require(report) } catch { console.log("no report"); process.exit() }
        const f = r.testResults.find((t) => t.name.endsWith("/" + file))
        if (!f) { console.log("not run"); process.exit() }
        const bad = f.assertionResults.filter((a) => a.status !== "passed")
        console.log(f.assertionResults.length === 0 ? "no tests" : bad.length === 0 ? "ok" : bad.map((a) => a.fullName).join("; "))
      ' "$WORK/vitest-msw$major.json" "$slug.test.ts")"
      if [[ "$verdict" == ok ]]; then
        printf '%s\t0\t%s\n' "$slug" "$(elapsed "$t0")" >> "$results"
        echo "  ran   $name (vitest)"
      else
        printf '%s\t1\t%s\n' "$slug" "$(elapsed "$t0")" >> "$results"
        echo "  FAILED $name (vitest): $verdict"
        tail -n 40 "$WORK/run-msw$major-vitest.log" | sed 's/^/    | /'
      fi
    done <<< "${VITEST_SELECTED[$major]}"
  fi
}

declare -A RUN_STATUS RUN_TIME LANE_PID
for major in "${PROJECTS[@]}"; do
  run_lane "$major" > "$WORK/lane-msw$major.log" 2>&1 &
  LANE_PID[$major]=$!
done
for major in "${PROJECTS[@]}"; do
  wait "${LANE_PID[$major]}" || true
  cat "$WORK/lane-msw$major.log"
  # An example the lane never reached (it was killed) has no result: it counts as failed below.
  while IFS=$'\t' read -r slug status took; do
    RUN_STATUS[$major/$slug]=$status
    RUN_TIME[$major/$slug]=$took
  done < "$WORK/results-msw$major.tsv"
  SELECTED[$major]+="${VITEST_SELECTED[$major]}"
done

failures=0
passes=0
declare -a SUMMARY
for major in "${PROJECTS[@]}"; do
  log="$WORK/tsc-msw$major.log"
  wait "${TSC_PID[$major]}" || true
  tsc_status="$(cat "$WORK/tsc-msw$major.status" 2>/dev/null || echo 1)"
  count="$(grep -c . <<< "${SELECTED[$major]}")"
  step "tsc --noEmit over the $count msw $major examples: exit $tsc_status"
  if ((tsc_status != 0)); then
    # An error in the package's own declarations fails the project as a whole; one in another
    # package's declarations (its clash with this @types/node, say) is shown but not counted, since
    # it is not this package's to fix and consumers skip it with skipLibCheck. An error in an
    # example fails that example, below.
    own="$(grep -E '^node_modules/model-access-sim/.*error TS' "$log" || true)"
    others="$(grep -E '^node_modules/.*error TS' "$log" | grep -v '^node_modules/model-access-sim/' || true)"
    if [[ -n "$others" ]]; then
      echo "warning: type errors in other packages' declarations (not counted):"
      sed 's/^/    /' <<< "$others"
    fi
    if [[ -n "$own" ]]; then
      sed 's/^/    /' <<< "$own"
      SUMMARY+=("FAIL  msw $major  tsc: errors in model-access-sim's own declarations")
      failures=$((failures + 1))
    elif [[ -z "$others" ]] && ! grep -qE '^(vitest-)?examples/.*error TS' "$log"; then
      sed 's/^/    /' "$log"
      SUMMARY+=("FAIL  msw $major  tsc: exit $tsc_status")
      failures=$((failures + 1))
    fi
  fi
  while IFS=$'\t' read -r slug name; do
    [[ -n "$slug" ]] || continue
    type_errors="$(grep -E "^(examples/$slug\.ts|vitest-examples/$slug\.test\.ts)\(" "$log" || true)"
    status="${RUN_STATUS[$major/$slug]:-1}"
    what=()
    if [[ -n "$type_errors" ]]; then what+=("tsc: $(wc -l <<< "$type_errors") error(s)"); fi
    if ((status == 124)); then what+=("run: timed out after ${EXAMPLE_TIMEOUT}s")
    elif ((status != 0)); then what+=("run: exit $status"); fi
    if ((${#what[@]} == 0)); then
      line="PASS  msw $major  $name (tsc ok, ran in ${RUN_TIME[$major/$slug]})"
      passes=$((passes + 1))
    else
      line="FAIL  msw $major  $name (${what[*]})"
      failures=$((failures + 1))
    fi
    SUMMARY+=("$line")
    if [[ -n "$type_errors" ]]; then
      echo "$line"
      sed 's/^/    /' <<< "$type_errors"
    fi
  done <<< "${SELECTED[$major]}"
done

# --- 6. Summary -------------------------------------------------------------------------------
step "Summary ($(elapsed "$START"))"
printf '%s\n' "${SUMMARY[@]}"
echo "README examples: $passes passed, $failures failed"
((failures == 0)) || fail "$failures documentation example check(s) failed"
echo "every example of the README and docs/ typechecks and runs against msw 2 and msw 3"
