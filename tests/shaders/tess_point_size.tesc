#version 450
// Four control points, each with PointSize 2 + its index (so the evaluation shader's choice of
// gl_in[1] shows as size 3); isoline levels (3 lines, 4 segments).
layout(vertices = 4) out;
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  gl_out[gl_InvocationID].gl_PointSize = 2.0 + float(gl_InvocationID);
  if (gl_InvocationID == 0) {
    gl_TessLevelOuter[0] = 3.0;
    gl_TessLevelOuter[1] = 4.0;
  }
}
