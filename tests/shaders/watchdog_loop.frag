#version 450
// A fragment shader that never ends (device_loss_test.cpp): `stop` stays 0.
layout(set = 0, binding = 0) readonly buffer Data {
  uint stop;
} data;
layout(location = 0) out vec4 color;
void main() {
  float x = 0.0;
  while (data.stop == 0u) x += 1.0;
  color = vec4(x, 0.0, 0.0, 1.0);
}
