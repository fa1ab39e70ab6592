#!/usr/bin/env bash
# Runs a test command with a deadline, so that a hung test fails the run with a report instead of
# holding it until CI gives up. Usage: test-bounded.sh SECONDS command [args...]
# On the deadline it lists the tests that started and did not finish, prints the backtraces of
# the test process's threads (gdb, when installed), stops the run and exits 124.
set -uo pipefail
limit="$1"
shift
log="$(mktemp -t pkrelay-test-XXXXXX.log)"
trap 'rm -f "$log"' EXIT

# The command writes to a log the watchdog can read; tail shows it as it comes and, once the
# command has ended, prints the rest and stops.
"$@" > "$log" 2>&1 &
runner=$!
tail -n +1 -f --pid="$runner" "$log" &
shower=$!

# Every process started, directly or not, by the run (and only those: other runs on the machine
# are left alone).
descendants() {
    local child
    for child in $(pgrep -P "$1" || true); do
        echo "$child"
        descendants "$child"
    done
}

report_hang() {
    echo
    echo "test run still going after ${limit} s: stopping it. Tests started and not finished:"
    python3 - "$log" <<'PY'
import re, sys
started, ended = [], set()
for line in open(sys.argv[1], errors="replace"):
    if m := re.search(r"Test (.+?) started\.", line):
        started.append(m.group(1))
    elif m := re.search(r"Test (.+?) (passed|failed|skipped)", line):
        ended.add(m.group(1))
left = [name for name in started if name not in ended]
print("\n".join("  " + name for name in left) or "  (none: the hang is outside a test)")
PY
    local processes test_processes pid
    processes="$runner $(descendants "$runner")"
    test_processes="$(for pid in $processes; do grep -qs 'PackageTests.xctest' "/proc/$pid/cmdline" && echo "$pid"; done)"
    for pid in $test_processes; do
        echo "threads of test process ${pid}:"
        if command -v gdb > /dev/null; then
            timeout 120 gdb -p "$pid" -batch -ex "thread apply all bt 16" 2>/dev/null | grep -E '^(Thread|#[0-9]+ )' | cut -c1-200 | head -600
        else
            echo "  (gdb is not installed: no backtraces)"
        fi
    done
    kill -TERM $processes 2>/dev/null || true
    sleep 2
    kill -KILL $processes 2>/dev/null || true
}

deadline=$((SECONDS + limit))
while kill -0 "$runner" 2>/dev/null; do
    if [ "$SECONDS" -ge "$deadline" ]; then
        report_hang
        wait "$runner" "$shower" 2>/dev/null
        exit 124
    fi
    sleep 1
done
wait "$runner"
status=$?
wait "$shower"
exit "$status"
