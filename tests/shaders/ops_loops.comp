#version 460
#extension GL_GOOGLE_include_directive : require
// Nested loops with per-invocation trip counts: break and continue at both levels, a do-while
// with a data-dependent exit, and a return from inside two loops.
layout(local_size_x = 32) in;
#include "ops_results.glsl"

struct Case {
  uint a;  // 0..15
  uint b;  // 0..15
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

uint nested_sum(uint a, uint b) {
  uint total = 0;
  for (uint outer = 0; outer < a; ++outer) {
    if (outer % 4u == 3u) continue;
    uint inner = 0;
    while (true) {
      if (inner >= b) break;
      ++inner;
      if ((inner + outer) % 3u == 0u) continue;
      total += inner * (outer + 1u);
      if (total > 500u) break;
    }
    if (total > 800u) break;
  }
  return total;
}

uint collatz_steps(uint n) {
  uint steps = 0;
  do {
    n = (n % 2u == 0u) ? n / 2u : 3u * n + 1u;
    ++steps;
  } while (n != 1u && steps < 200u);
  return steps;
}

uint find_pair(uint a, uint b) {
  for (uint i = 0; i < 8u; ++i)
    for (uint j = 0; j < 8u; ++j)
      if (i * a + j * b == 20u) return i * 8u + j;
  return 999u;
}

uint triangle(uint a, uint b) {
  uint count = 0;
  for (uint i = 0; i < a; ++i) {
    for (uint j = 0; j < i; ++j) {
      if (j == b) break;
      for (uint k = j; k < i; ++k) {
        if ((i ^ k) == 5u) continue;
        count += k + 1u;
      }
    }
  }
  return count;
}

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  emit(nested_sum(c.a, c.b));
  emit(collatz_steps(c.a * 7u + c.b + 1u));
  emit(find_pair(c.a % 5u, c.b % 7u));
  emit(triangle(c.a, c.b));
  finish_results();
}
