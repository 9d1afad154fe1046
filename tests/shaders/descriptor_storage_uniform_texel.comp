#version 460
// Reads one uint through each descriptor of a set of three storage buffers, a uniform buffer and
// a uniform texel buffer, and stores them in binding and element order, so
// tests/e2e/descriptor_test.cpp can see which address each descriptor ended up with after update
// templates and after updates Kiln must skip.
layout(local_size_x = 1) in;

layout(set = 0, binding = 0) readonly buffer Storage { uint value; } storage[3];
layout(set = 0, binding = 1) uniform Uniform { uint uniform_value; };
layout(set = 0, binding = 2) uniform usamplerBuffer texels;
layout(set = 1, binding = 0) buffer Results { uint results[]; };

void main() {
  results[0] = storage[0].value;
  results[1] = storage[1].value;
  results[2] = storage[2].value;
  results[3] = uniform_value;
  results[4] = texelFetch(texels, 0).x;
}
