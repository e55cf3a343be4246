#!/usr/bin/env bash
# Makes sure a redis-server is installed for queue runs and their tests (`spaceact run --queue`,
# `spaceact worker`, test/queue-*.test.ts). The tests start their own server on a free loopback
# port and stop it; this only installs Debian's redis-server package when none is found
# (needs root or sudo; or put a redis-server on PATH, or name one in SPACEACT_REDIS_SERVER).
set -euo pipefail
if [ -n "${SPACEACT_REDIS_SERVER:-}" ] && [ -x "${SPACEACT_REDIS_SERVER}" ]; then exit 0; fi
if command -v redis-server >/dev/null 2>&1; then exit 0; fi
if [ -x /usr/bin/redis-server ]; then exit 0; fi
echo "spaceact: no redis-server found; installing Debian's redis-server package" >&2
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "spaceact: need root (or sudo) to install redis-server; or set SPACEACT_REDIS_SERVER" >&2; exit 1
  fi
fi
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null
# The package may start a system service on 6379; the project never uses it (tests pick a free port).
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || { echo "spaceact: redis-server install failed" >&2; exit 1; }
