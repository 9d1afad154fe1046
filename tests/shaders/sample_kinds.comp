#version 450
// One sample of each kind of sampled image: 2D array, 3D, cube, 2D shadow, a separate texture
// and sampler, and an array of combined samplers with a constant index (dynamic and non-uniform
// indices: sample_nonuniform.comp).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2DArray array_tex;
layout(set = 0, binding = 1) uniform sampler3D volume;
layout(set = 0, binding = 2) uniform samplerCube cube;
layout(set = 0, binding = 3) uniform sampler2DShadow shadow;
layout(set = 0, binding = 4) uniform texture2D separate_tex;
layout(set = 0, binding = 5) uniform sampler separate_sampler;
layout(set = 0, binding = 6) uniform sampler2D pair[2];
layout(set = 0, binding = 7) buffer Results { vec4 v[]; } results;

const vec3 kFaces[6] = vec3[6](vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 1, 0), vec3(0, -1, 0), vec3(0, 0, 1), vec3(0, 0, -1));

void main() {
  uint i = gl_GlobalInvocationID.x;
  // Texel centres of a 4x4 grid, nearest filtering: exact texels.
  vec2 centre = (vec2(i % 4u, (i / 4u) % 4u) + 0.5) / 4.0;
  uint base = i * 10u;
  results.v[base + 0u] = textureLod(array_tex, vec3(centre, float(i % 3u) + 0.3), 0.0);
  results.v[base + 1u] = textureLod(volume, vec3(centre, (float(i % 4u) + 0.25) / 4.0), 0.0);
  // A direction near each face centre (the test works out which of the 2x2 texels it hits).
  vec3 dir = kFaces[i % 6u] * 2.0 + vec3(0.1);
  results.v[base + 2u] = textureLod(cube, dir, 0.0);
  results.v[base + 3u] = vec4(textureLod(shadow, vec3(centre, float(i % 5u) * 0.25), 0.0));
  results.v[base + 4u] = textureLod(sampler2D(separate_tex, separate_sampler), centre, 0.0);
  results.v[base + 5u] = textureLod(pair[1], centre, 0.0) - textureLod(pair[0], centre, 0.0);
  results.v[base + 6u] = vec4(vec3(textureSize(array_tex, 0)), float(textureQueryLevels(cube)));
  results.v[base + 7u] = vec4(vec2(textureSize(cube, 0)), vec2(textureSize(shadow, 0)));
  // Proj + Dref (q = 2 divides s, t and the reference), and a fetch with a constant offset.
  results.v[base + 8u] = vec4(textureProjLod(shadow, vec4(centre * 2.0, float(i % 5u) * 0.5, 2.0), 0.0));
  results.v[base + 9u] = texelFetchOffset(array_tex, ivec3(int(i % 4u) - 1, int((i / 4u) % 4u) - 2, int(i % 3u)), 0, ivec2(1, 2));
}
