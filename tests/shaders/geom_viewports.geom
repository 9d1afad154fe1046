#version 450
// Viewport selection per primitive: input triangle p goes to viewport p / 2 (the test draws
// rectangles of two triangles), colour passed through.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) flat out vec4 g_color;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position;
    gl_ViewportIndex = gl_PrimitiveIDIn / 2;
    g_color = v_color[i];
    EmitVertex();
  }
}
