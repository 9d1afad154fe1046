// Triangles 4 g .. 4 g + 3 of an indexed triangle list (mesh_fetch.glsl's buffers) as mesh
// workgroup number g: invocation j writes corner j % 3 of triangle j / 3 (no vertex shared).
layout(local_size_x = 12) in;
layout(triangles, max_vertices = 12, max_primitives = 4) out;
#include "mesh_fetch.glsl"
out gl_MeshPerVertexEXT { vec4 gl_Position; } gl_MeshVerticesEXT[];
layout(location = 0) out vec4 v_color[];
void emit_triangles(uint g) {
  SetMeshOutputsEXT(12, 4);
  const uint j = gl_LocalInvocationIndex, index = indices[12 * g + j];
  gl_MeshVerticesEXT[j].gl_Position = fetched_position(index);
  v_color[j] = fetched_color(index);
  if (j < 4) gl_PrimitiveTriangleIndicesEXT[j] = uvec3(3 * j, 3 * j + 1, 3 * j + 2);
}
