#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_clustered : require
// Subgroup operations on the extended types, clustered reductions included (see the include).
#define KILN_WITH_CLUSTERED_OPS
#include "subgroup_extended_types.glsl"
