#version 450
#extension GL_EXT_multiview : require
// Multiview: the geometry shader runs per view; view v moves the triangle right by v / 4 clip
// units (8 pixels of a 64-pixel target) and colours it (vertex red, v + 1, 0, 1).
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) flat out vec4 g_color;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position + vec4(float(gl_ViewIndex) / 4.0, 0.0, 0.0, 0.0);
    g_color = vec4(v_color[i].r, float(gl_ViewIndex) + 1.0, 0.0, 1.0);
    EmitVertex();
  }
}
