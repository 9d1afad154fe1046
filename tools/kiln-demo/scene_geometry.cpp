#include "tools/kiln-demo/scene_geometry.h"

#include <algorithm>
#include <cmath>

namespace kiln::demo {

std::vector<float> terrain_patch_corners() {
  std::vector<float> corners;
  const float half = float(kTerrainPatchesPerSide) / 2;
  for (uint32_t row = 0; row < kTerrainPatchesPerSide; ++row) {
    for (uint32_t column = 0; column < kTerrainPatchesPerSide; ++column) {
      const float x0 = float(column) - half, x1 = x0 + 1, z0 = float(row) - half, z1 = z0 + 1;
      corners.insert(corners.end(), {x0, z0, x1, z0, x0, z1, x1, z1});
    }
  }
  return corners;
}

std::vector<float> crate_vertices() {
  std::vector<float> vertices;
  // Each face: its normal axis and sign; two triangles over its square.
  for (int axis = 0; axis < 3; ++axis) {
    for (float sign : {-1.0f, 1.0f}) {
      const int u_axis = (axis + 1) % 3, v_axis = (axis + 2) % 3;
      const float corners[6][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 0}, {1, 1}, {0, 1}};
      for (const auto& corner : corners) {
        float position[3], normal[3] = {0, 0, 0};
        position[axis] = 0.5f * sign;
        position[u_axis] = corner[0] - 0.5f;
        position[v_axis] = corner[1] - 0.5f;
        normal[axis] = sign;
        vertices.insert(vertices.end(), {position[0], position[1], position[2], normal[0], normal[1], normal[2],
                                         corner[0], corner[1]});
      }
    }
  }
  return vertices;
}

namespace {

// A repeatable pseudo-random value in [0, 1) for lattice point (x, y) of octave `seed`.
float lattice_value(uint32_t x, uint32_t y, uint32_t seed) {
  uint32_t h = x * 374761393u + y * 668265263u + seed * 2246822519u;
  h = (h ^ (h >> 13)) * 1274126177u;
  return float((h ^ (h >> 16)) & 0xffffu) / 65536.0f;
}

// Smoothly interpolated value noise with a period of `cells` lattice cells across the texture.
float value_noise(float u, float v, uint32_t cells, uint32_t seed) {
  const float x = u * float(cells), y = v * float(cells);
  const uint32_t x0 = uint32_t(x), y0 = uint32_t(y);
  const float fx = x - float(x0), fy = y - float(y0);
  const auto smooth = [](float t) { return t * t * (3 - 2 * t); };
  const auto at = [&](uint32_t i, uint32_t j) { return lattice_value(i % cells, j % cells, seed); };
  const float top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * smooth(fx);
  const float bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * smooth(fx);
  return top + (bottom - top) * smooth(fy);
}

uint32_t unorm8(float value) { return uint32_t(std::lround(std::clamp(value, 0.0f, 1.0f) * 255)); }

}  // namespace

std::vector<uint32_t> ground_texels() {
  std::vector<uint32_t> texels;
  texels.reserve(size_t(kGroundTextureSize) * kGroundTextureSize);
  for (uint32_t y = 0; y < kGroundTextureSize; ++y) {
    for (uint32_t x = 0; x < kGroundTextureSize; ++x) {
      const float u = (x + 0.5f) / kGroundTextureSize, v = (y + 0.5f) / kGroundTextureSize;
      const float broad = value_noise(u, v, 8, 1), fine = value_noise(u, v, 128, 2);
      const float flowers = value_noise(u, v, 256, 3) > 0.88f ? 1.0f : 0.0f;
      const float light = 0.55f + 0.35f * broad + 0.25f * (fine - 0.5f);
      const float r = (0.28f + 0.12f * broad) * light + 0.6f * flowers;
      const float g = 0.55f * light + 0.4f * flowers;
      const float b = 0.16f * light + 0.1f * flowers;
      texels.push_back(0xff000000u | unorm8(b) << 16 | unorm8(g) << 8 | unorm8(r));
    }
  }
  return texels;
}

}  // namespace kiln::demo
