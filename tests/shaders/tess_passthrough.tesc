#version 450
// Passes four control points through (position and colour); the levels come from push
// constants; the patch record carries (PrimitiveId, PatchVerticesIn) to the evaluation shader.
layout(vertices = 4) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) out vec4 c_color[];
layout(location = 1) patch out vec4 p_info;
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
    p_info = vec4(float(gl_PrimitiveID), float(gl_PatchVerticesIn), 0.0, 0.0);
  }
}
