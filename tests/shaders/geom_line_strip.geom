#version 450
// One line strip of four vertices whose positions and colours come from a uniform buffer; the
// colour is flat, so each segment takes its provoking vertex's.
layout(points) in;
layout(line_strip, max_vertices = 4) out;
layout(location = 0) flat out vec4 g_color;
layout(set = 0, binding = 0) uniform Strip {
  vec4 position[4];
  vec4 color[4];
} strip;
void main() {
  for (int k = 0; k < 4; ++k) {
    gl_Position = strip.position[k];
    g_color = strip.color[k];
    EmitVertex();
  }
}
