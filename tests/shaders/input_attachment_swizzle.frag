#version 450
// Reads the first subpass's colour at this pixel (subpassLoad) and writes it swizzled (g, b, r, 1),
// so the result proves both that the value came from the input attachment and where.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput previous;
layout(location = 0) out vec4 color;
void main() {
  const vec4 c = subpassLoad(previous);
  color = vec4(c.g, c.b, c.r, 1.0);
}
