#!/usr/bin/env bash
# CI: the real-browser test (test/browser/chromium.browser.ts, vitest.browser.config.ts) in headless
# Chromium. Installs Debian's chromium when /usr/bin/chromium is missing, then runs the test; exits
# non-zero when either fails. Run from the repository root, after `npm ci`.
#
# .ci/run runs it after the packed-tarball step, as one counted step.
set -uo pipefail

chromium=/usr/bin/chromium
if [ ! -x "$chromium" ]; then
  echo "== installing chromium (no $chromium)"
  if [ "$(id -u)" -eq 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo -n)
  else
    echo "cannot install chromium: not root and no sudo; install it with: apt-get update && apt-get install -y chromium" >&2
    exit 1
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "cannot install chromium: no apt-get on this machine (the test expects Debian's chromium at $chromium)" >&2
    exit 1
  fi
  if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q \
    || ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; then
    echo "installing chromium failed" >&2
    exit 1
  fi
  if [ ! -x "$chromium" ]; then
    echo "chromium installed, but $chromium is still missing" >&2
    exit 1
  fi
fi
"$chromium" --version 2>/dev/null | grep -i chromium || true

# A hang guard over vitest's own timeouts (120 s setup, 60 s a test).
timeout 600 npm run test:browser
