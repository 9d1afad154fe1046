#version 450
// Adds (1, 2, 0, 0) / 255 to what the earlier fragments left at this pixel: the colour attachment
// read back as an input attachment (a feedback loop ordered by rasterization order access).
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput previous;
layout(location = 0) out vec4 color;
void main() { color = subpassLoad(previous) + vec4(1.0 / 255.0, 2.0 / 255.0, 0.0, 0.0); }
