#version 450
// Point sprites: each point becomes a screen-aligned quad (a 4-vertex strip) of its colour.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;

layout(push_constant) uniform Sprite {
  vec2 half_extent;  // of a quad, in normalized device coordinates
} sprite;

layout(location = 0) in vec4 sprite_colour[];
layout(location = 0) flat out vec4 colour;

const vec2 kCorners[4] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(1, 1));

void main() {
  for (int i = 0; i < 4; ++i) {
    gl_Position = gl_in[0].gl_Position + vec4(kCorners[i] * sprite.half_extent, 0, 0);
    colour = sprite_colour[0];
    EmitVertex();
  }
  EndPrimitive();
}
