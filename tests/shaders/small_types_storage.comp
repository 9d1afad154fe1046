#version 460
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
// 8- and 16-bit values in memory (storageBuffer8/16BitAccess, uniformAndStorageBuffer8/16BitAccess,
// storagePushConstant8/16, and 8-bit workgroup arrays): loads and stores of every member of a
// mixed-width struct (vectors, arrays, odd offsets), a whole-struct copy, dense byte and halfword
// arrays written lane by lane (some lanes only), a std140 uniform block with 8/16-bit members
// (array stride 16) and push constants with 8/16-bit members. tests/e2e/compute_types_test.cpp
// checks every byte, padding included: stores must not touch the bytes around them.
layout(local_size_x = 64) in;

struct Mixed {
  int8_t s8;         // offset 0
  u8vec3 v8;         // 4 (a 3-component vector is aligned like a 4-component one)
  uint8_t u8;        // 7
  int16_t s16;       // 8
  f16vec2 h2;        // 12
  uint16_t u16;      // 16
  float16_t h;       // 18
  uint8_t bytes[3];  // 20, stride 1
  int8_t tail8;      // 23
  i16vec3 v16;       // 24
  uint8_t last;      // 30; the struct is 32 bytes (aligned to 8)
};

layout(set = 0, binding = 0, std430) readonly buffer Inputs { Mixed inputs[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Outputs { Mixed outputs[]; };
layout(set = 0, binding = 2, std140) uniform Params {
  int8_t k8;         // 0
  uint8_t ku8;       // 1
  int16_t k16;       // 2
  float16_t kh;      // 4
  u8vec4 kv8;        // 8
  i16vec2 kv16;      // 12
  uint8_t table[4];  // 16, 32, 48, 64: std140 array stride 16
} params;
layout(set = 0, binding = 3, std430) writeonly buffer Copies { Mixed copies[]; };
layout(set = 0, binding = 4, std430) writeonly buffer Dense8 { uint8_t dense8[]; };
layout(set = 0, binding = 5, std430) writeonly buffer Dense16 { uint16_t dense16[]; };

layout(push_constant) uniform Push {
  int8_t p8;      // 0
  uint8_t pu8;    // 1
  int16_t p16;    // 2
  float16_t ph;   // 4
  u8vec2 pv8;     // 6
  uint count;     // 8
} pc;

shared uint8_t neighbours[64];

void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint local = gl_LocalInvocationID.x;
  // Every invocation takes part in the barrier; the ones past the end write nothing.
  neighbours[local] = uint8_t(i * 3u);
  barrier();
  if (i >= pc.count) return;
  const Mixed m = inputs[i];
  outputs[i].s8 = m.s8 * int8_t(-2) + params.k8;
  outputs[i].v8 = m.v8.zxy + params.kv8.xyz;
  outputs[i].u8 = m.u8 ^ pc.pu8;
  outputs[i].s16 = m.s16 - pc.p16;
  outputs[i].h2 = m.h2 * pc.ph;
  outputs[i].u16 = m.u16 + uint16_t(params.table[i % 4u]);
  outputs[i].h = m.h + params.kh;
  for (int k = 0; k < 3; ++k) outputs[i].bytes[k] = m.bytes[2 - k];
  outputs[i].tail8 = m.tail8 + pc.p8;
  outputs[i].v16 = m.v16 * i16vec3(params.kv16, params.k16);
  outputs[i].last = m.last + pc.pv8.x + pc.pv8.y + params.ku8;
  copies[i] = inputs[i];
  dense8[i] = uint8_t(i) ^ m.u8 ^ neighbours[local ^ 1u];
  if ((i & 1u) == 1u) dense16[i] = uint16_t(i * 1000u);
}
