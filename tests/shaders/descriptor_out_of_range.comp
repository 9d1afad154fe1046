#version 460
// Descriptor array indices past the end (tests/e2e/descriptor_indexing_test.cpp, Kiln only: the
// spec leaves them undefined). Lane i uses element first + i of a variable-count storage buffer
// array and of a fixed uniform buffer array; past either array's end Kiln reads zero (length 0)
// and drops the write.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 16) in;

layout(push_constant) uniform Push { uint first; } pc;
layout(set = 0, binding = 0) buffer Results { uvec4 results[]; };
layout(set = 0, binding = 1) uniform Params { uint value; } params[2];
layout(set = 0, binding = 2) buffer Source { uint mark; uint values[]; } sources[];

void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint s = pc.first + i;
  results[i] = uvec4(sources[nonuniformEXT(s)].values[0], sources[nonuniformEXT(s)].values.length(),
                     params[nonuniformEXT(s)].value, 1u);
  sources[nonuniformEXT(s)].mark = 0xC0FFEEu;
}
