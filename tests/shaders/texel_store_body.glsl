// Shared body of the texel_store_*.comp tests (FORMAT, IMAGE and VEC defined by the includer):
// each invocation stores its value into the storage texel buffer `dst` and copies its texel of
// the storage texel buffer `src` (same format) out through imageLoad.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, FORMAT) uniform writeonly IMAGE dst;
layout(set = 0, binding = 1, FORMAT) uniform readonly IMAGE src;
layout(set = 0, binding = 2, std430) buffer Values {
  VEC values[];   // stored into dst
};
layout(set = 0, binding = 3, std430) writeonly buffer Loaded {
  VEC loaded[];   // read from src
};

void main() {
  const int i = int(gl_GlobalInvocationID.x);
  if (i >= imageSize(dst)) return;
  imageStore(dst, i, values[i]);
  loaded[i] = imageLoad(src, i);
}
