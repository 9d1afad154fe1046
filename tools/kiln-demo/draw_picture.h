#pragma once
// Draws the picture described in picture.h with Vulkan transfer commands only (clear colour image,
// fill/update buffer, copy buffer→image, copy image→image) and reads the result back.
#include <cstdint>
#include <vector>

#include "tools/common/vulkan_context.h"

namespace kiln::demo {

// Records and runs one command buffer that draws the picture on `context`'s device; returns the
// canvas as tightly packed RGBA8 rows (kCanvasSize × kCanvasSize).
std::vector<uint8_t> draw_picture(tools::VulkanContext& context);

}  // namespace kiln::demo
