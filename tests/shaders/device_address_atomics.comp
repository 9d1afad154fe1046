#version 460
// Atomics through buffer device addresses, and per-lane (divergent) pointers: odd and even
// invocations store through different buffers' addresses, and every third invocation sits out —
// its lane must not touch memory.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Counters {
  uint bins[13];
  uint largest;
  uint exchanged;
};
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Values { uint v[]; };
layout(push_constant) uniform Push {
  Counters counters;
  Values even;
  Values odd;
  uint count;
} push;
layout(set = 0, binding = 0, std430) writeonly buffer Olds { uint olds[]; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= push.count) return;
  atomicAdd(push.counters.bins[i % 13u], i);
  atomicMax(push.counters.largest, i * 3u);
  olds[i] = atomicExchange(push.counters.exchanged, i + 1u);
  Values target = (i & 1u) != 0u ? push.odd : push.even;
  if (i % 3u != 0u) target.v[i / 2u] = i * 10u + 1u;
}
