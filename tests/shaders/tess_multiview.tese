#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_multiview : require
// Multiview: the quad patch moves right by `shift` (clip space) per view; the colour is
// ((ViewIndex + 1) / 8 from the patch, (ViewIndex + 2) / 8 from control point 3, ViewIndex / 8, 1).
layout(quads, equal_spacing, ccw) in;
layout(location = 0) in float c_view[];
layout(location = 1) patch in float p_view;
layout(location = 0) out vec4 v_color;
layout(push_constant) uniform Push { float shift; } push;
#include "tess_bilinear_patch.glsl"
void main() {
  gl_Position = bilinear_patch_position() + vec4(push.shift * float(gl_ViewIndex), 0.0, 0.0, 0.0);
  v_color = vec4(p_view / 8.0, c_view[3] / 8.0, float(gl_ViewIndex) / 8.0, 1.0);
}
