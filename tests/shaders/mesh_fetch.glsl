// A classic draw's vertex and index buffers read as storage buffers (set 0, bindings 0 and 1):
// ColoredVertex of tests/e2e/draw_scene.h (seven floats, 28 bytes) and 32-bit indices.
struct ColoredVertex {
  float x, y, z, r, g, b, a;
};
layout(std430, set = 0, binding = 0) readonly buffer Vertices { ColoredVertex vertices[]; };
layout(std430, set = 0, binding = 1) readonly buffer Indices { uint indices[]; };
vec4 fetched_position(uint i) { return vec4(vertices[i].x, vertices[i].y, vertices[i].z, 1.0); }
vec4 fetched_color(uint i) { return vec4(vertices[i].r, vertices[i].g, vertices[i].b, vertices[i].a); }
