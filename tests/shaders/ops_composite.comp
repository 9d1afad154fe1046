#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_spirv_intrinsics : require
// Composites: construction, extraction and insertion, swizzles read and written, dynamic vector
// and matrix-column indexing, struct values passed into and returned from functions, and an
// array value indexed by an invocation-dependent index.
layout(local_size_x = 32) in;
#include "ops_results.glsl"

// Indexing a local vector variable goes through memory (an access chain); these instructions
// index vector values directly.
spirv_instruction(id = 77) float extract_dynamic(vec4 v, int index);                // OpVectorExtractDynamic
spirv_instruction(id = 78) vec4 insert_dynamic(vec4 v, float component, int index);  // OpVectorInsertDynamic

struct Pair {
  vec2 p;
  ivec3 q;
  float w;
};
struct Nested {
  Pair pairs[2];
  vec4 v;
  int tag;
};

struct Case {
  vec4 v;  // multiples of 1/4
  int k;   // 0..3
  int j;   // 0..1
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

Pair make_pair(vec4 v, int k) {
  Pair r;
  r.p = v.yx;
  r.q = ivec3(k, k * 2, -k);
  r.w = v.z;
  return r;
}

Nested combine(Pair a, Pair b, vec4 v) {
  Nested n;
  n.pairs[0] = a;
  n.pairs[1] = b;
  n.v = v.wzyx;
  n.tag = a.q.y + b.q.z;
  return n;
}

Pair pick(Nested n, int which) { return n.pairs[which]; }

void bump(inout Pair p, float by) {
  p.p += by;
  p.q.x += 1;
}

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  const vec4 v = c.v;
  const int k = c.k, j = c.j;
  // Swizzles.
  emit(v.wzyx);
  emit(v.xxy + v.zwz);
  vec4 w = v;
  w.zx = v.xy * 2.0;  // written through a swizzle
  w.y = 7.5;          // one component replaced
  emit(w);
  // Dynamic indexing of vector and matrix values.
  emit((v * 2.0)[k]);
  w[k] = -1.0;
  emit(w);
  emit(extract_dynamic(v.wzyx, 3 - k));
  emit(insert_dynamic(v, -3.5, k));
  const mat3 m = mat3(v.xyz, v.yzw, v.zwx);
  emit(m[k % 3]);
  emit(m[k % 3][j]);
  // Structs through functions.
  const Pair a = make_pair(v, k);
  Pair b = make_pair(v.wzyx, j);
  bump(b, 0.5);
  Nested n = combine(a, b, v);
  emit(n.pairs[1].p);
  emit(n.pairs[0].q);
  emit(n.tag);
  emit(n.v);
  const Pair chosen = pick(n, j);
  emit(chosen.p);
  emit(chosen.q);
  emit(chosen.w);
  n.pairs[0].w = 9.5 - n.pairs[1].w;  // insertion into a nested member
  emit(n.pairs[0].w);
  emit(n.pairs[j].w);
  emit(a == b);
  emit(a == make_pair(v, k));
  // An array value indexed dynamically.
  const float arr[4] = float[4](v.x, v.y, v.z, v.w);
  emit(arr[k]);
  emit(arr[3 - k] + arr[(k + 1) % 4]);
  finish_results();
}
