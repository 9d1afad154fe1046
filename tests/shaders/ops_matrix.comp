#version 460
#extension GL_GOOGLE_include_directive : require
// Matrices: matrix*vector, vector*matrix and matrix*matrix for square and non-square shapes,
// transpose, determinant, inverse, outerProduct, matrix*scalar and matrix addition. Matrices are
// built from floats (OpCompositeConstruct), plus some loaded directly from the buffer (square and
// non-square).
layout(local_size_x = 32) in;
#include "ops_results.glsl"

struct Case {
  float m[32];  // small integers: every product and sum below is exact
  vec4 v;
  mat3 direct;  // std430: columns 16 bytes apart
  float s[16];  // a well-conditioned matrix for inverse(): small integers, dominant diagonal
  mat2x3 direct23;  // 2 columns of 3, 16 bytes apart
  mat3x2 direct32;  // 3 columns of 2, 8 bytes apart
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

void main() {
  begin_results();
  const uint i = gl_GlobalInvocationID.x;
  const float m[32] = cases[i].m;
  const vec4 v = cases[i].v;
  const mat2 a2 = mat2(m[0], m[1], m[2], m[3]);
  const mat2 b2 = mat2(m[4], m[5], m[6], m[7]);
  const mat3 a3 = mat3(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]);
  const mat3 b3 = mat3(m[9], m[10], m[11], m[12], m[13], m[14], m[15], m[16], m[17]);
  const mat4 a4 = mat4(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7],
                       m[8], m[9], m[10], m[11], m[12], m[13], m[14], m[15]);
  const mat4 b4 = mat4(m[16], m[17], m[18], m[19], m[20], m[21], m[22], m[23],
                       m[24], m[25], m[26], m[27], m[28], m[29], m[30], m[31]);
  const mat2x3 n23 = mat2x3(m[0], m[1], m[2], m[3], m[4], m[5]);           // 2 columns of 3
  const mat3x2 n32 = mat3x2(m[16], m[17], m[18], m[19], m[20], m[21]);     // 3 columns of 2
  emit(a2 * v.xy);
  emit(a3 * v.xyz);
  emit(a4 * v);
  emit(v.xy * a2);
  emit(v.xyz * a3);
  emit(v * a4);
  emit(a2 * b2);
  emit(a3 * b3);
  emit(a4 * b4);
  emit(n23 * v.xy);
  emit(v.xyz * n23);
  emit(n23 * n32);  // mat3
  emit(n32 * n23);  // mat2
  emit(transpose(n23));
  emit(transpose(a4));
  emit(determinant(a2));
  emit(determinant(a3));
  emit(determinant(a4));
  emit(outerProduct(v.xyz, v.xy));
  emit(a3 * v.w);   // OpMatrixTimesScalar
  emit(a2 + b2);
  emit(cases[i].direct * v.xyz);
  emit(cases[i].direct23 * v.xy);
  emit(cases[i].direct32 * v.xyz);
  const float s[16] = cases[i].s;
  emit(inverse(mat2(s[0], s[1], s[4], s[5])));
  emit(inverse(mat3(s[0], s[1], s[2], s[4], s[5], s[6], s[8], s[9], s[10])));
  emit(inverse(mat4(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7],
                    s[8], s[9], s[10], s[11], s[12], s[13], s[14], s[15])));
  finish_results();
}
