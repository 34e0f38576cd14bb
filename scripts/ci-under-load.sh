#!/usr/bin/env bash
# The whole `npm test` while stress-ng keeps both cores busy: the suite must pass on a loaded machine,
# with no journey retried (both Playwright configs have retries: 0, so a journey that fails once fails the
# run). Bounded in time: the suite is stopped after the limit (first argument, in seconds; 2400 by
# default), and stress-ng stops when the suite ends. Prints the machine's load, the counts and the time.
set -uo pipefail
cd "$(dirname "$0")/.."

limit="${1:-2400}"
case "$limit" in
  '' | *[!0-9]*)
    echo "usage: scripts/ci-under-load.sh [limit-in-seconds]" >&2
    exit 2
    ;;
esac
if ! command -v stress-ng >/dev/null; then
  echo "scripts/ci-under-load.sh needs stress-ng, missing here: install with \`sudo apt-get install stress-ng\` (Debian/Ubuntu)." >&2
  exit 1
fi

log="$(mktemp -t wayfare-under-load.XXXXXX)"
started=$(date +%s)
echo "under load: stress-ng --cpu 2 for up to ${limit} s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
stress-ng --cpu 2 --timeout "${limit}s" --quiet &
stress=$!
stop_stress() {
  kill "$stress" 2>/dev/null
  wait "$stress" 2>/dev/null
}
trap 'stop_stress; rm -f "$log"' EXIT
trap 'exit 130' INT TERM

timeout --signal=TERM --kill-after=60 "$limit" npm test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
load="$(cut -d' ' -f1-3 /proc/loadavg)"
stop_stress

elapsed=$(($(date +%s) - started))
counts="$(grep -E '^Tests: ' "$log" | tail -1)"
echo
if [ "$status" = 124 ] || [ "$status" = 137 ]; then
  echo "under load: npm test did not finish within ${limit} s"
fi
echo "under load: ${counts:-no test counts printed}; npm test exited ${status} after ${elapsed} s; load average at the end ${load}"
exit "$status"
