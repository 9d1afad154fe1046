#version 450
// For the pipeline statistics: three invocations per input triangle; invocation k emits k + 1
// points (at the triangle's vertices, all inside the target), each followed by EndPrimitive,
// which does not count. Per input triangle: 3 invocations, 1 + 2 + 3 = 6 point primitives.
layout(triangles, invocations = 3) in;
layout(points, max_vertices = 3) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) flat out vec4 g_color;
void main() {
  for (int j = 0; j <= gl_InvocationID; ++j) {
    gl_Position = gl_in[j].gl_Position;
    g_color = v_color[j];
    EmitVertex();
    EndPrimitive();
  }
}
