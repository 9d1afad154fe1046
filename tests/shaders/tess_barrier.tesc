#version 450
// 32 invocations per patch (more than one kernel call's lanes): each writes its id, waits at the
// barrier, and invocation 0 sets every level to (the sum of all 32 ids) / 124 = 4. Reading
// another invocation's output before it has been written would give a smaller level.
layout(vertices = 32) out;
layout(location = 0) out float c_id[];
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID % gl_PatchVerticesIn].gl_Position;
  c_id[gl_InvocationID] = float(gl_InvocationID);
  barrier();
  if (gl_InvocationID == 0) {
    float sum = 0.0;
    for (int i = 0; i < 32; ++i) sum += c_id[i];
    const float level = sum / 124.0;
    for (int i = 0; i < 4; ++i) gl_TessLevelOuter[i] = level;
    gl_TessLevelInner[0] = level;
    gl_TessLevelInner[1] = level;
  }
}
