#version 450
// Optional sampling features: cube arrays (imageCubeArray), MIRROR_CLAMP_TO_EDGE
// (samplerMirrorClampToEdge) and gathers with ConstOffsets and non-constant offsets
// (shaderImageGatherExtended; ConstOffsets: sample_gather_offsets.comp).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform samplerCubeArray cubes;
layout(set = 0, binding = 1) uniform sampler2D mirror_clamped;
layout(set = 0, binding = 2) uniform sampler2D repeated;
layout(set = 0, binding = 3) buffer Results { vec4 v[]; } results;

const vec3 kFaces[6] = vec3[6](vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 1, 0), vec3(0, -1, 0), vec3(0, 0, 1), vec3(0, 0, -1));

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint base = i * 5u;
  vec3 dir = kFaces[i % 6u] * 2.0 + vec3(0.1);
  results.v[base + 0u] = textureLod(cubes, vec4(dir, float((i / 6u) % 2u)), 0.0);
  results.v[base + 1u] = textureLod(mirror_clamped, vec2(float(i % 16u) * 0.37 - 3.0, float(i / 16u) * 0.61 - 1.3), 0.0);
  vec2 uv = vec2(float(i % 8u) * 0.173 - 0.31, float(i / 8u) * 0.121 - 0.2);
  results.v[base + 2u] = vec4(0.0);  // unused
  results.v[base + 3u] = textureGatherOffset(repeated, uv, ivec2(int(i % 3u) - 1, int(i % 5u) - 2), 0);
  results.v[base + 4u] = vec4(vec3(textureSize(cubes, 0)), float(textureQueryLevels(cubes)));
}
