#version 450
// A point sprite's centre (normalized device coordinates) and colour, passed to sprite.geom.
layout(location = 0) in vec2 centre;
layout(location = 1) in vec4 colour;

layout(location = 0) out vec4 sprite_colour;

void main() {
  gl_Position = vec4(centre, 0.5, 1.0);
  sprite_colour = colour;
}
