// The sparks: particles.comp writes them each frame, sparks.vert reads them.
struct Spark {
  vec4 position;  // xyz: world; w: radius
  vec4 colour;    // rgb, and a: opacity at the centre
};
const uint kSparks = 1536;
