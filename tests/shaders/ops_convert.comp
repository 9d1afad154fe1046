#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_spirv_intrinsics : require
// Conversions: float <-> int/uint (in range, negative included), bool <-> numbers, bitcasts,
// the pack/unpack functions and OpQuantizeToF16.
layout(local_size_x = 32) in;
#include "ops_results.glsl"

spirv_instruction(id = 116) float quantize_to_f16(float x);  // OpQuantizeToF16

struct Case {
  vec4 v;       // pack inputs (some outside [0, 1] / [-1, 1], which the packers clamp)
  float f;      // |f| < 2^31
  float big;    // [0, 2^32)
  int i;
  uint u;
  uint bits;    // unpack inputs, and a normal float's bits for the bitcasts
  float q;      // quantizeToF16 input
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  emit(int(c.f));                     // OpConvertFToS: truncates toward zero
  emit(uint(c.big));                  // OpConvertFToU
  emit(float(c.i));                   // OpConvertSToF
  emit(float(c.u));                   // OpConvertUToF
  emit(ivec2(vec2(c.f, -c.f)));       // vector forms
  emit(floatBitsToUint(c.f) + 1u);
  emit(floatBitsToInt(c.f) >> 1);
  emit(abs(uintBitsToFloat(c.bits)));
  emit(-intBitsToFloat(int(c.bits)));
  emit(int(c.u) >> 1);                // uint -> int is a bitcast: shifts arithmetically
  emit(uint(c.i) >> 1);               // int -> uint: shifts logically
  emit(float(c.f > 0.0));             // bool -> float
  emit(int(bool(c.i)));               // int -> bool -> int
  emit(uint(bool(c.u)) + 2u * uint(bool(c.f)));
  emit(packHalf2x16(c.v.xy));
  emit(unpackHalf2x16(c.bits));
  emit(packUnorm4x8(c.v));
  emit(unpackUnorm4x8(c.bits));
  emit(packSnorm4x8(c.v));
  emit(unpackSnorm4x8(c.bits));
  emit(packUnorm2x16(c.v.xy));
  emit(unpackUnorm2x16(c.bits));
  emit(packSnorm2x16(c.v.zw));
  emit(unpackSnorm2x16(c.bits));
  emit(quantize_to_f16(c.q));
  finish_results();
}
