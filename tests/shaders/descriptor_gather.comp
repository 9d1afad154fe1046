#version 460
// Reads one uint through each kind of buffer descriptor tests/e2e/descriptor_test.cpp writes
// (dynamic uniform and storage buffers, arrays filled by one write that overflows into the next
// binding, descriptors copied from another set) and stores them in order, so the test can see
// which address each descriptor ended up with.
layout(local_size_x = 1) in;

layout(set = 0, binding = 0) uniform DynamicUniform { uint dynamic_uniform_value; };
layout(set = 0, binding = 1) readonly buffer First { uint value; } first[2];
layout(set = 0, binding = 2) readonly buffer Second { uint value; } second[2];
layout(set = 1, binding = 0) readonly buffer DynamicStorage { uint dynamic_storage_value; };
layout(set = 1, binding = 1) buffer Results { uint results[]; };

void main() {
  results[0] = dynamic_uniform_value;
  results[1] = first[0].value;
  results[2] = first[1].value;
  results[3] = second[0].value;
  results[4] = second[1].value;
  results[5] = dynamic_storage_value;
}
