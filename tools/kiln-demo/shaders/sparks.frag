#version 450
// A round, soft spark: opaque at the centre, fading to nothing at the quad's inscribed circle.
layout(location = 0) in vec4 colour_in;
layout(location = 1) in vec2 offset;
layout(location = 0) out vec4 colour;

void main() {
  const float d = length(offset);
  if (d >= 1.0) discard;
  colour = vec4(colour_in.rgb, colour_in.a * (1.0 - d) * (1.0 - d));
}
