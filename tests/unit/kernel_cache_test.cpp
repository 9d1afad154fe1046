#include "compiler/kernel_cache.h"

#include <gtest/gtest.h>

#include <random>

namespace kiln::compiler {
namespace {

std::shared_ptr<CachedKernel> sample_kernel(uint32_t seed) {
  auto k = std::make_shared<CachedKernel>();
  k->symbol = "kiln_compute_" + std::to_string(seed);
  k->simd_width = 8;
  k->info.local_size[0] = 64 + seed;
  k->info.shared_memory_bytes = 512;
  k->info.uses_barrier = seed % 2;
  k->object.assign(100 + seed, static_cast<char>(seed));
  return k;
}

TEST(KernelCache, SerializedEntriesComeBackIdentical) {
  KernelCache a;
  a.insert(11, sample_kernel(1));
  a.insert(22, sample_kernel(2));
  const std::vector<uint8_t> bytes = a.serialize("skylake-avx512");
  KernelCache b;
  ASSERT_TRUE(b.deserialize(bytes, "skylake-avx512"));
  ASSERT_EQ(b.size(), 2u);
  auto k = b.find(22);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->symbol, "kiln_compute_2");
  EXPECT_EQ(k->info.local_size[0], 66u);
  EXPECT_EQ(k->info.shared_memory_bytes, 512u);
  EXPECT_FALSE(k->info.uses_barrier);
  EXPECT_EQ(k->object, std::vector<char>(102, 2));
  EXPECT_FALSE(b.find(33));
}

TEST(KernelCache, GraphicsStageInfoComesBackIdentical) {
  auto vertex = sample_kernel(3);
  vertex->stage = ShaderStage::Vertex;
  vertex->vertex_outputs.slot_count = 6;
  vertex->vertex_outputs.point_size_slot = 3;
  vertex->vertex_outputs.clip_distance_slot = 4;
  vertex->vertex_outputs.clip_distance_count = 5;
  vertex->vertex_outputs.location_slot[7] = 1;
  auto fragment = sample_kernel(4);
  fragment->stage = ShaderStage::Fragment;
  fragment->fragment.input_location_mask = 0x5;
  fragment->fragment.input_components[2] = 0x6;
  fragment->fragment.interpolation[2] = abi::Interpolation::NoPerspective;
  fragment->fragment.centroid_mask = 4;
  fragment->fragment.output_location_mask = 3;
  fragment->fragment.output_type[1] = 2;
  fragment->fragment.writes_depth = true;
  fragment->fragment.depth_replacing_mode_greater = true;
  fragment->fragment.interpolates_at_positions = true;
  KernelCache a;
  a.insert(1, vertex);
  a.insert(2, fragment);
  KernelCache b;
  ASSERT_TRUE(b.deserialize(a.serialize("cpu"), "cpu"));
  auto v = b.find(1);
  auto f = b.find(2);
  ASSERT_TRUE(v && f);
  EXPECT_EQ(v->stage, ShaderStage::Vertex);
  EXPECT_EQ(v->vertex_outputs.slot_count, 6u);
  EXPECT_EQ(v->vertex_outputs.point_size_slot, 3);
  EXPECT_EQ(v->vertex_outputs.clip_distance_slot, 4);
  EXPECT_EQ(v->vertex_outputs.clip_distance_count, 5u);
  EXPECT_EQ(v->vertex_outputs.layer_slot, -1);
  EXPECT_EQ(v->vertex_outputs.location_slot[7], 1);
  EXPECT_EQ(v->vertex_outputs.location_slot[0], -1);
  EXPECT_EQ(f->stage, ShaderStage::Fragment);
  EXPECT_EQ(f->fragment.input_location_mask, 0x5u);
  EXPECT_EQ(f->fragment.input_components[2], 0x6);
  EXPECT_EQ(f->fragment.interpolation[2], abi::Interpolation::NoPerspective);
  EXPECT_EQ(f->fragment.interpolation[0], abi::Interpolation::Smooth);
  EXPECT_EQ(f->fragment.centroid_mask, 4u);
  EXPECT_EQ(f->fragment.output_location_mask, 3u);
  EXPECT_EQ(f->fragment.output_type[1], 2);
  EXPECT_TRUE(f->fragment.writes_depth);
  EXPECT_TRUE(f->fragment.depth_replacing_mode_greater);
  EXPECT_TRUE(f->fragment.interpolates_at_positions);
  EXPECT_FALSE(f->fragment.can_discard);
}

// A mesh kernel's output places (compiler::MeshInfo) come back, and places outside the
// workgroup's shared memory make the whole cache data rejected (the engine reads through them).
TEST(KernelCache, MeshInfoComesBackAndMustStayInSharedMemory) {
  auto mesh = sample_kernel(5);
  mesh->stage = ShaderStage::Mesh;
  mesh->info.shared_memory_bytes = 4096;
  MeshInfo& m = mesh->mesh;
  m.payload_offset = 32;
  m.payload_bytes = 16;
  m.output = 3;
  m.max_vertices = 64;
  m.max_primitives = 126;
  m.outputs.slot_count = 2;
  m.outputs.location_slot[0] = 1;
  m.words.assign(8, MeshOutputWord{});
  m.words[0] = {48, 16, false};
  m.words[5] = {1072, 16, true};
  m.indices = {2096, 12};
  KernelCache a;
  a.insert(1, mesh);
  KernelCache b;
  ASSERT_TRUE(b.deserialize(a.serialize("cpu"), "cpu"));
  auto k = b.find(1);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->stage, ShaderStage::Mesh);
  EXPECT_EQ(k->mesh.payload_offset, 32u);
  EXPECT_EQ(k->mesh.payload_bytes, 16u);
  EXPECT_EQ(k->mesh.output, 3);
  EXPECT_EQ(k->mesh.max_primitives, 126u);
  ASSERT_EQ(k->mesh.words.size(), 8u);
  EXPECT_EQ(k->mesh.words[5].offset, 1072);
  EXPECT_TRUE(k->mesh.words[5].per_primitive);
  EXPECT_EQ(k->mesh.words[1].offset, -1);
  EXPECT_EQ(k->mesh.indices.offset, 2096);
  EXPECT_EQ(k->mesh.cull.offset, -1);
  EXPECT_EQ(k->mesh.outputs.location_slot[0], 1);

  m.indices = {4000, 12};  // primitive 125's indices would end past 4096 bytes
  KernelCache c;
  c.insert(1, mesh);
  KernelCache d;
  EXPECT_FALSE(d.deserialize(c.serialize("cpu"), "cpu"));
  EXPECT_EQ(d.size(), 0u);
}

// A task kernel has a payload and no outputs (its MeshInfo outputs are empty). Stored task kernels
// were once rejected on load for having no output slots, so every process compiled them again.
TEST(KernelCache, TaskKernelsComeBackWithTheirPayload) {
  auto task = sample_kernel(6);
  task->stage = ShaderStage::Task;
  task->info.shared_memory_bytes = 64;
  task->mesh.payload_offset = 16;
  task->mesh.payload_bytes = 48;
  KernelCache a;
  a.insert(1, task);
  KernelCache b;
  ASSERT_TRUE(b.deserialize(a.serialize("cpu"), "cpu"));
  auto k = b.find(1);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->stage, ShaderStage::Task);
  EXPECT_EQ(k->mesh.payload_offset, 16u);
  EXPECT_EQ(k->mesh.payload_bytes, 48u);

  task->mesh.payload_bytes = 52;  // past the end of shared memory
  KernelCache c;
  c.insert(1, task);
  EXPECT_FALSE(KernelCache().deserialize(c.serialize("cpu"), "cpu"));
}

TEST(KernelCache, DataForAnotherCpuIsIgnored) {
  KernelCache a;
  a.insert(1, sample_kernel(1));
  KernelCache b;
  EXPECT_FALSE(b.deserialize(a.serialize("znver4"), "skylake-avx512"));
  EXPECT_EQ(b.size(), 0u);
}

TEST(KernelCache, DamagedDataAddsNothingAndNeverCrashes) {
  KernelCache a;
  a.insert(1, sample_kernel(1));
  a.insert(2, sample_kernel(2));
  const std::vector<uint8_t> good = a.serialize("cpu");
  for (size_t cut = 0; cut < good.size(); cut += 7) {
    KernelCache b;
    EXPECT_FALSE(b.deserialize({good.data(), cut}, "cpu")) << "truncated at " << cut;
    EXPECT_EQ(b.size(), 0u);
  }
  std::mt19937 rng(42);
  for (int round = 0; round < 200; ++round) {
    std::vector<uint8_t> damaged = good;
    damaged[rng() % damaged.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    KernelCache b;
    b.deserialize(damaged, "cpu");  // may or may not be accepted (object bytes are opaque); must not crash
  }
  std::vector<uint8_t> noise(300);
  for (auto& byte : noise) byte = static_cast<uint8_t>(rng());
  KernelCache c;
  EXPECT_FALSE(c.deserialize(noise, "cpu"));
}

TEST(KernelCache, MergeKeepsEveryEntry) {
  KernelCache a, b;
  a.insert(1, sample_kernel(1));
  b.insert(2, sample_kernel(2));
  b.insert(1, sample_kernel(3));  // same key: the existing entry is kept
  a.merge(b);
  EXPECT_EQ(a.size(), 2u);
  EXPECT_EQ(a.find(1)->symbol, "kiln_compute_1");
}

}  // namespace
}  // namespace kiln::compiler
