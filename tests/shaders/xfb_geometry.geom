#version 450
// Captures what it emits (buffer 0, stride 32): for input triangle p, a strip of four vertices
// e = 0 .. 3 (two triangles), then after EndPrimitive a strip of two (e = 4, 5: no triangle, not
// captured). Vertex e copies input vertex k = e % 3: at offset 0 its Location 0 value + 20000,
// at offset 16 (PrimitiveIdIn, k, e, 0).
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
layout(location = 0) in vec4 v_value[];
layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 32) out vec4 g_value;
layout(location = 1, xfb_buffer = 0, xfb_offset = 16) out vec4 g_where;
void emit(int e) {
  const int k = e % 3;
  g_value = v_value[k] + vec4(20000.0);
  g_where = vec4(float(gl_PrimitiveIDIn), float(k), float(e), 0.0);
  // e = 3 repeats vertex 0's values at another position (a primitive with two vertices at the
  // same position may be dropped).
  gl_Position = gl_in[k].gl_Position + (e == 3 ? vec4(0.03125, 0.03125, 0.0, 0.0) : vec4(0.0));
  EmitVertex();
}
void main() {
  for (int e = 0; e < 4; ++e) emit(e);
  EndPrimitive();
  emit(4);
  emit(5);
}
