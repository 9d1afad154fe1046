#version 450
// Multisampled storage images (shaderStorageImageMultisample), storage_image_multisample_test.cpp:
// every invocation stores four samples of its pixel, adds to four counters, then loads them all
// back into the results buffer, with the image's sample count.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba32f) uniform image2DMS colors;
layout(set = 0, binding = 1, r32ui) uniform uimage2DMS counters;
layout(set = 0, binding = 2, std430) buffer Results {
  uint sample_count;
  uint pad[3];
  vec4 loaded[256];
  uint counted[256];
} results;

void main() {
  const ivec2 p = ivec2(gl_LocalInvocationID.xy);
  const uint pixel = uint(p.y * 8 + p.x);
  for (int s = 0; s < 4; ++s) {
    imageStore(colors, p, s, vec4(p.x, p.y, s, 100 + pixel));
    imageAtomicAdd(counters, p, s, uint(s + 1));
    imageAtomicAdd(counters, p, s, 10u * pixel);
  }
  for (int s = 0; s < 4; ++s) {
    results.loaded[pixel * 4 + s] = imageLoad(colors, p, s);
    results.counted[pixel * 4 + s] = imageLoad(counters, p, s).x;
  }
  if (pixel == 0) results.sample_count = uint(imageSamples(colors));
}
