#pragma once
// The data the demo's scene uploads once: the terrain's patch corners, the crate mesh and the
// ground texture (the shapes themselves are computed in the shaders: shaders/*.glsl).
#include <cstdint>
#include <vector>

namespace kiln::demo {

// Patches per side of the terrain grid (each 1 x 1 world units, covering -16 .. 16 in x and z).
inline constexpr uint32_t kTerrainPatchesPerSide = 32;

// Four (x, z) corners per patch, in the order shaders/terrain.tese expects:
// (x0, z0), (x1, z0), (x0, z1), (x1, z1).
std::vector<float> terrain_patch_corners();

// A unit cube (-0.5 .. 0.5) as a triangle list: per vertex position xyz, normal xyz, texcoord uv.
inline constexpr uint32_t kCrateVertexFloats = 8;
std::vector<float> crate_vertices();
inline constexpr uint32_t kCrateInstances = 10;  // shaders/crates.vert: kCrates

// The ground texture: kGroundTextureSize² RGBA8 words (red in the low byte), grass in patches of
// lighter and darker green, made from value noise so the terrain has detail at every distance.
inline constexpr uint32_t kGroundTextureSize = 512;
std::vector<uint32_t> ground_texels();

}  // namespace kiln::demo
