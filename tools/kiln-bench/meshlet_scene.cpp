#include "tools/kiln-bench/meshlet_scene.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {

namespace {

constexpr double kPi = 3.14159265358979323846;

constexpr uint32_t kSpheresAcross = 14;  // along x
constexpr uint32_t kSpheresDeep = 8;     // along z
constexpr double kSpacing = 3;           // between sphere centres
constexpr double kRadius = 1;
constexpr uint32_t kFaceQuads = 28;   // a cube face's grid, per side
constexpr uint32_t kPatchQuads = 7;   // a meshlet's grid, per side
constexpr uint32_t kPatchSide = kPatchQuads + 1;  // vertices
constexpr uint32_t kFaceSide = kFaceQuads + 1;
static_assert(kFaceQuads % kPatchQuads == 0);
static_assert(kPatchSide * kPatchSide <= kMeshletMaxVertices);
static_assert(2 * kPatchQuads * kPatchQuads <= kMeshletMaxTriangles);

// The camera: above the lattice's near left corner, looking across it and down.
constexpr std::array<double, 3> kEye = {-22, 7, 15};
constexpr std::array<double, 3> kLookAt = {0, -1, -2};
constexpr double kFieldOfViewY = 45 * kPi / 180;
constexpr double kNear = 0.5;
constexpr double kFar = 100;
constexpr std::array<double, 3> kLight = {-0.3, 0.8, 0.52};  // normalized in build_camera

using Vec3 = std::array<double, 3>;

Vec3 operator+(const Vec3& a, const Vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec3 operator-(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3 operator*(double s, const Vec3& a) { return {s * a[0], s * a[1], s * a[2]}; }
double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Vec3 normalize(const Vec3& a) { return (1 / std::sqrt(dot(a, a))) * a; }
Vec3 position_of(const SceneVertex& v) { return {v.position[0], v.position[1], v.position[2]}; }

// A cube face: outward normal and the grid's axes, u x v = normal, so quads (i, j), (i + 1, j),
// (i + 1, j + 1), (i, j + 1) are counter-clockwise seen from outside.
struct CubeFace {
  Vec3 normal, u, v;
};
constexpr CubeFace kCubeFaces[6] = {
    {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},  {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}}, {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}},
    {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}, {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},  {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}},
};

// Grid line i of a face (0 .. kFaceQuads) on the cube, -1 .. 1, spaced by equal angles so the
// quads on the sphere are about the same size. Exactly +-1 at the ends and odd-symmetric, so the
// faces meeting at an edge compute the same points there and the sphere is watertight.
double grid_coordinate(uint32_t i) {
  if (2 * i > kFaceQuads) return -grid_coordinate(kFaceQuads - i);
  if (i == 0) return -1;
  return std::tan(kPi / 4 * (2.0 * i / kFaceQuads - 1));
}

// Sphere s (row-major over the lattice): its centre and its code colour (red = column, green = row).
Vec3 sphere_centre(uint32_t s) {
  const double column = s % kSpheresAcross, row = s / kSpheresAcross;
  return {(column - (kSpheresAcross - 1) / 2.0) * kSpacing, 0, (row - (kSpheresDeep - 1) / 2.0) * kSpacing};
}
uint32_t sphere_colour(uint32_t s) {
  return 0xff000000u | (32 + 16 * (s / kSpheresAcross)) << 8 | (32 + 16 * (s % kSpheresAcross));
}
constexpr uint32_t kSpheres = kSpheresAcross * kSpheresDeep;
constexpr uint8_t kNoSphere = 0xff;
static_assert(kSpheres < kNoSphere);
static_assert(kSceneVertices == kSpheres * 6 * kFaceSide * kFaceSide);
static_assert(kSceneTriangles == kSpheres * 6 * 2 * kFaceQuads * kFaceQuads);
static_assert(kSceneMeshlets == kSpheres * 6 * (kFaceQuads / kPatchQuads) * (kFaceQuads / kPatchQuads));

uint32_t unorm8(double value) { return uint32_t(std::lround(std::clamp(value, 0.0, 1.0) * 255)); }

// The smallest float not below `value`.
float float_at_least(double value) {
  const float f = float(value);
  return double(f) >= value ? f : std::nextafter(f, std::numeric_limits<float>::infinity());
}

// Where the ray origin + t direction (t > 0) first meets the sphere, or infinity.
double hit_sphere(const Vec3& origin, const Vec3& direction, const Vec3& centre) {
  const Vec3 offset = origin - centre;
  const double a = dot(direction, direction), b = dot(offset, direction), c = dot(offset, offset) - kRadius * kRadius;
  const double discriminant = b * b - a * c;
  if (discriminant < 0) return std::numeric_limits<double>::infinity();
  const double t = (-b - std::sqrt(discriminant)) / a;
  return t > 0 ? t : std::numeric_limits<double>::infinity();
}

// The meshlet's bounding sphere: around its vertices' mean (not the smallest sphere, which would
// be a few percent smaller here), the radius also covering the centre's rounding to float.
void set_bounding_sphere(Meshlet& meshlet, const std::vector<Vec3>& positions) {
  Vec3 mean{};
  for (const Vec3& p : positions) mean = mean + p;
  mean = (1.0 / positions.size()) * mean;
  double radius = 0;
  for (const Vec3& p : positions) radius = std::max(radius, std::sqrt(dot(p - mean, p - mean)));
  for (int i = 0; i < 3; ++i) meshlet.sphere[i] = float(mean[i]);
  meshlet.sphere[3] = float_at_least(radius * (1 + 1e-6) + 1e-6);
}

// The meshlet's normal cone: around the triangles' mean normal, as wide as the normal farthest
// from it plus a margin (a thousandth of a radian) for the shader's float arithmetic; no cone
// (w = 0) when that reaches 90 degrees.
void set_normal_cone(Meshlet& meshlet, const std::vector<Vec3>& normals) {
  Vec3 axis{};
  for (const Vec3& n : normals) axis = axis + n;
  axis = normalize(axis);
  double cos_widest = 1;
  for (const Vec3& n : normals) cos_widest = std::min(cos_widest, dot(axis, n));
  const double half_angle = std::acos(std::clamp(cos_widest, -1.0, 1.0)) + 1e-3;
  for (int i = 0; i < 3; ++i) meshlet.cone[i] = float(axis[i]);
  meshlet.cone[3] = half_angle < kPi / 2 ? float(std::cos(half_angle)) : 0;
}

}  // namespace

MeshletScene::MeshletScene(uint32_t width, uint32_t height) {
  build_geometry();
  build_camera(width, height);
  build_reference(width, height);
}

void MeshletScene::build_geometry() {
  constexpr uint32_t kPatchesPerSide = kFaceQuads / kPatchQuads;
  vertices_.reserve(kSceneVertices);
  indices_.reserve(size_t(kSceneTriangles) * 3);
  meshlets_.reserve(kSceneMeshlets);
  meshlet_vertices_.reserve(size_t(kSceneMeshlets) * kPatchSide * kPatchSide);
  meshlet_triangles_.reserve(kSceneTriangles);
  for (uint32_t s = 0; s < kSpheres; ++s) {
    const Vec3 centre = sphere_centre(s);
    for (const CubeFace& face : kCubeFaces) {
      const uint32_t face_base = uint32_t(vertices_.size());
      for (uint32_t j = 0; j < kFaceSide; ++j) {
        for (uint32_t i = 0; i < kFaceSide; ++i) {
          const Vec3 direction = normalize(face.normal + grid_coordinate(i) * face.u + grid_coordinate(j) * face.v);
          const Vec3 position = centre + kRadius * direction;
          vertices_.push_back({{float(position[0]), float(position[1]), float(position[2])},
                               {float(direction[0]), float(direction[1]), float(direction[2])},
                               sphere_colour(s),
                               0});
        }
      }
      for (uint32_t pj = 0; pj < kPatchesPerSide; ++pj) {
        for (uint32_t pi = 0; pi < kPatchesPerSide; ++pi) {
          Meshlet meshlet{};
          meshlet.vertex_offset = uint32_t(meshlet_vertices_.size());
          meshlet.triangle_offset = uint32_t(meshlet_triangles_.size());
          meshlet.vertex_count = kPatchSide * kPatchSide;
          meshlet.triangle_count = 2 * kPatchQuads * kPatchQuads;
          for (uint32_t lj = 0; lj < kPatchSide; ++lj) {
            for (uint32_t li = 0; li < kPatchSide; ++li) {
              meshlet_vertices_.push_back(face_base + (pj * kPatchQuads + lj) * kFaceSide + pi * kPatchQuads + li);
            }
          }
          const uint32_t* global = &meshlet_vertices_[meshlet.vertex_offset];
          std::vector<Vec3> positions, normals;
          for (uint32_t v = 0; v < meshlet.vertex_count; ++v) positions.push_back(position_of(vertices_[global[v]]));
          // Triangles (a, b, c), (a, c, d) per quad, counter-clockwise from outside.
          for (uint32_t qj = 0; qj < kPatchQuads; ++qj) {
            for (uint32_t qi = 0; qi < kPatchQuads; ++qi) {
              const uint32_t a = qj * kPatchSide + qi, b = a + 1, c = a + kPatchSide + 1, d = a + kPatchSide;
              for (const std::array<uint32_t, 3>& corners : {std::array<uint32_t, 3>{a, b, c}, {a, c, d}}) {
                meshlet_triangles_.push_back(corners[0] | corners[1] << 8 | corners[2] << 16);
                for (uint32_t corner : corners) indices_.push_back(global[corner]);
                const Vec3 &p0 = positions[corners[0]], &p1 = positions[corners[1]], &p2 = positions[corners[2]];
                normals.push_back(normalize(cross(p1 - p0, p2 - p0)));
              }
            }
          }
          set_bounding_sphere(meshlet, positions);
          set_normal_cone(meshlet, normals);
          meshlets_.push_back(meshlet);
        }
      }
    }
  }
}

void MeshletScene::build_camera(uint32_t width, uint32_t height) {
  const double aspect = double(width) / height;
  const double focal = 1 / std::tan(kFieldOfViewY / 2);
  const Vec3 forward = normalize(kLookAt - kEye);
  const Vec3 right = normalize(cross(forward, {0, 1, 0}));
  const Vec3 up = cross(right, forward);
  // view: rows right, up, -forward (the eye looks down -z); projection: Vulkan's clip space, y down,
  // depth 0 at kNear and 1 at kFar.
  double view[4][4] = {{right[0], right[1], right[2], -dot(right, kEye)},
                       {up[0], up[1], up[2], -dot(up, kEye)},
                       {-forward[0], -forward[1], -forward[2], dot(forward, kEye)},
                       {0, 0, 0, 1}};
  const double projection[4][4] = {{focal / aspect, 0, 0, 0},
                                   {0, -focal, 0, 0},
                                   {0, 0, kFar / (kNear - kFar), kNear * kFar / (kNear - kFar)},
                                   {0, 0, -1, 0}};
  for (int row = 0; row < 4; ++row) {
    for (int column = 0; column < 4; ++column) {
      double sum = 0;
      for (int k = 0; k < 4; ++k) sum += projection[row][k] * view[k][column];
      camera_.view_projection[column * 4 + row] = float(sum);
    }
  }
  for (int i = 0; i < 3; ++i) camera_.position[i] = float(kEye[i]);
  camera_.position[3] = 1;
  const Vec3 light = normalize(kLight);
  for (int i = 0; i < 3; ++i) camera_.light[i] = float(light[i]);
  // A pixel's view ray: normalized device x and y (Vulkan: y down) times these, plus forward.
  eye_ = kEye;
  right_ = (aspect / focal) * right;
  up_ = (-1 / focal) * up;
  forward_ = forward;
}

MeshletScene::KeptMeshlets MeshletScene::kept_meshlets() const {
  // The same tests as shaders/meshlet_cull.task, from the same float data; a test whose margin is
  // below kUncertain (scene units, where the meshlets' radii are ~0.15) may go either way.
  constexpr double kUncertain = 1e-3;
  const auto row = [&](int r) {
    return std::array<double, 4>{camera_.view_projection[r], camera_.view_projection[4 + r],
                                 camera_.view_projection[8 + r], camera_.view_projection[12 + r]};
  };
  const std::array<double, 4> r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3);
  std::array<std::array<double, 4>, 6> planes{};
  for (int i = 0; i < 4; ++i) {
    planes[0][i] = r3[i] + r0[i];
    planes[1][i] = r3[i] - r0[i];
    planes[2][i] = r3[i] + r1[i];
    planes[3][i] = r3[i] - r1[i];
    planes[4][i] = r2[i];
    planes[5][i] = r3[i] - r2[i];
  }
  const Vec3 eye = {camera_.position[0], camera_.position[1], camera_.position[2]};
  KeptMeshlets kept;
  for (const Meshlet& m : meshlets_) {
    const Vec3 centre = {m.sphere[0], m.sphere[1], m.sphere[2]};
    const double radius = m.sphere[3];
    // Margins: positive = kept by that test.
    double margin = std::numeric_limits<double>::infinity();
    for (const std::array<double, 4>& p : planes) {
      const Vec3 normal = {p[0], p[1], p[2]};
      margin = std::min(margin, (dot(normal, centre) + p[3]) / std::sqrt(dot(normal, normal)) + radius);
    }
    if (m.cone[3] > 0) {
      const Vec3 axis = {m.cone[0], m.cone[1], m.cone[2]}, to_centre = centre - eye;
      const double along = dot(to_centre, axis), cos_half = m.cone[3];
      const double across = std::sqrt(std::max(dot(to_centre, to_centre) - along * along, 0.0));
      margin = std::min(margin, radius - (along * cos_half - across * std::sqrt(1 - cos_half * cos_half)));
    }
    if (margin > kUncertain) {
      ++kept.certain;
    } else if (margin >= -kUncertain) {
      ++kept.borderline;
    }
  }
  return kept;
}

void MeshletScene::build_reference(uint32_t width, uint32_t height) {
  width_ = width;
  height_ = height;
  // Rays through a grid of half-pixel steps (pixel corners, edge midpoints and centres): the
  // nearest sphere each meets, found per sphere within its projected bounding box.
  const uint32_t grid_width = 2 * width + 1, grid_height = 2 * height + 1;
  std::vector<uint8_t> nearest(size_t(grid_width) * grid_height, kNoSphere);
  std::vector<float> nearest_t(nearest.size(), std::numeric_limits<float>::infinity());
  const auto grid_ray = [&](uint32_t gx, uint32_t gy) {
    const double ndc_x = double(gx) / width - 1, ndc_y = double(gy) / height - 1;
    return ndc_x * right_ + ndc_y * up_ + forward_;
  };
  const float* m = camera_.view_projection;
  for (uint32_t s = 0; s < kSpheres; ++s) {
    const Vec3 centre = sphere_centre(s);
    // The bounding box of the projected corners of a cube around the sphere; the whole target
    // when a corner is behind the eye.
    double min_x = 0, max_x = width, min_y = 0, max_y = height;
    bool behind = false;
    std::array<double, 4> box = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    for (int corner = 0; corner < 8; ++corner) {
      const double extent = kRadius * 1.01;
      const Vec3 p = centre + Vec3{corner & 1 ? extent : -extent, corner & 2 ? extent : -extent,
                                   corner & 4 ? extent : -extent};
      const double clip[4] = {m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12],
                              m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13], 0,
                              m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15]};
      if (clip[3] <= kNear / 2) {
        behind = true;
        break;
      }
      const double x = (clip[0] / clip[3] + 1) * width / 2, y = (clip[1] / clip[3] + 1) * height / 2;
      box = {std::min(box[0], x), std::min(box[1], y), std::max(box[2], x), std::max(box[3], y)};
    }
    if (!behind) {
      min_x = std::max(min_x, box[0]);
      min_y = std::max(min_y, box[1]);
      max_x = std::min(max_x, box[2]);
      max_y = std::min(max_y, box[3]);
      if (min_x > max_x || min_y > max_y) continue;  // off screen
    }
    const uint32_t gx0 = uint32_t(std::floor(2 * min_x)), gx1 = std::min(uint32_t(std::ceil(2 * max_x)), 2 * width);
    const uint32_t gy0 = uint32_t(std::floor(2 * min_y)), gy1 = std::min(uint32_t(std::ceil(2 * max_y)), 2 * height);
    for (uint32_t gy = gy0; gy <= gy1; ++gy) {
      for (uint32_t gx = gx0; gx <= gx1; ++gx) {
        const double t = hit_sphere(eye_, grid_ray(gx, gy), centre);
        const size_t g = size_t(gy) * grid_width + gx;
        if (t < nearest_t[g]) {
          nearest_t[g] = float(t);
          nearest[g] = uint8_t(s);
        }
      }
    }
  }

  // A pixel is checked when its centre, corners and edge midpoints see the same sphere (or none).
  const Vec3 light = {camera_.light[0], camera_.light[1], camera_.light[2]};
  reference_.assign(size_t(width) * height, kUnchecked);
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      const uint8_t sphere = nearest[size_t(2 * y + 1) * grid_width + 2 * x + 1];
      bool uniform = true;
      for (uint32_t gy = 2 * y; gy <= 2 * y + 2; ++gy) {
        for (uint32_t gx = 2 * x; gx <= 2 * x + 2; ++gx) {
          uniform = uniform && nearest[size_t(gy) * grid_width + gx] == sphere;
        }
      }
      if (!uniform) continue;
      uint32_t& expected = reference_[size_t(y) * width + x];
      if (sphere == kNoSphere) {
        expected = kClearColour;
        continue;
      }
      const Vec3 direction = grid_ray(2 * x + 1, 2 * y + 1), centre = sphere_centre(sphere);
      const Vec3 normal = (1 / kRadius) * (eye_ + hit_sphere(eye_, direction, centre) * direction - centre);
      expected = (sphere_colour(sphere) & 0xff00ffffu) | unorm8(dot(normal, light)) << 16;
    }
  }
}

std::optional<std::string> MeshletScene::check_pixel(size_t index, uint32_t got) const {
  const uint32_t expected = reference_[index];
  if (expected == kUnchecked) return std::nullopt;
  if ((got ^ expected) & 0xff00ffffu) {
    return describe_mismatch(index, got, expected) + " (red, green: which sphere, or the clear colour)";
  }
  return rgba8_mismatch(index, got, expected, kLightingTolerance);
}

double MeshletScene::checked_share() const {
  return double(reference_.size() - std::count(reference_.begin(), reference_.end(), kUnchecked)) / reference_.size();
}

double MeshletScene::sphere_share_of_checked() const {
  const size_t checked = reference_.size() - std::count(reference_.begin(), reference_.end(), kUnchecked);
  return double(checked - std::count(reference_.begin(), reference_.end(), kClearColour)) / checked;
}

}  // namespace kiln::bench
