#version 450
// Texel buffers: each invocation fetches its texel of a uniform texel buffer (no format in the
// shader: the view's), stores it doubled to a storage texel buffer of another format, and records
// a fetch past the end (zero) and the sizes; the store past the end is dropped.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform samplerBuffer src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly imageBuffer dst;
layout(set = 0, binding = 2, r32ui) uniform uimageBuffer counters;
layout(set = 0, binding = 3, std430) buffer Results {
  ivec4 sizes;
  vec4 out_of_bounds[];
};

void main() {
  const int i = int(gl_GlobalInvocationID.x);
  const int n = textureSize(src);
  imageStore(dst, i, texelFetch(src, i) * 2.0);
  imageStore(dst, i + n, vec4(9.0));
  out_of_bounds[i] = texelFetch(src, i + n);
  imageAtomicAdd(counters, i % 4, uint(i));
  imageAtomicAdd(counters, i + 1000, 1u);
  if (i == 0) sizes = ivec4(n, imageSize(dst), imageSize(counters), 0);
}
