#!/usr/bin/env bash
# Builds the libFuzzer executable and fuzzes each target for FUZZ_SECONDS on a scratch copy of its
# committed corpus, then prints executions and coverage per target. Exits non-zero if any target
# found a crash; its reproducer is left under .build-fuzz/runs/<target>/.
# Usage: Tools/scripts/fuzz.sh   (FUZZ_SECONDS=60, FUZZ_TARGETS=rtp,rtcp, FUZZ_ARGS='-max_len=8192',
#        FUZZ_CPU=1 to keep the fuzzer on one CPU)
set -euo pipefail
SWIFT="${SWIFT:-swift}"
SECONDS_PER_TARGET="${FUZZ_SECONDS:-60}"
SCRATCH=.build-fuzz
ALL_TARGETS="rtp rtcp stun sdp dtls codecs token config control srtp media shards stream"
TARGETS="${FUZZ_TARGETS:-$ALL_TARGETS}"
TARGETS="${TARGETS//,/ }"

# PKRELAY_FUZZ=1 adds the executable and builds PKRelay's modules with fuzzer coverage and
# AddressSanitizer (see Package.swift), in a scratch path of its own so the normal build is untouched.
BUILD=(-c release --scratch-path "$SCRATCH" --product pkrelay-fuzz)
PKRELAY_FUZZ=1 "$SWIFT" build "${BUILD[@]}"
BIN="$(PKRELAY_FUZZ=1 "$SWIFT" build "${BUILD[@]}" --show-bin-path)/pkrelay-fuzz"

# The Swift runtime keeps allocations alive until exit on purpose, which LeakSanitizer would
# report as leaks; the media plane's threads do the same. Leak checking is off for that reason.
# Allocation stacks are not recorded (malloc_context_size=0): recording them costs a tenth of the
# control target's time, and replaying a reproducer without this setting prints them. Freed
# memory waits in a 64 MiB quarantine instead of 256 MiB before reuse: the control target
# allocates so much that the larger one cost it another tenth in page faults.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:malloc_context_size=0:quarantine_size_mb=64}"
# Swift's own crash handler reads the crashed process's memory in ways AddressSanitizer reports
# as a second error, and can hang doing so; libFuzzer's handler prints the trap's stack instead.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

# The control target hands every input between three threads (libFuzzer's, a Swift pool thread and
# the media plane's); beside another busy process each handoff waits for a CPU, which costs it two
# thirds of its rate on two cores. FUZZ_CPU pins the fuzzer to the CPUs given (taskset's list).
pin=()
if [ -n "${FUZZ_CPU:-}" ]; then pin=(taskset -c "$FUZZ_CPU"); fi

failed=""
summary="$(mktemp)"
trap 'rm -f "$summary"' EXIT
printf '%-8s %14s %10s %10s %8s  %s\n' target executions exec/s coverage features result > "$summary"
for target in $TARGETS; do
  if [ ! -d "Fuzz/Corpus/$target" ]; then echo "unknown fuzz target '$target' (targets: $ALL_TARGETS)"; exit 2; fi
  run="$SCRATCH/runs/$target"
  rm -rf "$run"
  mkdir -p "$run/corpus"
  cp Fuzz/Corpus/"$target"/* "$run/corpus/"
  if [ -d "Fuzz/Regressions/$target" ]; then cp Fuzz/Regressions/"$target"/* "$run/corpus/" 2>/dev/null || true; fi
  dictionary=()
  if [ -f "Fuzz/Dictionaries/$target.dict" ]; then dictionary=(-dict="Fuzz/Dictionaries/$target.dict"); fi
  echo "== fuzzing $target for ${SECONDS_PER_TARGET}s (log: $run/fuzz.log)"
  status=0
  PKRELAY_FUZZ_TARGET="$target" "${pin[@]}" "$BIN" "$run/corpus" -max_total_time="$SECONDS_PER_TARGET" -print_final_stats=1 \
    -artifact_prefix="$run/" -detect_leaks=0 -timeout=30 -rss_limit_mb=4096 "${dictionary[@]}" ${FUZZ_ARGS:-} > "$run/fuzz.log" 2>&1 || status=$?
  executions="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$run/fuzz.log" | tail -1 | grep -o '[0-9]*$' || true)"
  rate="$(grep -o 'exec/s: *[0-9]*' "$run/fuzz.log" | tail -1 | grep -o '[0-9]*$' || true)"
  coverage="$(grep -o 'cov: *[0-9]*' "$run/fuzz.log" | tail -1 | grep -o '[0-9]*$' || true)"
  features="$(grep -o 'ft: *[0-9]*' "$run/fuzz.log" | tail -1 | grep -o '[0-9]*$' || true)"
  result=ok
  if [ "$status" -ne 0 ] || ls "$run"/crash-* "$run"/timeout-* "$run"/oom-* > /dev/null 2>&1; then
    result="FAILED (exit $status): $(ls "$run"/crash-* "$run"/timeout-* "$run"/oom-* 2>/dev/null | tr '\n' ' ' || true)"
    failed="$failed $target"
    grep -a -m1 -A12 'Fatal error\|runtime failure\|ERROR: AddressSanitizer\|ERROR: libFuzzer' "$run/fuzz.log" || tail -40 "$run/fuzz.log"
  fi
  printf '%-8s %14s %10s %10s %8s  %s\n' "$target" "${executions:-?}" "${rate:-?}" "${coverage:-?}" "${features:-?}" "$result" >> "$summary"
done
cat "$summary"
if [ -n "$failed" ]; then
  echo "fuzzing found problems in:$failed (reproduce: PKRELAY_FUZZ_TARGET=<target> $BIN <file>)"
  exit 1
fi
