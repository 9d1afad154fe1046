#version 460
// Descriptor indexing over image and texel-buffer arrays (tests/e2e/descriptor_indexing_images_test.cpp):
// each invocation picks its own storage image, uniform texel buffer and storage texel buffer
// (indices differ between neighbouring lanes), reads its texel of the image and of the uniform
// texel buffer, writes its image texel back plus 7, and counts itself in its storage texel buffer
// with an atomic. images[3] is never written and never used (partially bound); the counters are a
// variable-count runtime array.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) buffer Results { uvec2 results[]; };
layout(set = 0, binding = 1, r32ui) uniform uimage2D images[4];
layout(set = 0, binding = 2) uniform utextureBuffer texels[4];
layout(set = 0, binding = 3, r32ui) uniform uimageBuffer counters[];

void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint s = (i * 7u + i / 5u) % 3u;
  const uint t = (i / 3u + i) % 4u;
  const uint c = i % 3u;
  const ivec2 p = ivec2(i % 8u, i / 8u);
  const uint image_value = imageLoad(images[nonuniformEXT(s)], p).x;
  imageStore(images[nonuniformEXT(s)], p, uvec4(image_value + 7u));
  const uint texel = texelFetch(texels[nonuniformEXT(t)], int(i)).x;
  imageAtomicAdd(counters[nonuniformEXT(c)], 0, 1u);
  results[i] = uvec2(image_value, texel);
}
