#!/usr/bin/env bash
# Sanitizer builds of Kiln (docs/reliability.md). Installs clang-19 and its runtimes if missing,
# builds with ccache like scripts/build.sh, runs the tests:
#
#   scripts/sanitize.sh asan [ctest args...]  ASan+UBSan build in build-asan/ (with the libFuzzer
#                                             target, tests/fuzz); runs every unit and e2e test
#   scripts/sanitize.sh tsan [ctest args...]  TSan build in build-tsan/; runs the engine tests
#                                             (queues, worker pool, fences/semaphores/events,
#                                             swapchains, overlapping dispatches)
#   scripts/sanitize.sh asan-build | tsan-build   build only
#
# Extra arguments go to ctest (e.g. `-R e2e.SyncTest`), replacing the default test selection
# when they contain -R/-E. KILN_SANITIZE_BUILD_DIR overrides the build directory.
# Suppressions (third-party code only, each with its reason) are in tests/sanitizers/.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
mode="${1:-}"
shift || true
build_only=0
case "$mode" in
  asan-build) mode=asan; build_only=1 ;;
  tsan-build) mode=tsan; build_only=1 ;;
  asan|tsan) ;;
  *) echo "usage: $0 asan|tsan|asan-build|tsan-build [ctest args...]" >&2; exit 2 ;;
esac

"$repo/scripts/install-deps.sh" clang-19 libclang-rt-19-dev libfuzzer-19-dev

supp="$repo/tests/sanitizers"
export CC=clang-19 CXX=clang++-19
if [ "$mode" = asan ]; then
  build="${KILN_SANITIZE_BUILD_DIR:-$repo/build-asan}"
  cmake_args="-DKILN_SANITIZE=address,undefined -DKILN_BUILD_FUZZERS=ON -DKILN_BUILD_TOOLS=ON"
  targets=(kiln_unit_tests kiln_e2e_tests vulkan_kiln kiln_spirv_fuzzer)
  # Selection: every unit and e2e test, and the fuzzer's crash regressions (fuzz.*). Not the
  # wsi.* tests: they load the instrumented driver
  # into uninstrumented programs (vulkaninfo, vkcube), which ASan cannot do; nor the repeat runs
  # (e2e_compute_w*, e2e_mesh_w*, e2e_strict_mode_no_false_reports), which add no new code.
  default_selection=(-R '^(unit|e2e|fuzz)\.')
else
  build="${KILN_SANITIZE_BUILD_DIR:-$repo/build-tsan}"
  cmake_args="-DKILN_SANITIZE=thread -DKILN_BUILD_TOOLS=ON"
  targets=(kiln_unit_tests kiln_e2e_tests vulkan_kiln)
  engine='QueueEngine|ThreadPool|Sync|SwapchainDamageTest|SyncTest|HeadlessWsiTest|X11WsiTest|WaylandWsiTest'
  engine+='|PendingCommandBufferTest|ComputeUnorderedTest|DeviceTest|ComputeTest|BlitTest|CommandBufferTest|QueryPoolTest'
  default_selection=(-R "^(unit|e2e)\.($engine)\.")
fi
KILN_BUILD_DIR="$build" KILN_CMAKE_ARGS="$cmake_args" "$repo/scripts/build.sh" -j"${KILN_JOBS:-$(nproc)}" ${KILN_NINJA_ARGS:-} "${targets[@]}"
[ "$build_only" = 1 ] && exit 0

# Runtime options: fail on the first report, symbolize, suppress only third-party code.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$supp/lsan.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:suppressions=$supp/tsan.supp}"
selection=("${default_selection[@]}")
for a in "$@"; do
  case "$a" in -R|-E|--tests-regex|--exclude-regex) selection=() ;; esac
done
ctest --test-dir "$build" --output-on-failure -j"${KILN_JOBS:-$(nproc)}" --timeout 600 "${selection[@]}" "$@"
