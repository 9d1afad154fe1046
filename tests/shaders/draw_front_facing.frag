#version 450
// Red when front-facing, green when back-facing, and nothing else of the primitive: the tile back
// end must not shade such triangles together in one call (draw_features_test.cpp).
layout(location = 0) out vec4 out_color;
void main() { out_color = gl_FrontFacing ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(0.0, 1.0, 0.0, 1.0); }
