#version 460
// Vertices 0-5: two triangles covering the viewport; 6-8: a triangle over the 6 pixels (x, y) of a
// 4x4 target with x + y <= 2 (no pixel centre near its edges). From VertexIndex alone; each
// vertex prints its position.
#extension GL_EXT_debug_printf : require
const vec2 kCorners[9] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(-1, 1), vec2(1, -1), vec2(1, 1),
                                vec2(-1, -1), vec2(0.9, -1), vec2(-1, 0.9));
void main() {
  vec2 p = kCorners[gl_VertexIndex];
  debugPrintfEXT("vertex %d at %v2f", gl_VertexIndex, p);
  gl_Position = vec4(p, 0.0, 1.0);
}
