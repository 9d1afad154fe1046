#version 450
// Location 0 Index 1 next to an ordinary Location 1 output: no pipeline can blend with the second
// source then (maxFragmentDualSrcAttachments is 1), so Kiln's compiler drops it and Location 1
// keeps its output slot.
layout(location = 0) in vec4 v_color;
layout(location = 0, index = 0) out vec4 out_color;
layout(location = 0, index = 1) out vec4 out_source1;
layout(location = 1) out vec4 out_location1;
void main() {
  out_color = v_color;
  out_source1 = vec4(7.0);
  out_location1 = vec4(3.0);
}
