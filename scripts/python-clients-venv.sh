#!/usr/bin/env bash
# The Python venv the real-client tests run Python's openai client in (decisions/0040):
# node_modules/.cache/python-clients/venv, with test/clients/python/requirements.txt installed by pip
# as the machine configures it (its index, or a mirror in pip.conf: `pip config list` shows which).
# Does nothing when the venv already holds exactly those requirements; rebuilds it when they change.
# .ci/run runs it after npm ci; test/clients/python-openai.test.ts runs it when the venv is missing.
# Prints the venv's python on its last line; exits non-zero, saying why, when it cannot install.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REQUIREMENTS="$ROOT/test/clients/python/requirements.txt"
DIR="$ROOT/node_modules/.cache/python-clients"
VENV="$DIR/venv"
STAMP="$DIR/requirements.sha256"
PYTHON="${PYTHON:-python3}"

want="$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)"
if [[ -x "$VENV/bin/python" && -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]]; then
  echo "$VENV/bin/python"
  exit 0
fi

command -v "$PYTHON" > /dev/null || { echo "python-clients-venv: $PYTHON is not on the PATH; install Python 3.9+ with its venv module" >&2; exit 1; }
rm -rf "$VENV" "$STAMP"
mkdir -p "$DIR"
echo "python-clients-venv: creating $VENV" >&2
"$PYTHON" -m venv "$VENV" >&2 || { echo "python-clients-venv: '$PYTHON -m venv' failed; install Python's venv module (python3-venv)" >&2; exit 1; }
# A machine whose pip.conf names mirrors (extra-index-url) but no index-url would try the default
# index first, package by package, and where that index is unreachable every try times out: the
# first mirror is then the index, the others extra ones.
index_args=()
if [[ -z "$("$VENV/bin/python" -m pip config get global.index-url 2>/dev/null || true)" && -z "${PIP_INDEX_URL:-}" ]]; then
  read -r -a mirrors <<< "$("$VENV/bin/python" -m pip config get global.extra-index-url 2>/dev/null || true)"
  if [[ ${#mirrors[@]} -gt 0 ]]; then
    index_args+=(--index-url "${mirrors[0]}")
    for mirror in "${mirrors[@]:1}"; do index_args+=(--extra-index-url "$mirror"); done
  fi
fi
if ! "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input "${index_args[@]}" -r "$REQUIREMENTS" >&2; then
  echo "python-clients-venv: pip could not install $REQUIREMENTS; check pip's index or mirror (pip config list)" >&2
  rm -rf "$VENV"
  exit 1
fi
echo "$want" > "$STAMP"
echo "$VENV/bin/python"
