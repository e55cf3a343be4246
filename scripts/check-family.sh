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
files=(test/family-layout.test.ts)
for id in "$@"; do
  # The check-suite is one file per category (test/check-suite-<category>.test.ts).
  case "$(echo "${id:0:1}" | tr 'a-z' 'A-Z')" in
    B) suite=construction ;; P) suite=puzzles ;; M) suite=manipulation ;;
    A) suite=assembly ;; V) suite=perception ;; T) suite=temporal ;;
    *) echo "check-family: '$id' is not a catalog id (B, P, M, A, V or T and a number)" >&2; exit 2 ;;
  esac
  [[ " ${files[*]} " == *" test/check-suite-$suite.test.ts "* ]] || files+=("test/check-suite-$suite.test.ts")
  f="test/family-$(echo "$id" | tr 'A-Z' 'a-z').test.ts"
  [ -f "$f" ] && files+=("$f")
done
SPACEACT_FAMILIES="$ids" npx mocha --no-config --node-option import=tsx/esm --timeout 600000 "${files[@]}"
node bin/spaceact.mjs fixtures --check --family "$ids"
