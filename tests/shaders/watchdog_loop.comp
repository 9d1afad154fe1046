#version 450
// A shader that never ends (device_loss_test.cpp): `stop` stays 0, so every invocation loops
// forever, counting. Only the watchdog's device loss ends it.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data {
  uint stop;
  uint iterations;
  uint finished;
} data;
void main() {
  uint i = 0u;
  while (data.stop == 0u) {
    i++;
    if (i == 0x7fffffffu) data.iterations = i;
  }
  atomicAdd(data.finished, 1u);
}
