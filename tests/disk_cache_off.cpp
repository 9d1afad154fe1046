// Linked into the unit and e2e tests. They compile kernels and check where those come from
// (compiled, linked, a VkPipelineCache): an on-disk cache left by an earlier run of the same
// build would change those answers, so it is off unless the environment chose a directory (the
// disk-cache tests do, for their child processes). Runs before main(), so before Kiln reads it.
#include <cstdlib>

namespace {
const bool kDiskCacheOff = setenv("KILN_CACHE_DIR", "", /*overwrite=*/0) == 0;
}  // namespace
