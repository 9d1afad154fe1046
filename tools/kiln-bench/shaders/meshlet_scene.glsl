// The push constants of the mesh shading scenarios' pipelines (meshlet_scene.h: SceneCamera), one
// block that every stage sees, and the transform both the vertex and the mesh shader use.
layout(push_constant) uniform Camera {
  mat4 view_projection;  // world to clip space
  vec4 position;         // the eye (xyz)
  vec4 light;            // xyz: unit vector towards the light
} camera;

// World to clip space. `precise`: no fused multiply-adds, so the vertex and the mesh shader
// compute the same bits and the two pipelines draw the same image.
vec4 clip_position(vec3 world) {
  precise vec4 clip = camera.view_projection * vec4(world, 1.0);
  return clip;
}
