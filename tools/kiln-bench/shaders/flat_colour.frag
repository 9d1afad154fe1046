#version 450
// Every fragment gets the colour in the push constants (shared with layer.vert and mesh.vert).
layout(push_constant) uniform Layer {
  vec4 colour;
  float depth;
} layer;

layout(location = 0) out vec4 out_colour;

void main() { out_colour = layer.colour; }
