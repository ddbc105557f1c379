#!/usr/bin/env bash
# An operator routine, automated: pause sync, roll back to a block, resume, upload a snapshot, check status.
# Stops at the first step that fails (set -e) and exits with that step's exit code, so a cron job or CI step
# can branch on it: 1 the node refused, 2 bad arguments, 3 API key refused, 4 no such block, 5 node unreachable
# (l2node(1), EXIT STATUS). The node is found through NODE_URL and NODE_ADMIN_URL; the admin key is the one
# `l2node start` or `l2node admin login` saved (or NODE_ADMIN_API_KEY).
#
# Usage: scripts/admin-routine.sh <rollback-block> <snapshot-location>
#   e.g. scripts/admin-routine.sh 120 file:///var/backups/l2node
# L2NODE names the CLI to run (default: l2node on the PATH).
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: $0 <rollback-block> <snapshot-location>" >&2
  exit 2
fi
block=$1
location=$2
read -r -a cli <<<"${L2NODE:-l2node}"

step() {
  echo "== $*"
  "${cli[@]}" "$@"
}

step admin pause-sync
# From here a failing step must not leave the node paused: resume on the way out, keeping the step's exit code.
resume_on_exit() {
  local code=$?
  if [ "$code" -ne 0 ]; then
    echo "== step failed (exit $code): resuming sync before exiting" >&2
    "${cli[@]}" admin resume-sync >&2 || true
  fi
  exit "$code"
}
trap resume_on_exit EXIT
step admin rollback "$block" --yes
step admin resume-sync
trap - EXIT
step admin snapshot upload "$location"
step status
echo "== done: rolled back to block $block, snapshot uploading to $location"
