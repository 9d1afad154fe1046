#pragma once
// KILN_WSI_DUMP_DIR=<dir>: every frame shown by any swapchain is also written to
// <dir>/kiln-frame-<N>.ppm (N counts the frames shown into that directory, from 0). The file appears
// atomically (written under a temporary name, then renamed), so a reader polling for it never
// sees a partial frame. Headless runs use it to look at what was presented; the e2e tests read it
// to check that presentation really delivered the image's pixels.
#include "wsi/surface.h"

namespace kiln::wsi {

// Writes `frame` when KILN_WSI_DUMP_DIR is set (read at each call); a failed write logs once.
void dump_frame_if_enabled(const Frame& frame);

}  // namespace kiln::wsi
