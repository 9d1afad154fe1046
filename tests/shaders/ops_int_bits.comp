#version 460
#extension GL_GOOGLE_include_directive : require
// Shifts, bitwise logic, bitfield insert/extract, bit counts, findLSB/findMSB and the
// carry/borrow/extended-multiply built-ins on per-invocation operands.
layout(local_size_x = 32) in;
#include "ops_results.glsl"

struct Case {
  uint x, y;
  int s;
  uint shift;  // 0..31: larger shifts are undefined
  int offset;  // offset + count <= 32
  int count;
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  emit(c.x << c.shift);
  emit(c.x >> c.shift);  // logical
  emit(c.s >> c.shift);  // arithmetic
  emit(c.s << int(c.shift));
  emit(c.x & c.y);
  emit(c.x | c.y);
  emit(c.x ^ c.y);
  emit(~c.x);
  emit(bitfieldInsert(c.x, c.y, c.offset, c.count));
  emit(bitfieldExtract(c.x, c.offset, c.count));
  emit(bitfieldExtract(c.s, c.offset, c.count));
  emit(bitfieldReverse(c.x));
  emit(bitCount(c.x));
  emit(bitCount(c.s));
  emit(findLSB(c.x));
  emit(findMSB(c.x));
  emit(findMSB(c.s));
  uint carry, borrow;
  emit(uaddCarry(c.x, c.y, carry));
  emit(carry);
  emit(usubBorrow(c.x, c.y, borrow));
  emit(borrow);
  uint umsb, ulsb;
  umulExtended(c.x, c.y, umsb, ulsb);
  emit(umsb);
  emit(ulsb);
  int smsb, slsb;
  imulExtended(c.s, int(c.y), smsb, slsb);
  emit(smsb);
  emit(slsb);
  // Vector forms: the result structs hold whole vectors (all low parts, then all high parts).
  uvec2 carries;
  emit(uaddCarry(uvec2(c.x, c.y), uvec2(c.y, c.x ^ c.y), carries));
  emit(carries);
  uvec2 high, low;
  umulExtended(uvec2(c.x, c.shift), uvec2(c.y, c.x), high, low);
  emit(high);
  emit(low);
  finish_results();
}
