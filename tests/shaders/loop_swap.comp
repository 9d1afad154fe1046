#version 460
// Loop-carried variables that trade places every iteration (a swap and a three-way rotation):
// after SSA they are phis of the loop header whose inputs are each other, which must all be taken
// at once (the lost-copy problem). Invocation i runs counts[i] iterations, so lanes leave the loop
// at different times. results[i] = (a, b, x, y, z) packed as 5 words.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer Counts { uint counts[]; };
layout(set = 0, binding = 1) writeonly buffer Results { int results[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int a = 1, b = 2;
  int x = 10, y = 20, z = 30;
  for (uint k = 0; k < counts[i]; ++k) {
    int t = a;
    a = b;
    b = t + int(k);
    int u = x;
    x = y;
    y = z;
    z = u;
  }
  results[i * 5 + 0] = a;
  results[i * 5 + 1] = b;
  results[i * 5 + 2] = x;
  results[i * 5 + 3] = y;
  results[i * 5 + 4] = z;
}
