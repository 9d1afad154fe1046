#version 460
// Descriptor indexing over buffer arrays (tests/e2e/descriptor_indexing_test.cpp): each invocation
// picks its own storage buffer from a variable-count runtime array and its own uniform buffer
// from a fixed array (indices differ between neighbouring lanes), asks the chosen buffer's length,
// counts itself in it with an atomic, and sums element 0 of every source with a dynamically
// uniform loop index. params[3] is never written and never used (partially bound).
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { uint source_count; } pc;
layout(set = 0, binding = 0) buffer Results { uvec2 results[]; };
layout(set = 0, binding = 1) uniform Params { uvec4 scale; } params[4];
layout(set = 0, binding = 2) buffer Source { uint hits; uint values[]; } sources[];

void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint s = (i * 7u + i / 5u) % pc.source_count;
  const uint u = (i / 3u + i) % 3u;
  const uint length = sources[nonuniformEXT(s)].values.length();
  const uint value = sources[nonuniformEXT(s)].values[i % length];
  atomicAdd(sources[nonuniformEXT(s)].hits, 1u);
  uint total = 0u;
  for (uint k = 0u; k < pc.source_count; ++k) total += sources[k].values[0];
  results[i] = uvec2(value * params[nonuniformEXT(u)].scale.x + total, length);
}
