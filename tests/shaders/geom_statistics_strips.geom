#version 450
// For the pipeline statistics: two invocations per input triangle, each emitting three triangle
// strips: 4 vertices (two triangles), 2 vertices (no triangle: an incomplete strip is discarded)
// and 3 vertices (one triangle), separated by EndPrimitive. Per input triangle: 2 invocations,
// 2 x (2 + 0 + 1) = 6 triangle primitives.
layout(triangles, invocations = 2) in;
layout(triangle_strip, max_vertices = 9) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) flat out vec4 g_color;
void emit(vec4 position) {
  gl_Position = position;
  g_color = v_color[0];
  EmitVertex();
}
void main() {
  const vec4 d = vec4(0.0625, 0.0625, 0.0, 0.0);
  emit(gl_in[0].gl_Position);
  emit(gl_in[0].gl_Position + d * vec4(1, 0, 0, 0));
  emit(gl_in[0].gl_Position + d * vec4(0, 1, 0, 0));
  emit(gl_in[0].gl_Position + d);
  EndPrimitive();
  emit(gl_in[1].gl_Position);
  emit(gl_in[2].gl_Position);
  EndPrimitive();
  emit(gl_in[0].gl_Position);
  emit(gl_in[1].gl_Position);
  emit(gl_in[2].gl_Position);
}
