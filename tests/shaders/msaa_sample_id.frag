#version 450
// Per-sample shading: each sample stores its own index and position (SampleId, SamplePosition).
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(float(gl_SampleID), gl_SamplePosition, v_color.a); }
