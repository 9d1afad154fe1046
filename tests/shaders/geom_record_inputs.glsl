// Body of the geom_inputs_*.geom shaders (each declares its input primitive first): writes the
// VertexIndex of each vertex in gl_in, in gl_in's order, to
// order[first_slot + PrimitiveIdIn * gl_in.length() + k] and emits nothing.
layout(points, max_vertices = 1) out;
layout(location = 0) flat in int v_index[];
layout(location = 0) flat out vec4 g_color;  // never emitted; the fragment shader's input
layout(set = 0, binding = 0) buffer Order { int order[]; };
layout(push_constant) uniform Push { int first_slot; } push;
void main() {
  const int n = gl_in.length();
  for (int k = 0; k < n; ++k) order[push.first_slot + gl_PrimitiveIDIn * n + k] = v_index[k];
}
