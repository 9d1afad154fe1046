#version 450
#extension GL_GOOGLE_include_directive : require
// Bilinear quad patches: control points 0 (u=0, v=0), 1 (u=1), 2 (v=1), 3 (u=1, v=1). Colour:
// (1, PrimitiveId + 1, the position mapped to [0, 1]) so a pixel's colour says which patch
// covered it and where the patch put it.
layout(quads, fractional_odd_spacing, ccw) in;
layout(location = 1) patch in vec4 p_info;
layout(location = 0) out vec4 v_color;
#include "tess_bilinear_patch.glsl"
void main() {
  gl_Position = bilinear_patch_position();
  v_color = vec4(1.0, p_info.x + 1.0, gl_Position.xy * 0.5 + 0.5);
}
