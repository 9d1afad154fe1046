#version 460
// Strict mode's image bounds report (e2e StrictModeTest): a 4x4 workgroup stores into a 2D storage
// image; an image narrower than 4 texels leaves the right-hand invocations outside it.
layout(local_size_x = 4, local_size_y = 4) in;

layout(set = 0, binding = 0, r32ui) uniform writeonly uimage2D texels;

void main() {
  const uvec2 at = gl_GlobalInvocationID.xy;
  imageStore(texels, ivec2(at), uvec4(at.y * 4 + at.x + 1));
}
