#version 450
// VK_EXT_custom_border_color: a float custom border (with a format) and an integer one (without).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D float_border;
layout(set = 0, binding = 1) uniform usampler2D uint_border;
layout(set = 0, binding = 2) buffer Results { vec4 v[]; } results;

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec2 uv = vec2(float(i % 8u) * 0.3 - 0.6, float(i / 8u) * 0.3 - 0.6);
  results.v[2u * i] = textureLod(float_border, uv, 0.0);
  results.v[2u * i + 1u] = vec4(textureLod(uint_border, uv, 0.0));
}
