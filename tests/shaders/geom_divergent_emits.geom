#version 450
// Per-invocation emit counts: input point i (its VertexIndex) emits i % 5 points, point j at the
// centre of pixel (i, j) of a 64 x 8 target, coloured (i, j, PrimitiveIdIn, 1). Odd points end a
// primitive after every vertex, even ones never do (a no-op for point output), so neighbouring
// invocations take different paths through EmitVertex and EndPrimitive with different counts.
layout(points) in;
layout(points, max_vertices = 4) out;
layout(location = 0) flat in int v_index[];
layout(location = 0) flat out vec4 g_color;
void main() {
  const int i = v_index[0];
  for (int j = 0; j < i % 5; ++j) {
    gl_Position = vec4((float(i) + 0.5) / 32.0 - 1.0, (float(j) + 0.5) / 4.0 - 1.0, 0.0, 1.0);
    g_color = vec4(float(i), float(j), float(gl_PrimitiveIDIn), 1.0);
    EmitVertex();
    if ((i & 1) == 1) EndPrimitive();
  }
}
