#pragma once
// Facts about the host CPU that the whole driver agrees on.
#include <cstdint>

namespace kiln {

// SIMD width W of shader kernels (= subgroup size): 16 with AVX-512, 8 with AVX2, else 4;
// KILN_SIMD_WIDTH=4|8|16 overrides.
uint32_t host_simd_width();

// Bytes of physical RAM.
uint64_t host_memory_bytes();

}  // namespace kiln
