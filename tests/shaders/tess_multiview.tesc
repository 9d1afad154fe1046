#version 450
#extension GL_EXT_multiview : require
// Multiview: every control point and the patch carry the control invocation's ViewIndex (as
// ViewIndex + 2 and ViewIndex + 1), levels 2.
layout(vertices = 4) out;
layout(location = 0) out float c_view[];
layout(location = 1) patch out float p_view;
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  c_view[gl_InvocationID] = float(gl_ViewIndex) + 2.0;
  if (gl_InvocationID == 0) {
    gl_TessLevelOuter[0] = gl_TessLevelOuter[1] = gl_TessLevelOuter[2] = gl_TessLevelOuter[3] = 2.0;
    gl_TessLevelInner[0] = gl_TessLevelInner[1] = 2.0;
    p_view = float(gl_ViewIndex) + 1.0;
  }
}
