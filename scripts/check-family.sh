#!/usr/bin/env bash
# One family's checks alone, for authors: the check-suite (every tier, the quick shortcut
# battery) and the folder-layout test restricted to the family, its own test file, and its
# released fixtures. Green here is not yet sound: run `npx spaceact verify --family ID` (the
# full battery, 100 seeds per tier) before trusting a family.
#   scripts/check-family.sh P6 [V1 ...]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: scripts/check-family.sh FAMILY [FAMILY ...]" >&2; exit 2; }
cd "$(dirname "$0")/.."
ids=$(IFS=,; echo "$*")
files=(test/check-suite.test.ts test/family-layout.test.ts)
for id in "$@"; do
  f="test/family-$(echo "$id" | tr 'A-Z' 'a-z').test.ts"
  [ -f "$f" ] && files+=("$f")
done
SPACEACT_FAMILIES="$ids" npx mocha --no-config --node-option import=tsx/esm --timeout 600000 "${files[@]}"
node bin/spaceact.mjs fixtures --check --family "$ids"
