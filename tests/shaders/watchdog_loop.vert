#version 450
// A vertex shader that never ends (device_loss_test.cpp): `stop` stays 0.
layout(set = 0, binding = 0) readonly buffer Data {
  uint stop;
} data;
void main() {
  const vec2 corners[3] = vec2[](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
  uint i = 0u;
  while (data.stop == 0u) i++;
  gl_Position = vec4(corners[gl_VertexIndex], float(i & 1u) * 0.5, 1.0);
}
