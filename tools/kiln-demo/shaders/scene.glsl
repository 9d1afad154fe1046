// What every stage of the demo's scene shares: the per-frame constants (camera.h: SceneConstants,
// one push-constant block all stages see), the terrain's shape and the lighting.
layout(push_constant) uniform Scene {
  mat4 view_projection;  // world to clip space (Vulkan: y down, depth 0..1)
  vec4 eye;              // xyz: the camera; w: the scene's time in seconds
  vec4 light;            // xyz: unit vector towards the sun; w: ambient light
  vec4 fog;              // rgb: the sky's colour; w: fog density per world unit
  vec4 projection;       // x, y: the projection's scale of view-space x and y; z, w unused
} scene;

const float kTerrainHalfSize = 16.0;  // the terrain covers x, z in [-16, 16]

// The terrain's height at world (x, z), and its gradient (d/dx, d/dz) in .yz.
vec3 terrain_height(vec2 p) {
  const float a = 0.55 * p.x, b = 0.45 * p.y, c = 1.3 * p.x + 0.7 * p.y;
  const float h = 0.7 * sin(a) * cos(b) + 0.18 * sin(c) + 0.006 * dot(p, p);
  const float dx = 0.7 * 0.55 * cos(a) * cos(b) + 0.18 * 1.3 * cos(c) + 0.012 * p.x;
  const float dz = -0.7 * 0.45 * sin(a) * sin(b) + 0.18 * 0.7 * cos(c) + 0.012 * p.y;
  return vec3(h, dx, dz);
}

// Sunlight (diffuse + a little specular) and distance fog toward the sky colour.
vec3 shade(vec3 albedo, vec3 normal, vec3 world, float shininess, float specular) {
  const vec3 n = normalize(normal);
  const vec3 to_eye = normalize(scene.eye.xyz - world);
  const float diffuse = max(dot(n, scene.light.xyz), 0.0);
  const vec3 halfway = normalize(to_eye + scene.light.xyz);
  const float highlight = diffuse > 0.0 ? pow(max(dot(n, halfway), 0.0), shininess) * specular : 0.0;
  const vec3 lit = albedo * (scene.light.w + (1.0 - scene.light.w) * diffuse) + vec3(highlight);
  const float fog = 1.0 - exp(-scene.fog.w * distance(scene.eye.xyz, world));
  return mix(lit, scene.fog.rgb, clamp(fog, 0.0, 1.0));
}
