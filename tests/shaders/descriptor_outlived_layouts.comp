#version 460
// Reads one uint through every descriptor of the three sets of
// DescriptorTest.PipelineLayoutsOutliveTheirSetLayouts (tests/e2e/descriptor_test.cpp), whose set
// layouts are destroyed before this pipeline is created, and the push constant, and stores them in
// set, binding and element order into the second storage buffer of set 0.
layout(local_size_x = 1) in;

layout(set = 0, binding = 0) uniform DynamicUniform { uint value; } dynamic_uniforms[4];
layout(set = 0, binding = 1) buffer Storage { uint values[]; } storage[2];  // [1]: the results
layout(set = 1, binding = 0) uniform usamplerBuffer texels;
layout(set = 2, binding = 3) readonly buffer DynamicStorage { uint value; } dynamic_storage[2];
layout(set = 2, binding = 4) uniform MoreDynamicUniform { uint value; } more_dynamic_uniforms[4];
layout(push_constant) uniform Push { uint push_value; };

void main() {
  // Constant indices: dynamic indexing of descriptor arrays needs features the device need not enable.
  storage[1].values[0] = dynamic_uniforms[0].value;
  storage[1].values[1] = dynamic_uniforms[1].value;
  storage[1].values[2] = dynamic_uniforms[2].value;
  storage[1].values[3] = dynamic_uniforms[3].value;
  storage[1].values[4] = storage[0].values[0];
  storage[1].values[5] = texelFetch(texels, 0).x;
  storage[1].values[6] = dynamic_storage[0].value;
  storage[1].values[7] = dynamic_storage[1].value;
  storage[1].values[8] = more_dynamic_uniforms[0].value;
  storage[1].values[9] = more_dynamic_uniforms[1].value;
  storage[1].values[10] = more_dynamic_uniforms[2].value;
  storage[1].values[11] = more_dynamic_uniforms[3].value;
  storage[1].values[12] = push_value;
}
