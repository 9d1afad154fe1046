// The meshlet buffers of the task and mesh shaders (set 0; meshlet_scene.h has the host's side)
// and the task payload: the meshlets a task workgroup keeps, in order.
struct Meshlet {
  vec4 sphere;  // bounding sphere: centre xyz, radius w
  vec4 cone;    // normal cone: axis xyz, w = cos of its half-angle (<= 0: no cone)
  uint vertex_offset;
  uint triangle_offset;
  uint vertex_count;
  uint triangle_count;
};
struct SceneVertex {
  float px, py, pz;
  float nx, ny, nz;
  uint rgba8;
  uint unused;
};
layout(std430, set = 0, binding = 0) readonly buffer Meshlets { Meshlet meshlets[]; };
layout(std430, set = 0, binding = 1) readonly buffer MeshletVertices { uint meshlet_vertices[]; };
// Three 8-bit corner indices per triangle, into its meshlet's vertices.
layout(std430, set = 0, binding = 2) readonly buffer MeshletTriangles { uint meshlet_triangles[]; };
layout(std430, set = 0, binding = 3) readonly buffer Vertices { SceneVertex vertices[]; };
// How many meshlets the task shader kept, over the whole draw (reset before it).
layout(std430, set = 0, binding = 4) buffer Statistics { uint kept_meshlets; };

const uint kMeshletsPerTask = 32;  // the task workgroup: one invocation per meshlet
struct Payload {
  uint meshlets[kMeshletsPerTask];
};
taskPayloadSharedEXT Payload payload;
