#version 450
// One full-screen layer: a triangle that covers the whole viewport (vertices from gl_VertexIndex,
// no vertex buffer: (-1,-1), (3,-1), (-1,3)) at the depth given in the push constants.
layout(push_constant) uniform Layer {
  vec4 colour;
  float depth;
} layer;

void main() {
  const vec2 corner = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
  gl_Position = vec4(corner * 2.0 - 1.0, layer.depth, 1.0);
}
