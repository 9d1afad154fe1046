#version 450
// Sample-qualified inputs (which make the shader run per sample) hold their value at the sample.
layout(location = 0) sample in vec4 v_smooth;
layout(location = 1) sample noperspective in vec4 v_linear;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(v_smooth.rg, v_linear.rg); }
