#version 450
// tess_passthrough.tesc with the per-patch data in a `patch out` block (glslang decorates the
// block's members Patch, not the variable) whose members span several locations.
layout(vertices = 4) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) out vec4 c_color[];
layout(location = 1) patch out PatchBlock {
  vec2 unused;
  float ids[2];     // PrimitiveId, PrimitiveId + 1
  float primitive;  // PrimitiveId
} p_block;
layout(push_constant) uniform Levels {
  vec4 outer;
  vec2 inner;
} levels;
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  c_color[gl_InvocationID] = v_color[gl_InvocationID];
  if (gl_InvocationID == 0) {
    for (int i = 0; i < 4; ++i) gl_TessLevelOuter[i] = levels.outer[i];
    gl_TessLevelInner[0] = levels.inner.x;
    gl_TessLevelInner[1] = levels.inner.y;
    p_block.unused = vec2(7.0);
    p_block.ids[0] = float(gl_PrimitiveID);
    p_block.ids[1] = float(gl_PrimitiveID + 1);
    p_block.primitive = float(gl_PrimitiveID);
  }
}
