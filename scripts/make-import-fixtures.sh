#!/usr/bin/env bash
# Makes the Task Master and Backlog.md fixtures of test/fixtures/import/ with the real tools: installs the
# published packages in a temporary folder, creates tasks with dependencies and subtasks through their
# CLIs (both run offline for these commands), and copies the files they wrote. Run from the repository:
#   bash scripts/make-import-fixtures.sh
set -euo pipefail
TM_VERSION=${TM_VERSION:-0.43.1}
BL_VERSION=${BL_VERSION:-1.52.0}
REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=$REPO/test/fixtures/import
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
# FIXTOOLS=DIR reuses a folder where these exact versions are already installed.
if [ -n "${FIXTOOLS:-}" ]; then
  BIN=$FIXTOOLS/node_modules/.bin
else
  echo '{"name":"cairn-fixtures","private":true}' > package.json
  npm install --no-audit --no-fund --silent "task-master-ai@$TM_VERSION" "backlog.md@$BL_VERSION" > /dev/null
  BIN=$WORK/node_modules/.bin
fi
[ "$("$BIN/task-master" --version 2>/dev/null | tail -1)" = "$TM_VERSION" ] || echo "note: task-master reports $("$BIN/task-master" --version 2>/dev/null | tail -1)" >&2
export NO_COLOR=1 FORCE_COLOR=0 CI=1

# --- Task Master: two tags, dependencies, subtasks (with a dependency on a sibling), statuses, priorities.
mkdir -p "$WORK/tm" && cd "$WORK/tm"
tm() { "$BIN/task-master" "$@" > /dev/null 2>&1 || { echo "task-master $* failed" >&2; "$BIN/task-master" "$@"; exit 1; }; }
tm init --yes --name demo --description "Cairn import fixture" --skip-install --no-git --no-aliases
# init leaves no tasks file until a PRD is parsed (which needs a model); an empty tag list is the file's own shape.
echo '{"master":{"tasks":[]}}' > .taskmaster/tasks/tasks.json
tm add-task --title "Set up database schema" --description "Create tables for users and sessions" --details "Use PostgreSQL; migrations in db/migrations" --priority high
tm add-task --title "Login endpoint" --description "POST /login returns a session token" --details "Rate-limit failed attempts" --dependencies 1 --priority medium
tm add-task --title "Password reset email" --description "Send a reset link" --dependencies 1,2 --priority low
tm add-subtask --parent 2 --title "Validate input" --description "Check email and password format" --details "Reject empty fields"
tm add-subtask --parent 2 --title "Issue token" --description "Sign a JWT" --dependencies 2.1
tm add-subtask --parent 3 --title "Email template" --status done
tm set-status --id 1 --status done
tm set-status --id 2 --status in-progress
tm add-tag feature-billing --description "Billing work"
tm add-task --tag feature-billing --title "Stripe webhook" --description "Handle invoice.paid" --priority high
tm add-task --tag feature-billing --title "Invoice PDF" --description "Render invoices" --dependencies 1 --priority medium
tm use-tag feature-billing
tm set-status --id 2 --status deferred
tm use-tag master
mkdir -p "$OUT/taskmaster/.taskmaster/tasks"
cp .taskmaster/tasks/tasks.json "$OUT/taskmaster/.taskmaster/tasks/tasks.json"

# --- Backlog.md: tasks with acceptance criteria, Definition of Done, dependencies, a parent, ordinals, a milestone; a draft, a decision, a doc.
mkdir -p "$WORK/bl" && cd "$WORK/bl" && git init -q && git config user.email fixture@example.com && git config user.name fixture
bl() { "$BIN/backlog" "$@" > /dev/null 2>&1 || { echo "backlog $* failed" >&2; "$BIN/backlog" "$@"; exit 1; }; }
bl init "Cairn fixture" --defaults --integration-mode none --check-branches false --auto-open-browser false
bl milestone add "v1.0" || true
bl task create "Set up CI" -d "Run tests on every push" --priority high -l infra,ci --ac "Tests run on push" --ac "Badge in README" --dod "Docs updated" --ordinal 1000
bl task create "Add login page" -d "Email and password form" --priority medium -l ui --dep task-1 --ac "Form validates email" --ordinal 2000 -m "v1.0" -a @alice
bl task create "Login form styles" -d "Match the design" -p task-2 --ordinal 3000
bl task create "Write release notes" -d "For v1.0" --dep task-1,task-2 --priority low --notes "Collect from merged PRs"
bl task edit 1 -s "Done" --check-ac 1
bl task edit 2 -s "In Progress"
bl task create "Explore dark mode" -d "Maybe later" --draft
bl decision create "Use PostgreSQL" || true
bl doc create "Architecture overview" || true
mkdir -p "$OUT/backlog"
rm -rf "$OUT/backlog/backlog"
cp -r backlog "$OUT/backlog/backlog"

cat > "$OUT/TOOL-VERSIONS" <<VERSIONS
task-master-ai $TM_VERSION
backlog.md $BL_VERSION
node $(node --version)
made $(date -u +%Y-%m-%d) by scripts/make-import-fixtures.sh
VERSIONS
echo "fixtures written to $OUT"
