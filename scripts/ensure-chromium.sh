#!/usr/bin/env bash
# Makes sure a Chromium the renderer can launch is present. The project uses puppeteer-core,
# which never downloads a browser (machines here reach only the npm registry and Debian's
# packages), so install Debian's chromium when none is found (needs root or sudo).
set -euo pipefail
if [ -n "${PUPPETEER_EXECUTABLE_PATH:-}" ] && [ -x "${PUPPETEER_EXECUTABLE_PATH}" ]; then exit 0; fi
if [ -x /usr/bin/chromium ]; then exit 0; fi
for p in /usr/bin/chromium-browser /usr/bin/google-chrome-stable /usr/bin/google-chrome; do if [ -x "$p" ]; then exit 0; fi; done
echo "spaceact: no Chromium found; installing Debian's chromium package" >&2
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "spaceact: need root (or sudo) to install chromium; or set PUPPETEER_EXECUTABLE_PATH" >&2; exit 1
  fi
fi
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
[ -x /usr/bin/chromium ] || { echo "spaceact: chromium install failed" >&2; exit 1; }
