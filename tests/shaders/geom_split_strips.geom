#version 450
// One triangle strip cut in three by EndPrimitive: rectangle `a` (a 4-vertex strip, red), a
// 2-vertex strip (blue; too short for a triangle, so nothing) and rectangle `b` (green).
// Rectangles are (x0, y0, x1, y1) in clip space (push constants). Without the cuts the strip's
// triangles would join the rectangles across the gap between them.
layout(points) in;
layout(triangle_strip, max_vertices = 10) out;
layout(location = 0) flat out vec4 g_color;
layout(push_constant) uniform Push { vec4 a, b; } push;
void emit(vec2 position, vec4 color) {
  gl_Position = vec4(position, 0.0, 1.0);
  g_color = color;
  EmitVertex();
}
void emit_rectangle(vec4 r, vec4 color) {
  emit(r.xy, color);
  emit(r.zy, color);
  emit(r.xw, color);
  emit(r.zw, color);
}
void main() {
  emit_rectangle(push.a, vec4(1.0, 0.0, 0.0, 1.0));
  EndPrimitive();
  emit(push.a.zy, vec4(0.0, 0.0, 1.0, 1.0));
  emit(push.b.xw, vec4(0.0, 0.0, 1.0, 1.0));
  EndPrimitive();
  emit_rectangle(push.b, vec4(0.0, 1.0, 0.0, 1.0));
}
