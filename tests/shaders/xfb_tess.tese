#version 450
// Captures the tessellated corners (buffer 0, stride 32): at offset 0 the interpolated Location 0
// value + 10000 (exactly the corner's control point's value + 10000: the corners' TessCoord are
// unit vectors), at offset 16 (TessCoord, PrimitiveId). Triangles wound counter-clockwise.
layout(triangles, equal_spacing, ccw) in;
layout(location = 0) in vec4 c_value[];
layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 32) out vec4 t_value;
layout(location = 1, xfb_buffer = 0, xfb_offset = 16) out vec4 t_where;
void main() {
  const vec3 c = gl_TessCoord;
  t_value = c.x * c_value[0] + c.y * c_value[1] + c.z * c_value[2] + vec4(10000.0);
  t_where = vec4(c, float(gl_PrimitiveID));
  gl_Position = c.x * gl_in[0].gl_Position + c.y * gl_in[1].gl_Position + c.z * gl_in[2].gl_Position;
}
