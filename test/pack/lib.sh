# Shared by the consumer-project checks in test/pack/: sourced, not run.
#   ROOT   the repository root (set by the caller)
#   WORK   the caller's scratch directory

step() { printf '\n==> %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

# The version of a devDependency of the repository, to install the same one in a consumer project.
dev() { (cd "$ROOT" && node -p "require('./package.json').devDependencies['$1']"); }

# Sets TARBALL to the package tarball: $TARBALL when the caller's environment gives one (nothing is
# built), else `npm run build` (unless NO_BUILD=1: dist/ is fresh) and `npm pack` into $WORK/pack.
pack_tarball() {
  if [[ -n "${TARBALL:-}" ]]; then
    [[ -f "$TARBALL" ]] || fail "TARBALL is not a file: $TARBALL"
    TARBALL="$(cd "$(dirname "$TARBALL")" && pwd)/$(basename "$TARBALL")"
    step "Using the tarball $TARBALL (nothing is built)"
  else
    if [[ "${NO_BUILD:-}" != 1 ]]; then
      step "npm run build"
      (cd "$ROOT" && npm run build)
    fi
    step "npm pack"
    mkdir -p "$WORK/pack"
    # --ignore-scripts: the build above (or the caller's, with NO_BUILD=1) is fresh; prepack would repeat it.
    (cd "$ROOT" && npm pack --silent --ignore-scripts --pack-destination "$WORK/pack" >/dev/null)
    shopt -s nullglob
    local tarballs=("$WORK/pack"/*.tgz)
    shopt -u nullglob
    ((${#tarballs[@]} == 1)) || fail "expected one tarball, found ${#tarballs[@]}"
    TARBALL="${tarballs[0]}"
  fi
  echo "$(basename "$TARBALL"): $(tar -tzf "$TARBALL" | wc -l) files"
}

# `npm install "$@"` in the current directory, tried once more after a failure: the registry is on
# the network, and one dropped connection says nothing of the package (a second failure fails the
# check, with both attempts' output above it).
npm_install() {
  npm install "$@" && return 0
  echo "npm install failed (exit $?): trying once more in 10 s" >&2
  sleep 10
  npm install "$@"
}
