#version 460
// Push descriptors (tests/e2e/descriptor_push_test.cpp): results[i] = values[i] + add, every
// buffer from a pushed set.
layout(local_size_x = 16) in;

layout(set = 0, binding = 0) readonly buffer Values { uint values[]; };
layout(set = 0, binding = 1) uniform Add { uint add; };
layout(set = 0, binding = 2) buffer Results { uint results[]; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  results[i] = values[i] + add;
}
