#version 460
// A 64-bit specialization constant (needs shaderInt64): values[i] = values[i] + kBias.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 16) in;

layout(constant_id = 4) const uint64_t kBias = 1ul;

layout(set = 0, binding = 0) buffer Values { uint64_t values[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  values[i] = values[i] + kBias;
}
