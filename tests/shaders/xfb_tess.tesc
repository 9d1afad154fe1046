#version 450
// Passes a triangle patch's three control points through (position, Location 0) with every
// tessellation level 1: each patch becomes exactly one triangle, its corners the control points.
layout(vertices = 3) out;
layout(location = 0) in vec4 v_value[];
layout(location = 0) out vec4 c_value[];
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  c_value[gl_InvocationID] = v_value[gl_InvocationID];
  if (gl_InvocationID == 0) {
    gl_TessLevelOuter[0] = gl_TessLevelOuter[1] = gl_TessLevelOuter[2] = 1.0;
    gl_TessLevelInner[0] = 1.0;
  }
}
