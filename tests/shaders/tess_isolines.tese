#version 450
#extension GL_GOOGLE_include_directive : require
// Isolines across a quad patch, as points: each lands on its own pixel, so a pixel count is a
// point count.
layout(isolines, equal_spacing, point_mode) in;
layout(location = 0) out vec4 v_color;
#include "tess_bilinear_patch.glsl"
void main() {
  gl_Position = bilinear_patch_position();
  v_color = vec4(1.0);
}
