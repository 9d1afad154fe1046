#version 450
#extension GL_ARB_post_depth_coverage : require
// sample_mask_in_count.frag with PostDepthCoverage: SampleMaskIn holds the samples that passed
// the early depth test.
layout(early_fragment_tests, post_depth_coverage) in;
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(float(bitCount(gl_SampleMaskIn[0])) / 4.0, 1.0, 0.0, v_color.a); }
