#version 450
// Positions from a vertex buffer (vec2, already in normalized device coordinates), depth from the
// push constants (the same block as flat_colour.frag).
layout(push_constant) uniform Layer {
  vec4 colour;
  float depth;
} layer;

layout(location = 0) in vec2 position;

void main() { gl_Position = vec4(position, layer.depth, 1.0); }
