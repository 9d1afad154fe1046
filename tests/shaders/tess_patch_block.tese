#version 450
#extension GL_GOOGLE_include_directive : require
// tess_quad.tese reading its per-patch data from tess_patch_block.tesc's block: red is 1 only when
// ids[0] and primitive (different locations) agree, green is ids[1] = PrimitiveId + 1.
layout(quads, fractional_odd_spacing, ccw) in;
layout(location = 1) patch in PatchBlock {
  vec2 unused;
  float ids[2];
  float primitive;
} p_block;
layout(location = 0) out vec4 v_color;
#include "tess_bilinear_patch.glsl"
void main() {
  gl_Position = bilinear_patch_position();
  v_color = vec4(1.0 + p_block.ids[0] - p_block.primitive, p_block.ids[1], gl_Position.xy * 0.5 + 0.5);
}
