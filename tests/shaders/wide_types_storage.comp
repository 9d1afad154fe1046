#version 460
#extension GL_EXT_shader_explicit_arithmetic_types : require
// 64-bit values in memory (shaderInt64, shaderFloat64): every member of a std430 struct with
// doubles, a dvec3 (32-byte aligned), 64-bit integers and a dmat2 is loaded, transformed and
// stored, one dvec3 component through a dynamic index; a std140 uniform block and push constants
// hold 64-bit members. tests/e2e/compute_types_test.cpp checks every byte, padding included.
layout(local_size_x = 16) in;

struct Wide {
  double d;      // offset 0
  int64_t l;     // 8
  dvec3 v;       // 32
  uint u32;      // 56
  u64vec2 pair;  // 64
  dmat2 m;       // 80; the struct is 128 bytes (aligned to 32)
};

layout(set = 0, binding = 0, std430) readonly buffer Inputs { Wide inputs[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Outputs { Wide outputs[]; };
layout(set = 0, binding = 2, std140) uniform Params {
  double scale;     // 0
  i64vec2 offsets;  // 16
  dvec3 bias;       // 32
} params;

layout(push_constant) uniform Push {
  double pd;    // 0
  uint64_t pl;  // 8
  uint count;   // 16
} pc;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= pc.count) return;
  const Wide w = inputs[i];
  outputs[i].d = w.d * params.scale + pc.pd;
  outputs[i].l = w.l + params.offsets.x - params.offsets.y;
  outputs[i].v = w.v.zxy - params.bias;
  outputs[i].u32 = uint(w.pair.x >> 40);
  outputs[i].pair = w.pair ^ u64vec2(pc.pl, ~pc.pl);
  outputs[i].m = transpose(w.m);
  outputs[i].v[i % 3u] = w.m[i & 1u][(i >> 1) & 1u];
}
