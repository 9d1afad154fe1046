#version 460
// Accesses through a null storage buffer descriptor (VK_EXT_robustness2 nullDescriptor): every one
// is out of bounds — negative elements too, whose addresses wrap just below 2^64 — so reads give
// zero and writes and atomics are dropped. Each invocation writes element i, and reads and does an
// atomic on elements no invocation writes (a read of a written element may see the write: the
// CTS accepts either). results[i] = the sum of what invocation i read, plus the array's length.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Results { uint results[]; };

void main() {
  int i = int(gl_GlobalInvocationID.x) - 32;  // elements -32 .. 31
  data[i] = 0xDEADBEEFu;
  uint read = data[i * 1000 + 500] + data[i - 1000] + atomicAdd(data[i - 100], 7u);
  results[gl_GlobalInvocationID.x] = read + uint(data.length());
}
