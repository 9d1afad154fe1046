#version 460
// Every kind of descriptor read through descriptor buffers (tests/e2e/descriptor_buffer_test.cpp):
// sets 0 and 1 live in a descriptor buffer, set 2 is a set of embedded immutable samplers.
layout(local_size_x = 1) in;

layout(set = 0, binding = 0) readonly buffer Storage { uint value; } storage[2];
layout(set = 0, binding = 1) uniform Uniform { uint uniform_value; };
layout(set = 0, binding = 2) uniform usamplerBuffer texels;
layout(set = 0, binding = 3) uniform usampler2D combined;
layout(set = 0, binding = 4) uniform utexture2D image;
layout(set = 1, binding = 0) buffer Results { uint results[]; };
layout(set = 2, binding = 0) uniform sampler nearest;

void main() {
  results[0] = storage[0].value;
  results[1] = storage[1].value;
  results[2] = uniform_value;
  results[3] = texelFetch(texels, 1).x;
  results[4] = texelFetch(combined, ivec2(1, 0), 0).x;
  results[5] = texture(usampler2D(image, nearest), vec2(0.25, 0.75)).x;
}
