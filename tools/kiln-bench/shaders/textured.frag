#version 450
// Samples the bound 2D texture (the scenario's sampler filters bilinearly).
layout(set = 0, binding = 0) uniform sampler2D image;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 out_colour;

void main() { out_colour = texture(image, uv); }
