#version 450
// samplerFilterMinmax: the same texture through a MIN and a MAX reduction sampler.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D min_tex;
layout(set = 0, binding = 1) uniform sampler2D max_tex;
layout(set = 0, binding = 2) buffer Results { vec4 v[]; } results;

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec2 uv = vec2(float(i % 8u) * 0.13 + 0.02, float(i / 8u) * 0.11 + 0.03);
  float lod = float(i % 3u) * 0.4;
  results.v[2u * i] = textureLod(min_tex, uv, lod);
  results.v[2u * i + 1u] = textureLod(max_tex, uv, lod);
}
