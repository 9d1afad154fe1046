#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Four combined image samplers of different formats, indexed per invocation (non-uniform): the
// kernel's call loop serves each lane from its own view's routine.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D textures[4];
layout(set = 0, binding = 1) buffer Results { vec4 v[]; } results;

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec2 centre = (vec2(i % 4u, (i / 4u) % 4u) + 0.5) / 4.0;
  results.v[i] = textureLod(textures[nonuniformEXT((i * 7u) % 4u)], centre, 0.0);
}
