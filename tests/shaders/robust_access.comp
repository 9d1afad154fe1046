#version 460
// Out-of-bounds accesses under robustBufferAccess: every invocation reads and writes far past
// the end of its (small) descriptor ranges, and does an atomic there too. Only invocation 0's
// accesses are in range. results[i] = what invocation i read (0 when out of bounds).
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Results { uint results[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint far = i * 1000u;
  uint value = data[far];
  data[far + 1u] = 0xDEADBEEFu;
  atomicAdd(data[far + 2u], 5u);
  results[i] = value;
}
