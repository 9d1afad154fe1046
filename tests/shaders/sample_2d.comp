#version 450
// Sampling a mipmapped sampler2D in compute: explicit LOD, offsets, gradients, Proj, fetch,
// gather, size and level queries (tests/e2e/compute_sampling_test.cpp computes the references).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer Results { vec4 v[]; } results;

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec2 uv = vec2(float(i % 8u) * 0.173 - 0.31, float(i / 8u) * 0.121 - 0.2);
  float lod = float(i % 5u) * 0.45 - 0.3;
  int level = int(i % 3u);
  uint base = i * 8u;
  results.v[base + 0u] = textureLod(tex, uv, lod);
  results.v[base + 1u] = texelFetch(tex, ivec2(i % 8u, i / 8u) >> level, level);
  results.v[base + 2u] = textureGather(tex, uv, 1);
  results.v[base + 3u] = textureLodOffset(tex, uv, lod, ivec2(1, -2));
  // A workgroup-uniform LOD: lavapipe answers textureSize with the first lane's LOD for all lanes.
  results.v[base + 4u] = vec4(vec2(textureSize(tex, int(gl_WorkGroupID.x % 4u))), float(textureQueryLevels(tex)), 0.0);
  results.v[base + 5u] = textureGrad(tex, uv, vec2(0.2, 0.0), vec2(0.0, 0.1));
  results.v[base + 6u] = textureGatherOffset(tex, uv, ivec2(-1, 1), 3);
  results.v[base + 7u] = textureProjLod(tex, vec3(uv * 2.0, 2.0), lod);
}
