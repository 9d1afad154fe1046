#version 450
// A point light's shadow map in one pass: invocation k projects the triangle with cube face k's
// view-projection and sends it to layer k. Every face gets every triangle; the clipper drops
// what falls outside its frustum. Depth only (the pipeline has no fragment shader).
layout(triangles, invocations = 6) in;
layout(triangle_strip, max_vertices = 3) out;

layout(push_constant) uniform Light {
  vec4 position;  // world space, w unused
  float near;
  float far;
} light;

// The cube map faces of the Vulkan spec ("Cube Map Face Selection"): per face, the world axes
// that become its s and t coordinates and its major axis (+X, -X, +Y, -Y, +Z, -Z). Projecting
// with them makes layer k exactly the face a samplerCube reads for directions in it.
const vec3 kFaceS[6] = vec3[](vec3(0, 0, -1), vec3(0, 0, 1), vec3(1, 0, 0), vec3(1, 0, 0), vec3(1, 0, 0),
                              vec3(-1, 0, 0));
const vec3 kFaceT[6] = vec3[](vec3(0, -1, 0), vec3(0, -1, 0), vec3(0, 0, 1), vec3(0, 0, -1), vec3(0, -1, 0),
                              vec3(0, -1, 0));
const vec3 kFaceMajor[6] = vec3[](vec3(1, 0, 0), vec3(-1, 0, 0), vec3(0, 1, 0), vec3(0, -1, 0), vec3(0, 0, 1),
                                  vec3(0, 0, -1));

// A 90-degree perspective looking along the face's major axis from the light: x = s, y = t,
// w = distance along the axis, depth 0 at `near` and 1 at `far`.
mat4 face_view_projection(int face) {
  const float depth_scale = light.far / (light.far - light.near);
  const vec3 s = kFaceS[face], t = kFaceT[face], major = kFaceMajor[face];
  const mat4 view = mat4(vec4(s.x, t.x, major.x, 0), vec4(s.y, t.y, major.y, 0), vec4(s.z, t.z, major.z, 0),
                         vec4(-dot(s, light.position.xyz), -dot(t, light.position.xyz),
                              -dot(major, light.position.xyz), 1));
  const mat4 projection = mat4(vec4(1, 0, 0, 0), vec4(0, 1, 0, 0), vec4(0, 0, depth_scale, 1),
                               vec4(0, 0, -depth_scale * light.near, 0));
  return projection * view;
}

void main() {
  const mat4 view_projection = face_view_projection(gl_InvocationID);
  for (int i = 0; i < 3; ++i) {
    gl_Position = view_projection * gl_in[i].gl_Position;
    gl_Layer = gl_InvocationID;
    EmitVertex();
  }
  EndPrimitive();
}
