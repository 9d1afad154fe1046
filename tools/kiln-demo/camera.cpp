#include "tools/kiln-demo/camera.h"

#include <array>
#include <cmath>

namespace kiln::demo {
namespace {

using Vec3 = std::array<float, 3>;

Vec3 minus(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
float dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Vec3 normalised(const Vec3& a) {
  const float length = std::sqrt(dot(a, a));
  return {a[0] / length, a[1] / length, a[2] / length};
}

constexpr float kFieldOfViewY = 0.8f;  // radians
constexpr float kNear = 0.1f;
constexpr float kFar = 80.0f;

}  // namespace

SceneConstants scene_constants(float time, uint32_t width, uint32_t height) {
  const float orbit = 0.7f + 0.12f * time;
  const Vec3 eye{10.5f * std::cos(orbit), 5.2f, 10.5f * std::sin(orbit)};
  const Vec3 target{0.0f, 1.6f, 0.0f};
  // Right-handed view space looking down -z, y up.
  const Vec3 forward = normalised(minus(target, eye));
  const Vec3 right = normalised(cross(forward, {0.0f, 1.0f, 0.0f}));
  const Vec3 up = cross(right, forward);
  const float view[4][3] = {  // rows: view-space x, y, z of world (x, y, z, 1)
      {right[0], right[1], right[2]},
      {up[0], up[1], up[2]},
      {-forward[0], -forward[1], -forward[2]}};
  const float translation[3] = {-dot(right, eye), -dot(up, eye), dot(forward, eye)};

  // Vulkan clip space: y points down, depth 0 at the near plane and 1 at the far plane.
  const float f = 1.0f / std::tan(kFieldOfViewY / 2);
  const float sx = f * float(height) / float(width), sy = -f;
  const float sz = kFar / (kNear - kFar), tz = kNear * kFar / (kNear - kFar);
  // clip = (sx * vx, sy * vy, sz * vz + tz, -vz), with v = view * world.
  SceneConstants constants{};
  float* m = constants.view_projection;  // m[column * 4 + row]
  for (int column = 0; column < 4; ++column) {
    const auto v = [&](int row) { return column < 3 ? view[row][column] : translation[row]; };
    m[column * 4 + 0] = sx * v(0);
    m[column * 4 + 1] = sy * v(1);
    m[column * 4 + 2] = sz * v(2) + (column == 3 ? tz : 0.0f);
    m[column * 4 + 3] = -v(2);
  }
  constants.eye[0] = eye[0];
  constants.eye[1] = eye[1];
  constants.eye[2] = eye[2];
  constants.eye[3] = time;
  const Vec3 sun = normalised({-0.45f, 0.75f, 0.4f});
  constants.light[0] = sun[0];
  constants.light[1] = sun[1];
  constants.light[2] = sun[2];
  constants.light[3] = 0.32f;
  for (int c = 0; c < 3; ++c) constants.fog[c] = float((kSkyRgba8 >> (8 * c)) & 0xff) / 255.0f;
  constants.fog[3] = 0.03f;
  constants.projection[0] = sx;
  constants.projection[1] = sy;
  return constants;
}

}  // namespace kiln::demo
