#version 450
#extension GL_GOOGLE_include_directive : require
// The torus without mesh shaders (devices without VK_EXT_mesh_shader, and --torus vertex): one
// non-indexed triangle list of every band's triangles, vertex i computed from gl_VertexIndex with
// the same torus_vertex() the mesh shader uses.
#include "scene.glsl"
#include "torus.glsl"
layout(location = 0) out vec3 world;
layout(location = 1) out vec3 normal;

void main() {
  const uint triangle = uint(gl_VertexIndex) / 3, corner = uint(gl_VertexIndex) % 3;
  const uint band = triangle / (2 * kSides);
  const uvec2 c = band_triangle_corner(triangle % (2 * kSides), corner);
  const TorusVertex v = torus_vertex(band + c.x, c.y, scene.eye.w);
  world = v.position;
  normal = v.normal;
  gl_Position = scene.view_projection * vec4(v.position, 1.0);
}
