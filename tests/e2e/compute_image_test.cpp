// Storage images and texel buffers in compute shaders: imageLoad/imageStore/imageSize of several
// formats and texel-buffer fetches/stores/atomics, compared with a host reference built with
// memory/format_pack, and out-of-bounds accesses under robustImageAccess (reads zero, writes
// dropped). Pixels come back through vkCmdCopyImageToBuffer.
#include <cstring>
#include <random>

#include "e2e/descriptor_pipeline.h"
#include "e2e/vk_fixture.h"
#include "memory/format_pack.h"

namespace kiln::test {
namespace {

class ComputeImageTest : public VulkanTest {
 protected:
  // A device with robustImageAccess (and maintenance4 for glslang's LocalSizeId).
  TestDevice& robust_device() {
    v13_ = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    v13_.maintenance4 = features().v13.maintenance4;
    v13_.robustImageAccess = VK_TRUE;
    enabled_ = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13_};
    enabled_.features.robustBufferAccess = features().core.features.robustBufferAccess;  // texel buffers
    DeviceOptions options;
    options.create_info_chain = &enabled_;
    return *create_device(options);
  }

  VkDescriptorSet make_set(TestDevice& device, const std::vector<VkDescriptorType>& types, VkDescriptorSetLayout* layout) {
    VkDevice d = device.handle();
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    std::vector<VkDescriptorPoolSize> sizes;
    for (uint32_t i = 0; i < types.size(); ++i) {
      bindings.push_back(compute_binding(i, types[i], 1));
      sizes.push_back({types[i], 1});
    }
    VkDescriptorSetLayoutCreateInfo li{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    li.bindingCount = static_cast<uint32_t>(bindings.size());
    li.pBindings = bindings.data();
    EXPECT_EQ(VK_SUCCESS, vkCreateDescriptorSetLayout(d, &li, nullptr, layout));
    VkDescriptorSetLayout l = *layout;
    device.defer_destroy([d, l] { vkDestroyDescriptorSetLayout(d, l, nullptr); });
    VkDescriptorPoolCreateInfo pi{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pi.maxSets = 1;
    pi.poolSizeCount = static_cast<uint32_t>(sizes.size());
    pi.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateDescriptorPool(d, &pi, nullptr, &pool));
    device.defer_destroy([d, pool] { vkDestroyDescriptorPool(d, pool, nullptr); });
    VkDescriptorSetAllocateInfo ai{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkAllocateDescriptorSets(d, &ai, &set));
    return set;
  }

  VkImageView make_view(TestDevice& device, const Image& image) {
    VkImageViewCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    info.image = image.image;
    info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    info.format = image.info.format;
    info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateImageView(device.handle(), &info, nullptr, &view));
    VkDevice d = device.handle();
    device.defer_destroy([d, view] { vkDestroyImageView(d, view, nullptr); });
    return view;
  }

  VkBufferView make_buffer_view(TestDevice& device, const Buffer& buffer, VkFormat format, VkDeviceSize range) {
    VkBufferViewCreateInfo info{.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    info.buffer = buffer.buffer;
    info.format = format;
    info.range = range;
    VkBufferView view = VK_NULL_HANDLE;
    EXPECT_EQ(VK_SUCCESS, vkCreateBufferView(device.handle(), &info, nullptr, &view));
    VkDevice d = device.handle();
    device.defer_destroy([d, view] { vkDestroyBufferView(d, view, nullptr); });
    return view;
  }

  VkPhysicalDeviceVulkan13Features v13_{};
  VkPhysicalDeviceFeatures2 enabled_{};
};

struct ImageCase {
  const char* shader;
  VkFormat format;
};

// Source texel values that survive a round trip through the format exactly.
VkClearColorValue source_value(VkFormat format, std::mt19937& rng) {
  VkClearColorValue v{};
  const fmt::ValueClass cls = fmt::value_class(format, VK_IMAGE_ASPECT_COLOR_BIT);
  for (int c = 0; c < 4; ++c) {
    if (cls == fmt::ValueClass::UInt) v.uint32[c] = rng() % 200000u;
    else if (cls == fmt::ValueClass::SInt) v.int32[c] = static_cast<int32_t>(rng() % 256) - 128;
    else v.float32[c] = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 1000.0f;
  }
  if (format == VK_FORMAT_R8G8B8A8_UNORM)
    for (float& f : v.float32) f = f < 0 ? -f : f;
  return v;
}

TEST_F(ComputeImageTest, StorageImagesLoadStoreAndSizeInEveryTestedFormat) {
  TestDevice& device = robust_device();
  constexpr uint32_t kWidth = 16, kHeight = 8;
  for (const ImageCase& c : {ImageCase{"storage_image_rgba8.comp", VK_FORMAT_R8G8B8A8_UNORM},
                             ImageCase{"storage_image_rgba16f.comp", VK_FORMAT_R16G16B16A16_SFLOAT},
                             ImageCase{"storage_image_rgba32ui.comp", VK_FORMAT_R32G32B32A32_UINT},
                             ImageCase{"storage_image_rgba8i.comp", VK_FORMAT_R8G8B8A8_SINT},
                             ImageCase{"storage_image_rgba8_snorm.comp", VK_FORMAT_R8G8B8A8_SNORM}}) {
    SCOPED_TRACE(c.shader);
    const uint32_t texel = texel_size(c.format);
    const VkImageUsageFlags usage =
        VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    const Image src = device.create_image(VK_IMAGE_TYPE_2D, c.format, {kWidth, kHeight, 1}, 1, 1, 0, usage);
    const Image dst = device.create_image(VK_IMAGE_TYPE_2D, c.format, {kWidth, kHeight, 1}, 1, 1, 0, usage);
    // Source texels packed on the host; the destination starts as a known pattern.
    std::mt19937 rng(7);
    std::vector<uint8_t> source(kWidth * kHeight * texel), background(kWidth * kHeight * texel, 0x5C);
    std::vector<VkClearColorValue> values(kWidth * kHeight);
    for (uint32_t i = 0; i < kWidth * kHeight; ++i) {
      values[i] = source_value(c.format, rng);
      ASSERT_TRUE(fmt::pack_color(c.format, values[i], source.data() + i * texel));
    }
    Buffer upload = device.create_buffer(source.size() * 2, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    memcpy(upload.mapped, source.data(), source.size());
    memcpy(upload.mapped + source.size(), background.data(), background.size());
    Buffer results = device.create_buffer(16 + kWidth * kHeight * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);

    VkDescriptorSetLayout layout;
    VkDescriptorSet set = make_set(device, {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                            VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, &layout);
    const VkDescriptorImageInfo images[2] = {{VK_NULL_HANDLE, make_view(device, src), VK_IMAGE_LAYOUT_GENERAL},
                                             {VK_NULL_HANDLE, make_view(device, dst), VK_IMAGE_LAYOUT_GENERAL}};
    for (uint32_t b = 0; b < 2; ++b) {
      VkWriteDescriptorSet w{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      w.dstSet = set;
      w.dstBinding = b;
      w.descriptorCount = 1;
      w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
      w.pImageInfo = &images[b];
      vkUpdateDescriptorSets(device.handle(), 1, &w, 0, nullptr);
    }
    write_buffers(device.handle(), set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
    SetsPipeline pipeline(device, c.shader, {layout});

    device.run_commands([&](VkCommandBuffer cmd) {
      for (const Image* image : {&src, &dst}) {
        transition(cmd, image->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        VkBufferImageCopy region{};
        region.bufferOffset = image == &src ? 0 : source.size();
        region.imageSubresource = layers(VK_IMAGE_ASPECT_COLOR_BIT, 0);
        region.imageExtent = {kWidth, kHeight, 1};
        vkCmdCopyBufferToImage(cmd, upload.buffer, image->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        transition(cmd, image->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                   VK_IMAGE_LAYOUT_GENERAL);
      }
      // 4x4 workgroups cover the image exactly.
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 0, nullptr);
      vkCmdDispatch(cmd, kWidth / 4, kHeight / 4, 1);
      shader_writes_to_host_barrier(cmd);
      transition(cmd, dst.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    });
    const std::vector<uint8_t> written =
        device.read_image(dst, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    ASSERT_EQ(written.size(), source.size());
    // Reference: texel (x, y) lands at (W-1-x, y) with its components reversed, re-packed.
    for (uint32_t y = 0; y < kHeight; ++y) {
      for (uint32_t x = 0; x < kWidth; ++x) {
        VkClearColorValue read{};
        ASSERT_TRUE(fmt::unpack_color(c.format, source.data() + (y * kWidth + x) * texel, &read));
        VkClearColorValue reversed{};
        for (int k = 0; k < 4; ++k) reversed.uint32[k] = read.uint32[3 - k];
        std::vector<uint8_t> expected(texel);
        ASSERT_TRUE(fmt::pack_color(c.format, reversed, expected.data()));
        const uint8_t* got = written.data() + (y * kWidth + (kWidth - 1 - x)) * texel;
        ASSERT_EQ(0, memcmp(got, expected.data(), texel)) << "texel (" << x << ", " << y << ")";
      }
    }
    const int32_t* size = reinterpret_cast<const int32_t*>(results.mapped);
    EXPECT_EQ(size[0], int32_t(kWidth));
    EXPECT_EQ(size[1], int32_t(kHeight));
    EXPECT_EQ(size[2], int32_t(kWidth));
    EXPECT_EQ(size[3], int32_t(kHeight));
    // Reads below the image: zero, alpha 0 or 1 (robustImageAccess).
    const fmt::ValueClass cls = fmt::value_class(c.format, VK_IMAGE_ASPECT_COLOR_BIT);
    const uint32_t one = cls == fmt::ValueClass::Float ? 0x3F800000u : 1u;
    const uint32_t* oob = reinterpret_cast<const uint32_t*>(results.mapped + 16);
    for (uint32_t i = 0; i < kWidth * kHeight; ++i) {
      EXPECT_EQ(oob[i * 4 + 0], 0u) << i;
      EXPECT_EQ(oob[i * 4 + 1], 0u) << i;
      EXPECT_EQ(oob[i * 4 + 2], 0u) << i;
      EXPECT_TRUE(oob[i * 4 + 3] == 0u || oob[i * 4 + 3] == one) << i;
    }
  }
}

TEST_F(ComputeImageTest, TexelBuffersFetchStoreAtomicsAndStayInRange) {
  TestDevice& device = robust_device();
  constexpr uint32_t kCount = 64;
  // Uniform texel buffer: RGBA8 UNORM texels; storage texel buffer: RGBA32F; counters: R32_UINT.
  Buffer src = device.create_buffer(kCount * 4 + 64, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  Buffer dst = device.create_buffer(kCount * 16 + 256, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, 0x5C);
  Buffer counters = device.create_buffer(16 + 64, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, 0);
  Buffer results = device.create_buffer(16 + kCount * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0xEE);
  for (uint32_t i = 0; i < kCount * 4 + 64; ++i) src.mapped[i] = static_cast<uint8_t>(i * 37 + 11);

  VkDescriptorSetLayout layout;
  VkDescriptorSet set = make_set(device, {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
                                          VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                 &layout);
  const VkBufferView views[3] = {make_buffer_view(device, src, VK_FORMAT_R8G8B8A8_UNORM, kCount * 4),
                                 make_buffer_view(device, dst, VK_FORMAT_R32G32B32A32_SFLOAT, kCount * 16),
                                 make_buffer_view(device, counters, VK_FORMAT_R32_UINT, 16)};
  for (uint32_t b = 0; b < 3; ++b) {
    VkWriteDescriptorSet w{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set;
    w.dstBinding = b;
    w.descriptorCount = 1;
    w.descriptorType = b == 0 ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
    w.pTexelBufferView = &views[b];
    vkUpdateDescriptorSets(device.handle(), 1, &w, 0, nullptr);
  }
  write_buffers(device.handle(), set, 3, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{results.buffer, 0, VK_WHOLE_SIZE}});
  SetsPipeline pipeline(device, "texel_buffers.comp", {layout});
  device.run_commands([&](VkCommandBuffer cmd) {
    pipeline.record_dispatch(cmd, {set}, kCount / 8);
    shader_writes_to_host_barrier(cmd);
  });

  const float* out = reinterpret_cast<const float*>(dst.mapped);
  for (uint32_t i = 0; i < kCount; ++i)
    for (uint32_t c = 0; c < 4; ++c)
      // UNORM → float may differ from x / 255 in the last bit (the spec's conversion precision).
      ASSERT_NEAR(out[i * 4 + c], 2.0f * fmt::unorm_to_float(src.mapped[i * 4 + c], 8), 5e-7f) << "texel " << i << "." << c;
  for (uint32_t byte = kCount * 16; byte < dst.size; ++byte) ASSERT_EQ(dst.mapped[byte], 0x5C) << "byte " << byte;
  const uint32_t* count = reinterpret_cast<const uint32_t*>(counters.mapped);
  uint32_t expected[4] = {};
  for (uint32_t i = 0; i < kCount; ++i) expected[i % 4] += i;
  for (uint32_t k = 0; k < 4; ++k) EXPECT_EQ(count[k], expected[k]) << "counter " << k;
  for (uint32_t k = 4; k < 20; ++k) EXPECT_EQ(count[k], 0u) << "word " << k << " past the view";
  const int32_t* sizes = reinterpret_cast<const int32_t*>(results.mapped);
  EXPECT_EQ(sizes[0], int32_t(kCount));
  EXPECT_EQ(sizes[1], int32_t(kCount));
  EXPECT_EQ(sizes[2], 4);
  const float* oob = reinterpret_cast<const float*>(results.mapped + 16);
  for (uint32_t i = 0; i < kCount; ++i)
    for (uint32_t c = 0; c < 3; ++c) EXPECT_EQ(oob[i * 4 + c], 0.0f) << "fetch past the end, lane " << i;
}

}  // namespace
}  // namespace kiln::test
