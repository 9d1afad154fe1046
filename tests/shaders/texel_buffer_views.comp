#version 460
// What a shader sees through the three R32_UINT uniform texel buffer views of
// BufferImageTest.UniformTexelBufferViewOfR32Uint (tests/e2e/buffer_image_test.cpp): per view, its
// texel count and its first and last texels.
layout(local_size_x = 1) in;

layout(set = 0, binding = 0) uniform usamplerBuffer view0;
layout(set = 0, binding = 1) uniform usamplerBuffer view1;
layout(set = 0, binding = 2) uniform usamplerBuffer view2;
layout(set = 0, binding = 3) buffer Results { uint results[9]; };

void main() {
  const int n0 = textureSize(view0), n1 = textureSize(view1), n2 = textureSize(view2);
  results[0] = uint(n0), results[1] = texelFetch(view0, 0).x, results[2] = texelFetch(view0, n0 - 1).x;
  results[3] = uint(n1), results[4] = texelFetch(view1, 0).x, results[5] = texelFetch(view1, n1 - 1).x;
  results[6] = uint(n2), results[7] = texelFetch(view2, 0).x, results[8] = texelFetch(view2, n2 - 1).x;
}
