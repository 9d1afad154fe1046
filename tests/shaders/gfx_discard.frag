#version 450
// Fragment kernel test: helper lanes do not write memory, discard, FragDepth, SampleMask
// (graphics_kernel_test.cpp). gl_FragCoord.x is the lane's id there.
layout(depth_greater) out float gl_FragDepth;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0) buffer Out { uint count; uint data[]; } sb;

void main() {
  int id = int(gl_FragCoord.x);
  sb.data[id] = uint(id) + 1u;
  atomicAdd(sb.count, 1u);
  if (id % 3 == 1) discard;
  if (id % 2 == 0) gl_FragDepth = float(id) * 0.25;
  gl_SampleMask[0] = id;
  o_color = vec4(float(id));
}
