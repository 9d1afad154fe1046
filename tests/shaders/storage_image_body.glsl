// Shared body of the storage_image_*.comp tests (FORMAT_LAYOUT, IMAGE, VEC defined by the includer).
// Each invocation copies its texel of `src` to the mirrored column of `dst` with its components
// reversed, reads past the bottom edge into `results` (robustImageAccess: zero, alpha 0 or 1),
// writes past the right edge (dropped) and records imageSize.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0 FORMAT_LAYOUT) uniform readonly IMAGE src;
layout(set = 0, binding = 1 FORMAT_LAYOUT) uniform writeonly IMAGE dst;
layout(set = 0, binding = 2, std430) buffer Results {
  ivec4 size;
  VEC out_of_bounds[];
};

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  const ivec2 extent = imageSize(src);
  const VEC v = imageLoad(src, p);
  imageStore(dst, ivec2(extent.x - 1 - p.x, p.y), v.wzyx);
  imageStore(dst, p + ivec2(extent.x, 0), VEC(1));
  imageStore(dst, ivec2(-1 - p.x, p.y), VEC(1));
  out_of_bounds[p.y * extent.x + p.x] = imageLoad(src, p + ivec2(0, extent.y));
  if (p == ivec2(0)) size = ivec4(extent, imageSize(dst));
}
