#!/usr/bin/env bash
# Installs the real Task Master and Backlog.md CLIs (the versions of test/fixtures/import/TOOL-VERSIONS)
# into .ci/tools/, for the tests that check links against the programs themselves
# (test/links/real-tools.test.ts). Needs the npm registry; run from anywhere: bash scripts/install-real-tools.sh
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
TM_VERSION=$(awk '$1 == "task-master-ai" { print $2 }' "$REPO/test/fixtures/import/TOOL-VERSIONS")
BL_VERSION=$(awk '$1 == "backlog.md" { print $2 }' "$REPO/test/fixtures/import/TOOL-VERSIONS")
DIR=$REPO/.ci/tools
BIN=$DIR/node_modules/.bin
if [ -x "$BIN/task-master" ] && [ -x "$BIN/backlog" ] && [ "$("$BIN/backlog" --version 2>/dev/null)" = "$BL_VERSION" ]; then
  echo "real tools already in $DIR" >&2
  exit 0
fi
mkdir -p "$DIR"
cd "$DIR"
[ -f package.json ] || echo '{"name":"cairn-real-tools","private":true}' > package.json
npm install --no-audit --no-fund --silent "task-master-ai@$TM_VERSION" "backlog.md@$BL_VERSION" > /dev/null
echo "installed task-master-ai $TM_VERSION and backlog.md $BL_VERSION in $DIR" >&2
