#version 460
// Reads one uint through every element of every binding of the set
// DescriptorTest.WritesOfEveryBufferTypeAndCopies (tests/e2e/descriptor_test.cpp) fills — one
// binding of each buffer descriptor type, plus a second storage-buffer binding that writes and
// copies run on into — and stores them in binding and element order, so the test can see which
// address each descriptor ended up with.
layout(local_size_x = 1) in;

layout(set = 0, binding = 0) uniform Uniform { uint value; } uniforms[2];
layout(set = 0, binding = 1) readonly buffer First { uint value; } first[2];
layout(set = 0, binding = 2) readonly buffer Second { uint value; } second[3];
layout(set = 0, binding = 3) uniform DynamicUniform { uint value; } dynamic_uniforms[2];
layout(set = 0, binding = 4) readonly buffer DynamicStorage { uint value; } dynamic_storage[2];
layout(set = 0, binding = 5) uniform usamplerBuffer uniform_texels[2];
layout(set = 0, binding = 6, r32ui) readonly uniform uimageBuffer storage_texels[2];
layout(set = 1, binding = 0) buffer Results { uint results[]; };

void main() {
  results[0] = uniforms[0].value;
  results[1] = uniforms[1].value;
  results[2] = first[0].value;
  results[3] = first[1].value;
  results[4] = second[0].value;
  results[5] = second[1].value;
  results[6] = second[2].value;
  results[7] = dynamic_uniforms[0].value;
  results[8] = dynamic_uniforms[1].value;
  results[9] = dynamic_storage[0].value;
  results[10] = dynamic_storage[1].value;
  results[11] = texelFetch(uniform_texels[0], 0).x;
  results[12] = texelFetch(uniform_texels[1], 0).x;
  results[13] = imageLoad(storage_texels[0], 0).x;
  results[14] = imageLoad(storage_texels[1], 0).x;
}
