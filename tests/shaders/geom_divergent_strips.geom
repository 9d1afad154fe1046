#version 450
// Per-invocation strip lengths: input point i (its VertexIndex) emits one triangle strip of
// n = i % 6 vertices, vertex m at pixel corner (i + (m & 1), 2 (m >> 1)) of a 64 x 8 target, in
// colour (i, n, 0, 1). Strips of 0 to 2 vertices draw nothing, 3 one triangle, 4 a 1 x 2 pixel
// rectangle, 5 that and a triangle below it.
layout(points) in;
layout(triangle_strip, max_vertices = 5) out;
layout(location = 0) flat in int v_index[];
layout(location = 0) flat out vec4 g_color;
void main() {
  const int i = v_index[0], n = i % 6;
  for (int m = 0; m < n; ++m) {
    const vec2 pixel = vec2(i + (m & 1), 2 * (m >> 1));
    gl_Position = vec4(pixel.x / 32.0 - 1.0, pixel.y / 4.0 - 1.0, 0.0, 1.0);
    g_color = vec4(float(i), float(n), 0.0, 1.0);
    EmitVertex();
  }
}
