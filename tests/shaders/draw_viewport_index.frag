#version 450
// Red = 60/255 × the primitive's ViewportIndex (read in the fragment shader, multiViewport).
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(float(gl_ViewportIndex) * (60.0 / 255.0), v_color.g, v_color.b, 1.0); }
