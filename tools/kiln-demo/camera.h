#pragma once
// Where the demo's camera is at a given time, and the per-frame constants every shader of the
// scene reads (shaders/scene.glsl: the push-constant block `Scene`).
#include <cstdint>

namespace kiln::demo {

// The push constants of shaders/scene.glsl (std430: 128 bytes, the guaranteed minimum limit).
struct SceneConstants {
  float view_projection[16];  // column-major, world to Vulkan clip space
  float eye[4];               // xyz: camera position; w: time in seconds
  float light[4];             // xyz: unit vector towards the sun; w: ambient light
  float fog[4];               // rgb: sky colour; w: fog density per world unit
  float projection[4];        // x, y: the projection's scale of view-space x and y
};
static_assert(sizeof(SceneConstants) == 128);

// The sky: the clear colour and the colour fog fades to (RGBA8, red in the low byte).
inline constexpr uint32_t kSkyRgba8 = 0xffe6bf9eu;  // (158, 191, 230)

// The constants of the frame at `time` seconds for a `width` x `height` picture: the camera
// circles the scene slowly, looking at the torus from above the crates.
SceneConstants scene_constants(float time, uint32_t width, uint32_t height);

}  // namespace kiln::demo
