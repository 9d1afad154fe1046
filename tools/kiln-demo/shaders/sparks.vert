#version 450
#extension GL_GOOGLE_include_directive : require
// Spark gl_VertexIndex from the buffer sparks.comp wrote this frame, to the geometry shader.
#include "scene.glsl"
#include "sparks.glsl"
layout(std430, set = 0, binding = 0) readonly buffer Sparks { Spark sparks[]; };
layout(location = 0) out vec4 colour;
layout(location = 1) out float radius;

void main() {
  const Spark spark = sparks[gl_VertexIndex];
  gl_Position = scene.view_projection * vec4(spark.position.xyz, 1.0);
  colour = spark.colour;
  radius = spark.position.w;
}
