#version 450
// flat_colour.frag whose red channel is (vertex seed + fragment seed) mod 251, out of 255, so the
// picture proves both stages of the new pipeline ran with their specialization.
layout(constant_id = 0) const uint kSeed = 0u;

layout(push_constant) uniform Layer {
  vec4 colour;
  float depth;
} layer;

layout(location = 0) flat in uint seed;
layout(location = 0) out vec4 out_colour;

void main() { out_colour = vec4(float((seed + kSeed) % 251u) / 255.0, layer.colour.gba); }
