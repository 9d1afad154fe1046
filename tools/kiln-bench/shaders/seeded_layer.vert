#version 450
// layer.vert with a specialization constant (pipeline_first_draw_cold): every seed is a vertex
// kernel no driver has made, and the seed reaches the fragment shader so the draw shows it.
layout(constant_id = 0) const uint kSeed = 0u;

layout(push_constant) uniform Layer {
  vec4 colour;
  float depth;
} layer;

layout(location = 0) flat out uint seed;

void main() {
  const vec2 corner = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
  gl_Position = vec4(corner * 2.0 - 1.0, layer.depth, 1.0);
  seed = kSeed;
}
