#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_shuffle : require
// Subgroup operations in a geometry shader (two triangles, 3 invocations each): each emitted
// vertex's flat colour has channels that are 1 when one way of asking the subgroup agrees with
// another (which invocations share a subgroup is the driver's choice, so only such invariants are
// checked), and only this draw's invocations take part. Invocation k passes the triangle through
// unchanged, so every covered pixel holds the last invocation's colour.
layout(triangles, invocations = 3) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) flat out vec4 v_color;
void main() {
  const uint count = subgroupAdd(1u);
  const uvec4 ballot = subgroupBallot(true);
  const bool counts_agree = count == subgroupBallotBitCount(ballot) && count <= gl_SubgroupSize &&
                            subgroupBallotBitExtract(ballot, gl_SubgroupInvocationID);
  const bool one_elected = subgroupAdd(subgroupElect() ? 1u : 0u) == 1u;
  const int id = gl_PrimitiveIDIn * 3 + gl_InvocationID;  // distinct per invocation
  const bool shuffles_agree = subgroupShuffle(id, gl_SubgroupInvocationID) == id &&
                              subgroupShuffle(id, subgroupBallotFindLSB(ballot)) == subgroupBroadcastFirst(id);
  const bool votes_agree = subgroupAll(true) && !subgroupAny(false) && subgroupMax(id) >= id &&
                           subgroupAll(id >= 0 && id < 6) && subgroupAllEqual(subgroupBroadcastFirst(id));
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position;
    v_color = vec4(counts_agree, one_elected, shuffles_agree, votes_agree);
    EmitVertex();
  }
}
