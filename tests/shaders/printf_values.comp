#version 460
// debugPrintfEXT of every kind of value: signed, unsigned, hex, float with precision, a vector, a
// 64-bit integer, %e and %%. Invocation 5 does not print (an inactive lane in the middle).
#extension GL_EXT_debug_printf : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint done[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  int s = int(i) - 2;
  float f = float(i) * 0.5 + 0.25;
  vec3 v = vec3(f, -1.5, float(i));
  if (i != 5u)
    debugPrintfEXT("i=%u s=%d f=%.2f x=%x v=%v3f big=%lu e=%e 100%%", i, s, f, i * 255u, v, uint64_t(i) << 40, f);
  done[i] = 1u;
}
