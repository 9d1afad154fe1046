#version 460
#extension GL_GOOGLE_include_directive : require
// Subgroup operations on the extended types, without clustered reductions (see the include).
#include "subgroup_extended_types.glsl"
