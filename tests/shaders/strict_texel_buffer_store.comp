#version 460
// Strict mode's image bounds report (e2e StrictModeTest): 16 invocations store into a storage
// texel buffer; a view shorter than 16 texels leaves the last invocations outside it.
layout(local_size_x = 16) in;

layout(set = 0, binding = 0, r32ui) uniform writeonly uimageBuffer texels;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  imageStore(texels, int(i), uvec4(i + 1));
}
