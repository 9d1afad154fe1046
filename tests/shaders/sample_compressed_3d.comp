#version 450
// Every texel of a 3D (compressed) texture: texelFetch, and a linear sample a quarter texel right,
// down and towards the next slice from its centre (tests/e2e/compute_sampling_test.cpp,
// CompressedFormatsIn3DImages).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler3D tex;
layout(set = 0, binding = 1) buffer Results { vec4 v[]; } results;

void main() {
  uint i = gl_GlobalInvocationID.x;
  ivec3 size = textureSize(tex, 0);
  if (i >= uint(size.x * size.y * size.z)) return;
  ivec3 p = ivec3(int(i) % size.x, (int(i) / size.x) % size.y, int(i) / (size.x * size.y));
  results.v[2u * i] = texelFetch(tex, p, 0);
  results.v[2u * i + 1u] = textureLod(tex, (vec3(p) + 0.75) / vec3(size), 0.0);
}
