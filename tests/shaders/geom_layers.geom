#version 450
// Layered rendering: six invocations per triangle; invocation k writes Layer k, moves the
// triangle right by k / 8 clip units (4 pixels of a 64-pixel target) and colours it
// (vertex red, (k + 1) / 8, 0, 1).
layout(triangles, invocations = 6) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) flat out vec4 g_color;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position + vec4(float(gl_InvocationID) / 8.0, 0.0, 0.0, 0.0);
    gl_Layer = gl_InvocationID;
    g_color = vec4(v_color[i].r, float(gl_InvocationID + 1) / 8.0, 0.0, 1.0);
    EmitVertex();
  }
}
