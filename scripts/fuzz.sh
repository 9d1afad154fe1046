#!/usr/bin/env bash
# Runs the SPIR-V libFuzzer target (tests/fuzz/spirv_fuzzer.cpp) built with ASan+UBSan by
# scripts/sanitize.sh (docs/reliability.md):
#
#   scripts/fuzz.sh [seconds] [libFuzzer args...]     default 120 seconds
#
# The corpus grows in build-asan/fuzz-corpus (seeded from the tests' compute shaders); a crash,
# leak or timeout writes its input to build-asan/fuzz-artifacts/ and fails the script. Reproduce
# one with `build-asan/tests/fuzz/kiln_spirv_fuzzer <artifact>`.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-120}"
shift || true
build="${KILN_SANITIZE_BUILD_DIR:-$repo/build-asan}"
"$repo/scripts/sanitize.sh" asan-build
corpus="$build/fuzz-corpus"
artifacts="$build/fuzz-artifacts"
mkdir -p "$corpus" "$artifacts"
supp="$repo/tests/sanitizers"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$supp/lsan.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp}"
export KILN_LOG="${KILN_LOG:-error}"
# -timeout: one input (module, pipeline, dispatch) over a minute is a hang;
# -rss_limit_mb: the JIT and the sanitizers need room, a leak still shows up well before this;
# -max_len: the seeds are at most a few KiB, huge modules have their own tests.
log="$build/fuzz.log"
status=0
"$build/tests/fuzz/kiln_spirv_fuzzer" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=6144 -max_len=65536 \
  -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" "$corpus" "$build/tests/fuzz/seeds" >"$log" 2>&1 || status=$?
# Kiln's one error line per rejected module is expected; the rest (libFuzzer's progress, a report).
grep -v '^kiln error:' "$log" | tail -n 150
echo "kiln: fuzz log in $log; exit status $status"
exit "$status"
