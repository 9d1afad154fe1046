#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_shuffle : require
// Subgroup operations in a fragment shader: every channel is 1 when one way of asking the
// subgroup agrees with another (which pixels share a subgroup is the driver's choice, so only
// such invariants are checked). Helper invocations of partly covered quads take part.
layout(location = 0) out vec4 out_color;
void main() {
  const uint count = subgroupAdd(1u);
  const uvec4 ballot = subgroupBallot(true);
  const bool counts_agree = count == subgroupBallotBitCount(ballot) && count <= gl_SubgroupSize &&
                            subgroupBallotBitExtract(ballot, gl_SubgroupInvocationID);
  const bool one_elected = subgroupAdd(subgroupElect() ? 1u : 0u) == 1u;
  const vec2 first = subgroupBroadcastFirst(gl_FragCoord.xy);
  const bool shuffles_agree = subgroupShuffle(gl_FragCoord.xy, subgroupBallotFindLSB(ballot)) == first &&
                              subgroupShuffle(gl_FragCoord.x, gl_SubgroupInvocationID) == gl_FragCoord.x;
  const bool votes_agree = subgroupAll(true) && subgroupAllEqual(first) && !subgroupAny(false) &&
                           subgroupMin(gl_FragCoord.y) <= gl_FragCoord.y &&
                           // lanes without a quad must not take part: every active one is a pixel
                           subgroupAll(all(greaterThan(gl_FragCoord.xy, vec2(0.0))) &&
                                       all(lessThan(gl_FragCoord.xy, vec2(64.0))));
  out_color = vec4(counts_agree, one_elected, shuffles_agree, votes_agree);
}
