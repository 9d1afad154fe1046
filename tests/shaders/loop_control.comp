#version 460
// Divergent control flow: every invocation runs its own trip count through a loop with continue
// and break, an if/else on the invocation's parity, and a helper function that returns early
// from inside a loop (the shape merge-return and inlining must handle).
// out_values[i] = result of the loop below for in_counts[i].
layout(local_size_x = 32) in;

layout(set = 0, binding = 0) readonly buffer Counts { uint in_counts[]; };
layout(set = 0, binding = 1) writeonly buffer Results { uint out_values[]; };

// First j in [0, limit) with j * j > threshold, or limit when there is none.
uint first_square_above(uint threshold, uint limit) {
  for (uint j = 0; j < limit; ++j) {
    if (j * j > threshold) return j;
  }
  return limit;
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint count = in_counts[i];
  uint sum = 0;
  for (uint j = 0; j < count; ++j) {
    if (j % 3 == 0) continue;   // skip multiples of three
    if (sum > 1000) break;      // stop once the sum is large
    sum += j;
  }
  if ((i & 1u) == 0) {
    sum = sum * 2;
  } else {
    sum = sum + first_square_above(count, 64);
  }
  out_values[i] = sum;
}
