#version 450
#extension GL_GOOGLE_include_directive : require
// tess_isolines.tese with point size (shaderTessellationAndGeometryPointSize): each point is as
// large as control point 1 of tess_point_size.tesc says.
layout(isolines, equal_spacing, point_mode) in;
layout(location = 0) out vec4 v_color;
#include "tess_bilinear_patch.glsl"
void main() {
  gl_Position = bilinear_patch_position();
  gl_PointSize = gl_in[1].gl_PointSize;
  v_color = vec4(1.0);
}
