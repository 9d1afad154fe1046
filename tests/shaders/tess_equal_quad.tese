#version 450
#extension GL_GOOGLE_include_directive : require
// Bilinear quad patches with equal spacing; white.
layout(quads, equal_spacing, ccw) in;
layout(location = 0) out vec4 v_color;
#include "tess_bilinear_patch.glsl"
void main() {
  gl_Position = bilinear_patch_position();
  v_color = vec4(1.0);
}
