#version 450
// Per sample (reads gl_SampleID): the smooth input at another sample of the pixel (the sample's
// index with bit 0 flipped) and the noperspective one at a fixed offset from the pixel centre.
layout(location = 0) in vec4 v_smooth;
layout(location = 1) noperspective in vec4 v_linear;
layout(location = 0) out vec4 out_color;
void main() {
  out_color = vec4(interpolateAtSample(v_smooth, gl_SampleID ^ 1).rg, interpolateAtOffset(v_linear, vec2(0.25, -0.375)).rg);
}
