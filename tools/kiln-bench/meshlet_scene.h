#pragma once
// The scene of the mesh shading scenarios (mesh_meshlets_culled, mesh_indexed_reference), built
// on the host, deterministically: a 14 x 8 lattice of spheres, each tessellated as a cube sphere
// (every cube face a 28 x 28 grid of quads, pushed out onto the sphere: 9 408 triangles a sphere,
// 1 053 696 in all), and the same triangles cut into meshlets: each cube face is 4 x 4 patches of
// 7 x 7 quads, so a meshlet is 8 x 8 = 64 vertices and 98 triangles (within the 64 / 124 limits
// the shaders declare; a grid patch of 64 vertices cannot have more triangles). For each meshlet
// the host computes a bounding sphere and a cone holding all of its triangles' normals.
//
// The camera looks diagonally across the lattice from above one corner, so spheres leave the view
// at the sides and far end (frustum culling) and every visible sphere turns about half of its
// meshlets away (cone culling): MeshletScene::kept_meshlets() says how many a task shader keeps.
//
// The image (shaders/meshlet_scene.frag, false colour): red and green name the sphere (flat, from
// its vertices), blue is the diffuse lighting of the interpolated normal; the clear colour is
// black. check_pixel() compares a pixel with the host's ray cast against the true spheres.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::bench {

// A vertex, as the indexed draw's vertex buffer (binding 0: location 0 = position, 1 = normal,
// 2 = colour as R8G8B8A8_UNORM) and the mesh shader's storage buffer (shaders/meshlets.glsl's
// SceneVertex) hold it.
struct SceneVertex {
  float position[3];
  float normal[3];  // unit: the sphere's normal at the vertex
  uint32_t rgba8;   // the sphere's code colour
  uint32_t unused;
};
static_assert(sizeof(SceneVertex) == 32);

// A meshlet as the task and mesh shaders read it (shaders/meshlets.glsl's Meshlet, std430).
struct Meshlet {
  float sphere[4];  // bounding sphere: centre xyz, radius w
  // Normal cone: axis xyz (unit) and w = the cosine of the largest angle between the axis and a
  // triangle's normal (0 or below: no cone, the meshlet is never culled as facing away).
  float cone[4];
  uint32_t vertex_offset;    // first entry of meshlet_vertices()
  uint32_t triangle_offset;  // first entry of meshlet_triangles()
  uint32_t vertex_count;
  uint32_t triangle_count;
};
static_assert(sizeof(Meshlet) == 48);

// The push constants of every stage of both pipelines (shaders/meshlet_scene.glsl's Camera).
struct SceneCamera {
  float view_projection[16];  // column-major, world to Vulkan clip space (y down, depth 0..1)
  float position[4];          // the eye: xyz, w = 1
  float light[4];             // unit vector towards the light: xyz, w = 0
};
static_assert(sizeof(SceneCamera) == 96);

// The scene's sizes, for support checks before it is built.
inline constexpr uint32_t kSceneVertices = 565152;     // 112 spheres x 6 faces x 29 x 29
inline constexpr uint32_t kSceneTriangles = 1053696;   // 112 x 9 408
inline constexpr uint32_t kSceneMeshlets = 10752;      // 112 x 96

// The most a meshlet may hold (the mesh shader's max_vertices and max_primitives) and the task
// shader's workgroup: one invocation per meshlet.
inline constexpr uint32_t kMeshletMaxVertices = 64;
inline constexpr uint32_t kMeshletMaxTriangles = 124;
inline constexpr uint32_t kMeshletsPerTaskWorkgroup = 32;

class MeshletScene {
 public:
  // Builds the scene, the camera for a width x height target and the reference image.
  MeshletScene(uint32_t width, uint32_t height);

  const std::vector<SceneVertex>& vertices() const { return vertices_; }
  // Three per triangle into vertices(), counter-clockwise seen from outside, in meshlet order.
  const std::vector<uint32_t>& indices() const { return indices_; }
  size_t triangle_count() const { return indices_.size() / 3; }
  const std::vector<Meshlet>& meshlets() const { return meshlets_; }
  // Per meshlet, its vertices' indices into vertices().
  const std::vector<uint32_t>& meshlet_vertices() const { return meshlet_vertices_; }
  // Per meshlet triangle, its three corners as indices into the meshlet's vertices, one byte each
  // (bits 0-7, 8-15, 16-23).
  const std::vector<uint32_t>& meshlet_triangles() const { return meshlet_triangles_; }
  const SceneCamera& camera() const { return camera_; }

  // How many meshlets survive the task shader's frustum and cone tests (shaders/meshlet_cull.task)
  // computed in double from the same float inputs: `certain` pass by a margin, `borderline` are
  // too close to a plane or the cone's limit to tell what float arithmetic decides.
  struct KeptMeshlets {
    uint32_t certain = 0;
    uint32_t borderline = 0;
  };
  KeptMeshlets kept_meshlets() const;

  // Pixel `index` (row-major) of the rendered image against the reference: nullopt when it
  // matches. Pixels within half a pixel of a silhouette (where the tessellation and the rasterizer's
  // rounding decide) are not checked; elsewhere red, green and alpha are exact (which sphere, or
  // the clear colour) and blue within kLightingTolerance.
  std::optional<std::string> check_pixel(size_t index, uint32_t got) const;
  // The share of the pixels check_pixel() checks, and of those, how many show a sphere.
  double checked_share() const;
  double sphere_share_of_checked() const;

  // Blue's tolerance: the host lights the true sphere at the ray's hit, the drivers a facet of the
  // tessellation with the interpolated normal.
  static constexpr uint32_t kLightingTolerance = 4;
  static constexpr uint32_t kClearColour = 0xff000000u;

 private:
  void build_geometry();
  void build_camera(uint32_t width, uint32_t height);
  void build_reference(uint32_t width, uint32_t height);

  std::vector<SceneVertex> vertices_;
  std::vector<uint32_t> indices_;
  std::vector<Meshlet> meshlets_;
  std::vector<uint32_t> meshlet_vertices_;
  std::vector<uint32_t> meshlet_triangles_;
  SceneCamera camera_{};
  // The camera in double, for the reference: eye, and the world directions of a view ray's
  // x, y and forward parts (x and y already scaled by the field of view).
  std::array<double, 3> eye_{}, right_{}, up_{}, forward_{};
  uint32_t width_ = 0;
  uint32_t height_ = 0;
  // Per pixel: the expected colour, or kUnchecked.
  static constexpr uint32_t kUnchecked = 0x00ffffffu;  // alpha 0: no expected colour has it
  std::vector<uint32_t> reference_;
};

}  // namespace kiln::bench
