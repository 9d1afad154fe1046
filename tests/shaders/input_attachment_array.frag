#version 450
// Reads input attachment (x + y) % 2 of an array of two at this pixel: the index differs between
// neighbouring fragments (non-uniform indexing of an input attachment array).
#extension GL_EXT_nonuniform_qualifier : require
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput inputs[2];
layout(location = 0) out vec4 color;
void main() {
  const int i = (int(gl_FragCoord.x) + int(gl_FragCoord.y)) % 2;
  color = subpassLoad(inputs[nonuniformEXT(i)]);
}
