#version 460
#extension GL_GOOGLE_include_directive : require
// Arrays in function memory indexed by invocation-dependent values, read and written: a scalar
// array updated in a loop, an array of vectors written per component, a 2D array whose elements
// are swapped, and an array of structs sorted by insertion sort (nested loops, dynamic indices).
layout(local_size_x = 32) in;
#include "ops_results.glsl"

struct Item {
  uint key;
  float weight;
};

struct Case {
  uint seed;
  uint index;
  uint n;  // 0..20
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];

  uint values[16];
  for (uint k = 0; k < 16; ++k) values[k] = (c.seed * (k + 1u)) ^ k;
  for (uint t = 0; t < c.n; ++t) values[(c.seed + t * 7u) % 16u] += t * t + 1u;
  emit(values[c.index % 16u]);
  for (uint k = 0; k < 16; ++k) emit(values[k]);

  vec3 points[5];
  for (int k = 0; k < 5; ++k) points[k] = vec3(float(k), float(c.seed % 7u), float(uint(k) * c.n));
  points[c.index % 5u].y += 0.5;
  points[(c.index + 2u) % 5u][c.n % 3u] = -2.0;
  for (int k = 0; k < 5; ++k) emit(points[k]);

  int grid[4][4];
  for (int r = 0; r < 4; ++r)
    for (int col = 0; col < 4; ++col) grid[r][col] = r * 4 + col - int(c.seed % 9u);
  const uint r0 = c.index % 4u, c0 = (c.index / 4u) % 4u, r1 = c.n % 4u, c1 = c.seed % 4u;
  const int saved = grid[r0][c0];
  grid[r0][c0] = grid[r1][c1];
  grid[r1][c1] = saved;
  for (int r = 0; r < 4; ++r) emit(grid[r][0] + 100 * grid[r][1] - grid[r][2] * grid[r][3]);

  Item items[6];
  for (uint k = 0; k < 6; ++k) items[k] = Item((c.seed * (k * 2u + 3u)) % 11u, float(k) + 0.25);
  for (int k = 1; k < 6; ++k) {
    const Item current = items[k];
    int at = k - 1;
    while (at >= 0 && items[at].key > current.key) {
      items[at + 1] = items[at];
      --at;
    }
    items[at + 1] = current;
  }
  for (int k = 0; k < 6; ++k) {
    emit(items[k].key);
    emit(items[k].weight);
  }
  finish_results();
}
