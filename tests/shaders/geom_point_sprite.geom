#version 450
// Point sprites: each input point becomes a square (one 4-vertex triangle strip) of half-size
// `half_size` (clip units, a push constant) centred on it, flat in the point's colour.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) flat out vec4 g_color;
layout(push_constant) uniform Push { vec2 half_size; } push;
void main() {
  for (int k = 0; k < 4; ++k) {
    const vec2 corner = vec2(k & 1, k >> 1) * 2.0 - 1.0;  // (-1,-1), (1,-1), (-1,1), (1,1)
    gl_Position = gl_in[0].gl_Position + vec4(corner * push.half_size, 0.0, 0.0);
    g_color = v_color[0];
    EmitVertex();
  }
}
