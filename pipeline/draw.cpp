#include "pipeline/draw.h"

#include "common/log.h"

namespace kiln::exec {

// Placeholder until the rasterizer lands (issue #6): no graphics pipeline can be created yet,
// so no draw reaches here.
void run_draw(ThreadPool&, const DrawCmd&) { KILN_LOG_ONCE(LogLevel::Error, "draws are not supported yet; skipped"); }

}  // namespace kiln::exec
