#version 450
// Reads one depth slice of a 3D image through 2D views (VK_EXT_image_2d_view_of_3d): texelFetch of
// a sampled view, imageLoad of a storage view; writes both, and the storage view's size.
layout(local_size_x = 16) in;
layout(binding = 0) uniform sampler2D sampled_slice;
layout(binding = 1, rgba8) uniform readonly image2D storage_slice;
layout(binding = 2) buffer Results { vec4 values[]; };
void main() {
  const uint i = gl_LocalInvocationIndex;
  const ivec2 p = ivec2(i % 4, i / 4);
  values[i] = texelFetch(sampled_slice, p, 0);
  values[16 + i] = imageLoad(storage_slice, p);
  if (i == 0) values[32] = vec4(imageSize(storage_slice), textureSize(sampled_slice, 0));
}
