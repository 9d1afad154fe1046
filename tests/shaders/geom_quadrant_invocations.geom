#version 450
// Instanced geometry shader: four invocations per input triangle; invocation k moves the
// triangle by (k & 1, k >> 1) clip units (from the top-left quadrant into quadrant k) and sets
// red to (k + 1) / 4, keeping the vertex colour's green, blue and alpha.
layout(triangles, invocations = 4) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) flat out vec4 g_color;
void main() {
  const vec2 shift = vec2(gl_InvocationID & 1, gl_InvocationID >> 1);
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position + vec4(shift, 0.0, 0.0);
    g_color = vec4(float(gl_InvocationID + 1) / 4.0, v_color[i].gba);
    EmitVertex();
  }
}
