#version 450
// draw_colored.vert plus stores from the vertex stage: each vertex writes its index into its
// slot, and ClipDistance[0] = x keeps the right half (x >= 0) of what is drawn; CullDistance[0]
// culls triangles whose every vertex has z > 0.9.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
layout(set = 0, binding = 0) buffer VertexSlots { uint vertex_slots[]; };
out gl_PerVertex {
  vec4 gl_Position;
  float gl_ClipDistance[1];
  float gl_CullDistance[1];
};
void main() {
  gl_Position = vec4(position, 1.0);
  gl_ClipDistance[0] = position.x;
  gl_CullDistance[0] = 0.9 - position.z;
  v_color = color;
  vertex_slots[gl_VertexIndex] = uint(gl_VertexIndex) + 1000u;
}
