#version 460
// Each fragment prints its FragCoord.
#extension GL_EXT_debug_printf : require
layout(location = 0) out vec4 color;
void main() {
  debugPrintfEXT("frag %.1f %.1f", gl_FragCoord.x, gl_FragCoord.y);
  color = vec4(1.0);
}
