#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_shuffle : require
// Subgroup operations in a vertex shader (draw_colored.vert's inputs): the colour's channels are 1
// when one way of asking the subgroup agrees with another (which vertices share a subgroup is the
// driver's choice, so only such invariants are checked), and only this draw's vertices take part.
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec4 in_color;
layout(location = 0) out vec4 v_color;
void main() {
  gl_Position = vec4(in_position, 1.0);
  const uint count = subgroupAdd(1u);
  const uvec4 ballot = subgroupBallot(true);
  const bool counts_agree = count == subgroupBallotBitCount(ballot) && count <= gl_SubgroupSize &&
                            subgroupBallotBitExtract(ballot, gl_SubgroupInvocationID);
  const bool one_elected = subgroupAdd(subgroupElect() ? 1u : 0u) == 1u;
  const vec2 first = subgroupBroadcastFirst(in_position.xy);
  const bool shuffles_agree = subgroupShuffle(in_position.xy, subgroupBallotFindLSB(ballot)) == first &&
                              subgroupShuffle(gl_VertexIndex, gl_SubgroupInvocationID) == gl_VertexIndex;
  const bool votes_agree = subgroupAll(true) && subgroupAllEqual(first) && !subgroupAny(false) &&
                           subgroupMax(gl_VertexIndex) >= gl_VertexIndex &&
                           subgroupAll(gl_VertexIndex >= 0 && gl_VertexIndex < 6);
  v_color = vec4(counts_agree, one_elected, shuffles_agree, votes_agree);
}
