// Texture sampling throughput in compute shaders (shaders/sample_texture.comp): one textureLod per
// pixel of a 1920x1080 grid, written as packed RGBA8, from a 1024x1024 texture seen through a
// clamp-to-edge sampler. Compute keeps the graphics pipeline out of the measurement. One unit of
// work is a sample (Mpixel/s = million samples per second).
//   sample_bilinear_rgba8   R8G8B8A8_UNORM, one level, linear filter (magnified 1.7x across rows)
//   sample_trilinear_rgba8  R8G8B8A8_UNORM, 11 levels, linear filter and linear mipmaps, LOD
//                           0.25..2.75 down the grid (two levels blended with varying weights)
//   sample_bc1_bilinear     BC1_RGB_UNORM, one level, linear filter
//   sample_bc7_bilinear     BC7_UNORM (mode 6 blocks), one level, linear filter
// Texels are pseudo-random (compressed: random endpoints and indices), so a misplaced texel or
// wrong weight shows. Check: every pixel against the host's filtering (in double) of the texels
// the host decodes, within 3/255 per channel (8-bit weights are common) — 5/255 for BC, whose
// decoders may round their interpolated colours to 8 bits first.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tools/kiln-bench/compute_helpers.h"
#include "kiln-bench-shaders/sample_texture.comp.spv.h"
#include "tools/kiln-bench/sampling_kernel.h"
#include "tools/kiln-bench/scenario.h"
#include "tools/kiln-bench/scenario_helpers.h"

namespace kiln::bench {
namespace {

constexpr uint32_t kTextureSize = 1024;
constexpr uint32_t kGridWidth = 1920, kGridHeight = 1080;
constexpr GroupCount kLocalSize{8, 8, 1};

// sample_texture.comp's push constants.
struct Grid {
  uint32_t width = kGridWidth, height = kGridHeight;
  float lod_base = 0, lod_per_row = 0;
  float scale[2] = {0.9f, 0.9f};
  float origin[2] = {0.05f, 0.05f};
};

using Rgba = std::array<float, 4>;

// A texture as the GPU stores it (levels of texels or blocks) and as the host decodes it.
struct Texture {
  SamplingTextureDesc desc;
  std::vector<std::vector<uint8_t>> stored;
  std::vector<std::vector<Rgba>> decoded;  // per level, row-major texels
  uint32_t level_size(uint32_t level) const { return std::max(kTextureSize >> level, 1u); }
};

uint32_t random_word(uint64_t& state) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return uint32_t(state >> 32);
}

// RGBA8 with `levels` levels: level 0 random, each further level the 2x2 box average of the previous.
Texture rgba8_texture(uint32_t levels, VkSamplerMipmapMode mipmap_mode) {
  Texture t;
  t.desc = {VK_FORMAT_R8G8B8A8_UNORM, kTextureSize, kTextureSize, VK_FILTER_LINEAR, mipmap_mode};
  uint64_t state = 0x5eed;
  std::vector<uint8_t> level(size_t(kTextureSize) * kTextureSize * 4);
  for (uint8_t& b : level) b = uint8_t(random_word(state) >> 24);
  for (uint32_t l = 0; l < levels; ++l) {
    const uint32_t n = t.level_size(l);
    if (l > 0) {
      std::vector<uint8_t> next(size_t(n) * n * 4);
      const std::vector<uint8_t>& prev = t.stored.back();
      for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x)
          for (uint32_t c = 0; c < 4; ++c) {
            uint32_t sum = 0;
            for (uint32_t k = 0; k < 4; ++k) sum += prev[((2 * y + k / 2) * 2 * n + 2 * x + k % 2) * 4 + c];
            next[(y * n + x) * 4 + c] = uint8_t((sum + 2) / 4);
          }
      level = std::move(next);
    }
    std::vector<Rgba> decoded(size_t(n) * n);
    for (size_t i = 0; i < decoded.size(); ++i)
      for (uint32_t c = 0; c < 4; ++c) decoded[i][c] = level[i * 4 + c] / 255.0f;
    t.stored.push_back(level);
    t.decoded.push_back(std::move(decoded));
  }
  return t;
}

// Block-compressed texture of one level: `encode(block bytes, rng)` writes a random block and
// `decode(block bytes, texels[16])` decodes it as the spec describes.
template <size_t kBlockBytes, typename Encode, typename Decode>
Texture compressed_texture(VkFormat format, Encode encode, Decode decode) {
  Texture t;
  t.desc = {format, kTextureSize, kTextureSize, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST};
  const uint32_t blocks = kTextureSize / 4;
  std::vector<uint8_t> bytes(size_t(blocks) * blocks * kBlockBytes);
  std::vector<Rgba> decoded(size_t(kTextureSize) * kTextureSize);
  uint64_t state = 0xb10c;
  for (uint32_t by = 0; by < blocks; ++by)
    for (uint32_t bx = 0; bx < blocks; ++bx) {
      uint8_t* block = &bytes[(size_t(by) * blocks + bx) * kBlockBytes];
      encode(block, state);
      Rgba texels[16];
      decode(block, texels);
      for (uint32_t k = 0; k < 16; ++k) decoded[size_t(by * 4 + k / 4) * kTextureSize + bx * 4 + k % 4] = texels[k];
    }
  t.stored.push_back(std::move(bytes));
  t.decoded.push_back(std::move(decoded));
  return t;
}

// BC1: two RGB565 endpoints with c0 > c1 (four-colour mode) and 2-bit indices.
Texture bc1_texture() {
  auto encode = [](uint8_t* block, uint64_t& state) {
    uint16_t c0 = uint16_t(random_word(state)), c1 = uint16_t(random_word(state));
    if (c0 == c1) c1 ^= 1;
    if (c0 < c1) std::swap(c0, c1);
    const uint32_t indices = random_word(state);
    std::memcpy(block, &c0, 2);
    std::memcpy(block + 2, &c1, 2);
    std::memcpy(block + 4, &indices, 4);
  };
  auto decode = [](const uint8_t* block, Rgba* texels) {
    uint16_t c[2];
    uint32_t indices;
    std::memcpy(c, block, 4);
    std::memcpy(&indices, block + 4, 4);
    Rgba e[2];
    for (int k = 0; k < 2; ++k) e[k] = {((c[k] >> 11) & 31) / 31.0f, ((c[k] >> 5) & 63) / 63.0f, (c[k] & 31) / 31.0f, 1.0f};
    for (uint32_t i = 0; i < 16; ++i) {
      const uint32_t index = (indices >> (2 * i)) & 3;
      const float w = index == 0 ? 0.0f : index == 1 ? 1.0f : index == 2 ? 1.0f / 3 : 2.0f / 3;
      for (int ch = 0; ch < 4; ++ch) texels[i][ch] = e[0][ch] * (1 - w) + e[1][ch] * w;
    }
  };
  return compressed_texture<8>(VK_FORMAT_BC1_RGB_UNORM_BLOCK, encode, decode);
}

// BC7 mode 6: one subset, RGBA endpoints of 7 bits plus a per-endpoint p-bit, 4-bit indices (the
// first one 3 bits). Bits from the least significant of byte 0: mode (0000001), R0 R1 G0 G1 B0 B1
// A0 A1 (7 each), P0, P1, then the indices.
Texture bc7_texture() {
  struct Bits {
    uint8_t* bytes;
    uint32_t at = 0;
    void put(uint32_t value, uint32_t count) {
      for (uint32_t i = 0; i < count; ++i, ++at)
        if ((value >> i) & 1) bytes[at / 8] |= uint8_t(1u << (at % 8));
    }
  };
  auto get = [](const uint8_t* bytes, uint32_t at, uint32_t count) {
    uint32_t v = 0;
    for (uint32_t i = 0; i < count; ++i) v |= uint32_t((bytes[(at + i) / 8] >> ((at + i) % 8)) & 1) << i;
    return v;
  };
  auto encode = [](uint8_t* block, uint64_t& state) {
    std::memset(block, 0, 16);
    Bits bits{block};
    bits.put(1u << 6, 7);
    for (int k = 0; k < 8; ++k) bits.put(random_word(state) >> 25, 7);
    bits.put(random_word(state) >> 30, 2);
    bits.put(random_word(state) >> 29, 3);
    for (int i = 1; i < 16; ++i) bits.put(random_word(state) >> 28, 4);
  };
  auto decode = [get](const uint8_t* block, Rgba* texels) {
    static constexpr uint32_t kWeights[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};
    uint32_t e[2][4];
    for (uint32_t ch = 0; ch < 4; ++ch)
      for (uint32_t k = 0; k < 2; ++k) e[k][ch] = get(block, 7 + (ch * 2 + k) * 7, 7) << 1;
    for (uint32_t k = 0; k < 2; ++k)
      for (uint32_t ch = 0; ch < 4; ++ch) e[k][ch] |= get(block, 63 + k, 1);
    for (uint32_t i = 0, at = 65; i < 16; ++i) {
      const uint32_t width = i == 0 ? 3 : 4;
      const uint32_t w = kWeights[get(block, at, width)];
      at += width;
      for (uint32_t ch = 0; ch < 4; ++ch) texels[i][ch] = float(((64 - w) * e[0][ch] + w * e[1][ch] + 32) >> 6) / 255.0f;
    }
  };
  return compressed_texture<16>(VK_FORMAT_BC7_UNORM_BLOCK, encode, decode);
}

// The host's textureLod (spec formulas, clamp to edge), as packed RGBA8.
uint32_t reference_sample(const Texture& t, double s, double u_t, double lod) {
  auto bilinear = [&](uint32_t level, std::array<double, 4>& out, double weight) {
    const int64_t n = t.level_size(level);
    const double u = s * n - 0.5, v = u_t * n - 0.5;
    const int64_t i0 = int64_t(std::floor(u)), j0 = int64_t(std::floor(v));
    const double a = u - std::floor(u), b = v - std::floor(v);
    for (int k = 0; k < 4; ++k) {
      const int64_t i = std::clamp<int64_t>(i0 + k % 2, 0, n - 1), j = std::clamp<int64_t>(j0 + k / 2, 0, n - 1);
      const double w = weight * (k % 2 ? a : 1 - a) * (k / 2 ? b : 1 - b);
      const Rgba& texel = t.decoded[level][size_t(j * n + i)];
      for (int c = 0; c < 4; ++c) out[c] += w * texel[c];
    }
  };
  const double q = double(t.decoded.size() - 1);
  const double d = std::clamp(lod, 0.0, q);
  std::array<double, 4> sum{};
  if (t.desc.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST) {
    bilinear(uint32_t(d <= 0.5 ? 0 : std::ceil(d + 0.5) - 1), sum, 1.0);
  } else {
    const uint32_t hi = uint32_t(std::floor(d)), lo = std::min<uint32_t>(hi + 1, uint32_t(q));
    bilinear(hi, sum, 1.0 - (d - hi));
    if (d > hi) bilinear(lo, sum, d - hi);
  }
  uint32_t packed = 0;
  for (int c = 0; c < 4; ++c) packed |= uint32_t(std::lround(std::clamp(sum[c], 0.0, 1.0) * 255)) << (8 * c);
  return packed;
}

struct BilinearRgba8 {
  static constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;
  static constexpr VkSamplerMipmapMode kMipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  static Texture texture() { return rgba8_texture(1, kMipmapMode); }
  static Grid grid() { return {}; }
  static constexpr uint32_t kTolerance = 3;
};
struct TrilinearRgba8 {
  static constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;
  static constexpr VkSamplerMipmapMode kMipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  static Texture texture() { return rgba8_texture(11, kMipmapMode); }
  static Grid grid() {
    Grid g;
    g.lod_base = 0.25f;
    g.lod_per_row = 2.5f / kGridHeight;
    return g;
  }
  static constexpr uint32_t kTolerance = 3;
};
struct Bc1Bilinear {
  static constexpr VkFormat kFormat = VK_FORMAT_BC1_RGB_UNORM_BLOCK;
  static constexpr VkSamplerMipmapMode kMipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  static Texture texture() { return bc1_texture(); }
  static Grid grid() { return {}; }
  static constexpr uint32_t kTolerance = 5;
};
struct Bc7Bilinear {
  static constexpr VkFormat kFormat = VK_FORMAT_BC7_UNORM_BLOCK;
  static constexpr VkSamplerMipmapMode kMipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  static Texture texture() { return bc7_texture(); }
  static Grid grid() { return {}; }
  static constexpr uint32_t kTolerance = 5;
};

template <typename Config>
class SampleTexture final : public CommandScenario {
 public:
  static std::optional<std::string> unsupported_reason(const tools::VulkanContext& context) {
    const SamplingTextureDesc desc{Config::kFormat, kTextureSize, kTextureSize, VK_FILTER_LINEAR, Config::kMipmapMode};
    if (auto reason = missing_sampling_support(context, desc)) return reason;
    return missing_compute_support(context, {.local_size = kLocalSize,
                                             .workgroups = workgroups(),
                                             .storage_buffer_range = pixel_count() * 4,
                                             .push_constant_bytes = sizeof(Grid)});
  }

  explicit SampleTexture(tools::VulkanContext& context)
      : texture_(Config::texture()),
        grid_(Config::grid()),
        pixels_(make_storage_buffer(context, pixel_count() * 4)),
        kernel_(context, texture_.desc, texture_.stored, spirv_code(sample_texture_comp_spirv), pixels_, sizeof(Grid)) {
    expected_.resize(pixel_count());
    for (uint32_t y = 0; y < kGridHeight; ++y)
      for (uint32_t x = 0; x < kGridWidth; ++x) {
        // The shader's arithmetic in float, so coordinates agree to the last bit.
        const float s = (float(x) + 0.5f) / float(kGridWidth) * grid_.scale[0] + grid_.origin[0];
        const float t = (float(y) + 0.5f) / float(kGridHeight) * grid_.scale[1] + grid_.origin[1];
        const float lod = grid_.lod_base + grid_.lod_per_row * float(y);
        expected_[size_t(y) * kGridWidth + x] = reference_sample(texture_, s, t, lod);
      }
  }

  void record_repetition(VkCommandBuffer cmd) override { kernel_.record_dispatch(cmd, workgroups(), &grid_); }

  double work_per_repetition() const override { return double(pixel_count()) / 1e6; }

  void poison_output(tools::VulkanContext&) override {
    std::fill_n(static_cast<uint32_t*>(pixels_.mapped()), pixel_count(), kPoisonWord);
  }

  std::optional<std::string> verify_output(tools::VulkanContext&) override {
    const uint32_t* got = static_cast<const uint32_t*>(pixels_.mapped());
    for (size_t i = 0; i < pixel_count(); ++i)
      if (auto wrong = rgba8_mismatch(i, got[i], expected_[i], Config::kTolerance)) return wrong;
    return std::nullopt;
  }

 private:
  static size_t pixel_count() { return size_t(kGridWidth) * kGridHeight; }
  static GroupCount workgroups() {
    return {(kGridWidth + kLocalSize.x - 1) / kLocalSize.x, (kGridHeight + kLocalSize.y - 1) / kLocalSize.y, 1};
  }

  const Texture texture_;
  const Grid grid_;
  std::vector<uint32_t> expected_;
  tools::Buffer pixels_;
  SamplingKernel kernel_;
};

using SampleBilinearRgba8 = SampleTexture<BilinearRgba8>;
using SampleTrilinearRgba8 = SampleTexture<TrilinearRgba8>;
using SampleBc1Bilinear = SampleTexture<Bc1Bilinear>;
using SampleBc7Bilinear = SampleTexture<Bc7Bilinear>;

}  // namespace

KILN_BENCH_SCENARIO(SampleBilinearRgba8, "sample_bilinear_rgba8", "Mpixel/s",
                    "compute: 1920x1080 textureLod of a 1024x1024 RGBA8 texture, bilinear, clamp to edge");
KILN_BENCH_SCENARIO(SampleTrilinearRgba8, "sample_trilinear_rgba8", "Mpixel/s",
                    "compute: 1920x1080 textureLod of a mipmapped 1024x1024 RGBA8 texture, trilinear, LOD 0.25..2.75");
KILN_BENCH_SCENARIO(SampleBc1Bilinear, "sample_bc1_bilinear", "Mpixel/s",
                    "compute: 1920x1080 textureLod of a 1024x1024 BC1 texture, bilinear");
KILN_BENCH_SCENARIO(SampleBc7Bilinear, "sample_bc7_bilinear", "Mpixel/s",
                    "compute: 1920x1080 textureLod of a 1024x1024 BC7 (mode 6) texture, bilinear");

}  // namespace kiln::bench
