#version 460
// Strict mode's out-of-bounds reports (e2e StrictModeTest): y[i] = x[i + shift] through a function,
// which Kiln's optimizer inlines (renumbering what it copies). With shift > 0 the last invocations
// read past x's end; with y bound shorter than the dispatch the last ones write past y's.
// Compiled with -g (".debug." in the name): the module has OpLine, so reports name this file's lines.
layout(local_size_x = 16) in;

layout(set = 0, binding = 0) readonly buffer XBuffer { uint x[]; };
layout(set = 0, binding = 1) writeonly buffer YBuffer { uint y[]; };
layout(push_constant) uniform Push { uint shift; };

uint fetch(uint i) {
  return x[i + shift];  // line 13: the read
}

void main() {
  const uint i = gl_GlobalInvocationID.x;
  y[i] = fetch(i);  // line 18: the write
}
