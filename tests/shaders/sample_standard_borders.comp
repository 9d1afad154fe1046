#version 460
// Samples far outside the image through a sampler of each standard border colour
// (ViewSamplerTest.SamplersWithEveryCoreStateAreCreated, tests/e2e/view_sampler_test.cpp): the
// three float colours on a UNORM image, the three integer ones on a UINT image.
layout(local_size_x = 1) in;

layout(set = 0, binding = 0) uniform sampler2D float_borders[3];
layout(set = 0, binding = 1) uniform usampler2D int_borders[3];
layout(set = 0, binding = 2) buffer Results { vec4 floats[3]; uvec4 ints[3]; };

void main() {
  const vec2 outside = vec2(-0.75, 1.5);  // a linear footprint of border texels only, on a 4x4 image
  // Constant indices: dynamic indexing of sampler arrays needs a feature the device need not enable.
  floats[0] = textureLod(float_borders[0], outside, 0.0);
  floats[1] = textureLod(float_borders[1], outside, 0.0);
  floats[2] = textureLod(float_borders[2], outside, 0.0);
  ints[0] = textureLod(int_borders[0], outside, 0.0);
  ints[1] = textureLod(int_borders[1], outside, 0.0);
  ints[2] = textureLod(int_borders[2], outside, 0.0);
}
