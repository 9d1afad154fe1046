#version 460
#extension GL_GOOGLE_include_directive : require
// Switch statements on per-invocation selectors: fallthrough, a default in the middle that falls
// through, negative cases, a switch inside a loop using continue and break, and nested switches.
layout(local_size_x = 32) in;
#include "ops_results.glsl"

struct Case {
  int x;
  int y;
};
layout(set = 0, binding = 0) readonly buffer Cases { Case cases[]; };

int classify(int x) {
  int r = 0;
  switch (x) {
    case -2:
      r += 1;  // falls through
    case -1:
      r += 10;
      break;
    case 0:
    case 1:
      r += 100;
      break;
    default:
      r += 1000;  // falls through
    case 7:
      r += 10000;
      break;
    case 9:
      r = -5;
      break;
  }
  return r;
}

int in_loop(int x) {
  int acc = 0;
  for (int n = 0; n < 6; ++n) {
    switch ((x + n) & 3) {
      case 0:
        acc += 1;
        continue;  // the loop's next iteration
      case 1:
        acc *= 2;  // falls through
      case 2:
        acc += n;
        break;     // leaves the switch only
      default:
        if (acc > 12) n = 10;  // ends the loop after this iteration
        acc -= 3;
        break;
    }
    acc += 100;
  }
  return acc;
}

int nested(int x, int y) {
  switch (uint(y) % 5u) {
    case 0u:
      switch (x & 1) {
        case 0: return 1;
        default: return 2;
      }
    case 3u:
      switch (x % 3) {
        default: break;  // only a default
      }
      return 3;
    default:
      return y * 10 + (x & 7);
  }
}

void main() {
  begin_results();
  const Case c = cases[gl_GlobalInvocationID.x];
  emit(classify(c.x));
  emit(classify(c.y));
  emit(in_loop(c.x));
  emit(nested(c.x, c.y));
  finish_results();
}
