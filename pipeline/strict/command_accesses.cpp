#include "pipeline/strict/command_accesses.h"

#include <algorithm>
#include <cstring>

#include "memory/image_view.h"
#include "memory/transfer.h"

namespace kiln::exec::strict {
namespace {

template <typename T>
const T& as(const Command* cmd) {
  return *static_cast<const T*>(cmd);
}

constexpr VkImageAspectFlagBits kAspects[] = {VK_IMAGE_ASPECT_COLOR_BIT,   VK_IMAGE_ASPECT_DEPTH_BIT,
                                              VK_IMAGE_ASPECT_STENCIL_BIT, VK_IMAGE_ASPECT_PLANE_0_BIT,
                                              VK_IMAGE_ASPECT_PLANE_1_BIT, VK_IMAGE_ASPECT_PLANE_2_BIT};

class Collector {
 public:
  explicit Collector(std::vector<TrackedAccess>* out) : out_(out) {}

  void buffer(const mem::Buffer* buffer, VkDeviceSize offset, VkDeviceSize size, Stages stage, Accesses access, bool write) {
    uintptr_t begin, end;
    if (buffer_bytes(buffer, offset, size, &begin, &end)) add(buffer->data, buffer, false, offset, end - begin, stage, access, write);
  }
  // Memory known only by address (vertex buffer records): attributed to no resource.
  void bytes(const uint8_t* data, uint64_t size, Stages stage, Accesses access, bool write, bool atomic = false,
             bool coarse = false) {
    if (data && size) add(data, nullptr, false, 0, size, stage, access, write, false, atomic, coarse);
  }
  void subresources(const mem::Image* image, const VkImageSubresourceRange& range, Stages stage, Accesses access, bool write,
                    bool attachment = false, bool atomic = false, bool coarse = false) {
    if (!image || !image->data || image->internal) return;
    std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
    subresource_ranges(*image, range, &ranges);
    for (const auto& [begin, end] : ranges)
      add(image->data, image, true, begin - uintptr_t(image->data), end - begin, stage, access, write, attachment, atomic,
          coarse);
  }
  void layers(const mem::Image* image, const VkImageSubresourceLayers& l, Stages stage, Accesses access, bool write) {
    subresources(image, {l.aspectMask, l.mipLevel, 1, l.baseArrayLayer, l.layerCount}, stage, access, write);
  }
  // A copy region: the bytes of its rows in each layer (or slice), so that copies into disjoint
  // rectangles of one subresource do not look like they overlap.
  void region(const mem::Image* image, const VkImageSubresourceLayers& l, VkOffset3D offset, VkExtent3D extent, Stages stage,
              Accesses access, bool write) {
    if (!image || !image->data) return;
    const VkImageSubresourceRange range = mem::resolve_range(*image,
                                                             {l.aspectMask, l.mipLevel, 1, l.baseArrayLayer, l.layerCount});
    const bool is_3d = image->desc.type == VK_IMAGE_TYPE_3D;
    for (VkImageAspectFlagBits aspect : kAspects) {
      if (!(range.aspectMask & aspect)) continue;
      for (uint32_t layer = range.baseArrayLayer; layer < range.baseArrayLayer + (is_3d ? 1 : range.layerCount); ++layer) {
        if (l.mipLevel >= image->desc.mip_levels || layer >= image->desc.array_layers) continue;
        const mem::SubresourceAddress a = image->layout.address(aspect, l.mipLevel, layer);
        if (!a.size || !a.row_pitch) continue;
        const uint64_t x0 = uint64_t(std::max(0, offset.x)) / a.block_width;
        const uint64_t y0 = uint64_t(std::max(0, offset.y)) / a.block_height;
        const uint64_t x1 = std::min<uint64_t>((uint64_t(std::max(0, offset.x)) + extent.width + a.block_width - 1) / a.block_width,
                                               a.extent_blocks.width);
        const uint64_t y1 = std::min<uint64_t>((uint64_t(std::max(0, offset.y)) + extent.height + a.block_height - 1) / a.block_height,
                                               a.extent_blocks.height);
        const uint64_t z0 = is_3d ? uint64_t(std::max(0, offset.z)) : 0;
        const uint64_t z1 = is_3d ? std::min<uint64_t>(z0 + extent.depth, a.extent.depth) : 1;
        if (x0 >= x1 || y0 >= y1 || z0 >= z1) continue;
        const bool whole_rows = x0 == 0 && x1 == a.extent_blocks.width;
        constexpr uint64_t kMaxRanges = 1024;  // beyond that, one range per slice
        const bool row_by_row = !whole_rows && (z1 - z0) * (y1 - y0) <= kMaxRanges;
        for (uint64_t z = z0; z < z1; ++z) {
          const uint64_t slice = a.offset + z * a.slice_pitch;
          if (!row_by_row) {
            add(image->data, image, true, slice + y0 * a.row_pitch + x0 * a.texel_bytes,
                (y1 - 1 - y0) * a.row_pitch + (x1 - x0) * a.texel_bytes, stage, access, write);
            continue;
          }
          for (uint64_t y = y0; y < y1; ++y)
            add(image->data, image, true, slice + y * a.row_pitch + x0 * a.texel_bytes, (x1 - x0) * a.texel_bytes, stage, access,
                write);
        }
      }
    }
  }
  // The layers `layers` (relative to the view; a view mask under multiview) of an attachment.
  void attachment_layers(const mem::ImageView* view, const mem::LayerSet& layers, Stages stage, Accesses access, bool write) {
    if (!view || !view->image) return;
    if (view->slices_of_3d) return this->view(view, stage, access, write, true);  // the whole 3D mip level
    VkImageSubresourceRange range = view->range;
    range.aspectMask = mem::attachment_aspects(*view);
    auto add_layers = [&](uint32_t first, uint32_t count) {
      if (first >= range.layerCount || count == 0) return;
      VkImageSubresourceRange part = range;
      part.baseArrayLayer = range.baseArrayLayer + first;
      part.layerCount = std::min(count, range.layerCount - first);
      subresources(view->image, part, stage, access, write, true);
    };
    if (!layers.view_mask) return add_layers(layers.base, layers.count);
    for (uint32_t l = 0; l < 32; ++l)
      if ((layers.view_mask >> l) & 1) add_layers(l, 1);
  }

  void view(const mem::ImageView* view, Stages stage, Accesses access, bool write, bool attachment, bool atomic = false,
            bool coarse = false) {
    if (!view || !view->image) return;
    const size_t first = out_->size();
    VkImageSubresourceRange range = view->range;
    if (view->slices_of_3d) range.baseArrayLayer = 0, range.layerCount = 1;  // the whole 3D mip level
    // Attachments use every aspect of their format; descriptors the view's aspects.
    if (attachment && !(access & VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT)) range.aspectMask = mem::attachment_aspects(*view);
    subresources(view->image, range, stage, access, write, attachment, atomic, coarse);
    if (coarse && !write) {
      ++groups_;
      for (size_t i = first; i < out_->size(); ++i) (*out_)[i].group = groups_;
    }
  }

 private:
  void add(const uint8_t* base, const void* resource, bool image, uint64_t offset, uint64_t size, Stages stage,
           Accesses access, bool write, bool attachment = false, bool atomic = false, bool coarse = false) {
    TrackedAccess a;
    a.memory = {uintptr_t(base) + offset, uintptr_t(base) + offset + size, stage, access, write, atomic, coarse};
    a.resource = resource;
    a.image = image;
    a.resource_offset = offset;
    a.attachment = attachment;
    out_->push_back(a);
  }
  std::vector<TrackedAccess>* out_;
  uint32_t groups_ = 0;
};

constexpr Stages kCopy = VK_PIPELINE_STAGE_2_COPY_BIT;
// Depth/stencil attachment accesses happen in the early or the late fragment tests, as the
// pipeline decides: a dependency on either stage orders them.
constexpr Stages kFragmentTests = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
constexpr Stages kClear = VK_PIPELINE_STAGE_2_CLEAR_BIT;
constexpr Accesses kRead = VK_ACCESS_2_TRANSFER_READ_BIT;
constexpr Accesses kWrite = VK_ACCESS_2_TRANSFER_WRITE_BIT;

void descriptor_accesses(const DescriptorUses* uses, const abi::ResourceContext* resources, Collector& out);

void draw_accesses(const DrawCmd& c, const CommandContext& context, Collector& out) {
  const Stages indirect = VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT;
  const Accesses indirect_read = VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT;
  if (c.indirect_buffer) {
    const uint64_t bytes = c.draw_count ? uint64_t(c.draw_count - 1) * c.stride + 16 : 0;
    out.buffer(c.indirect_buffer, c.indirect_offset, bytes, indirect, indirect_read, false);
  }
  if (c.count_buffer) out.buffer(c.count_buffer, c.count_offset, 4, indirect, indirect_read, false);
  if (c.byte_count_buffer) out.buffer(c.byte_count_buffer, c.byte_count_buffer_offset, 4, indirect, indirect_read, false);
  if (c.indexed && c.index_data) {
    const uint64_t size = c.index_type == VK_INDEX_TYPE_UINT32 ? 4 : c.index_type == VK_INDEX_TYPE_UINT8_EXT ? 1 : 2;
    uint64_t begin = 0, end = c.index_bytes;
    if (!c.indirect_buffer) begin = std::min<uint64_t>(uint64_t(c.first) * size, end),
                            end = std::min<uint64_t>(uint64_t(c.first + uint64_t(c.count)) * size, end);
    out.bytes(c.index_data + begin, end - begin, VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT, VK_ACCESS_2_INDEX_READ_BIT, false);
  }
  if (c.vertex_buffers && !c.mesh_tasks)
    for (uint32_t b = 0; b < abi::kMaxVertexBindings; ++b)
      out.bytes(c.vertex_buffers[b].address, c.vertex_buffers[b].size, VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT,
                VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT, false);
  if (c.state && c.state->kernels) descriptor_accesses(c.state->kernels->descriptor_uses, c.resources, out);
  const RenderTargets* targets = c.targets ? c.targets : context.targets;
  if (!targets) return;
  // Under multiview a draw writes the layers of its view mask; otherwise any layer of the
  // instance (a shader may write Layer).
  const mem::LayerSet layers{0, targets->layer_count, targets->view_mask};
  for (uint32_t i = 0; i < targets->color_count; ++i)
    out.attachment_layers(targets->color[i], layers, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                          VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, true);
  const Stages tests = kFragmentTests;
  const Accesses ds_write = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  out.attachment_layers(targets->depth, layers, tests, ds_write, true);
  if (targets->stencil != targets->depth) out.attachment_layers(targets->stencil, layers, tests, ds_write, true);
}

// What the shaders of a dispatch or draw reach through the bound descriptors: each binding's whole
// range (coarse: the shader may touch only part of it), read, written and/or atomically updated as
// its code says.
void descriptor_accesses(const DescriptorUses* uses, const abi::ResourceContext* resources, Collector& out) {
  if (!uses || !resources) return;
  constexpr uint32_t kMaxElements = 4096;  // of one arrayed binding (descriptor indexing can bind millions)
  for (const DescriptorUse& u : uses->uses) {
    uint32_t count = u.variable_count ? std::min(u.count, resources->variable_counts[u.set]) : u.count;
    count = std::min(count, kMaxElements);
    const uint8_t* set = u.set < abi::kMaxBoundDescriptorSets ? resources->descriptor_sets[u.set] : nullptr;
    const bool dynamic = u.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || u.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
    const bool uniform = u.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || u.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
    const bool storage = !uniform && u.type != VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER &&
                         u.type != VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE && u.type != VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER &&
                         u.type != VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
    const Accesses read_access = uniform ? VK_ACCESS_2_UNIFORM_READ_BIT
                                 : storage ? VK_ACCESS_2_SHADER_STORAGE_READ_BIT
                                 : u.type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT ? VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT
                                                                                 : VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
    // Uniform data, samplers and input attachments are only read (an unknown use counts as a read).
    const bool reads = u.read || !storage || (!u.written && !u.atomic);
    for (uint32_t i = 0; i < count; ++i) {
      const uint8_t* record = set ? set + u.offset + uint64_t(i) * abi::kDescriptorRecordSize : nullptr;
      auto add = [&](auto&& access_range) {
        if (reads) access_range(read_access, false, false);
        if (storage && u.written) access_range(VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, true, false);
        if (storage && u.atomic) access_range(VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, true, true);
      };
      switch (u.type) {
        case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
        case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
        case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
        case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: {
          abi::BufferDescriptor d;
          if (dynamic) {
            if (u.dynamic_slot + i >= abi::kMaxDynamicBuffers) break;
            d = resources->dynamic_buffers[u.dynamic_slot + i];
          } else {
            if (!record) break;
            memcpy(&d, record, sizeof d);
          }
          add([&](Accesses access, bool write, bool atomic) {
            out.bytes(reinterpret_cast<const uint8_t*>(d.address), d.range, u.stage, access, write, atomic, true);
          });
          break;
        }
        case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
        case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: {
          if (!record) break;
          abi::TexelBufferDescriptor d;
          memcpy(&d, record, sizeof d);
          add([&](Accesses access, bool write, bool atomic) {
            out.bytes(reinterpret_cast<const uint8_t*>(d.address), uint64_t(d.element_count) * d.texel_bytes, u.stage, access,
                      write, atomic, true);
          });
          break;
        }
        case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
        case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
        case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
        case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: {
          if (!record) break;
          abi::ImageSamplerDescriptor d;
          memcpy(&d, record, sizeof d);
          if (!d.image_view) break;
          const mem::ImageView* view = mem::view_of_shader_record(d.image_view);
          const bool input_attachment = u.type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
          add([&](Accesses access, bool write, bool atomic) {
            out.view(view, u.stage, access, write, input_attachment, atomic, /*coarse=*/true);
          });
          break;
        }
        default: break;  // samplers, inline uniform blocks (set memory): nothing to track
      }
    }
  }
}

void attachment_write(const mem::ImageView* view, VkImageAspectFlags aspects, const mem::LayerSet& layers, Collector& out) {
  if (!view) return;
  const bool color = aspects & VK_IMAGE_ASPECT_COLOR_BIT;
  out.attachment_layers(view, layers, color ? VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT : kFragmentTests,
                        color ? VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT : VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, true);
}

}  // namespace

bool buffer_bytes(const mem::Buffer* buffer, VkDeviceSize offset, VkDeviceSize size, uintptr_t* begin, uintptr_t* end) {
  if (!buffer || !buffer->data || offset >= buffer->size) return false;
  if (size == VK_WHOLE_SIZE || size > buffer->size - offset) size = buffer->size - offset;
  *begin = uintptr_t(buffer->data) + offset;
  *end = *begin + size;
  return true;
}

void subresource_ranges(const mem::Image& image, const VkImageSubresourceRange& range,
                        std::vector<std::pair<uintptr_t, uintptr_t>>* out) {
  const VkImageSubresourceRange r = mem::resolve_range(image, range);
  const uint32_t layers = image.desc.type == VK_IMAGE_TYPE_3D ? 1 : r.layerCount;
  for (VkImageAspectFlagBits aspect : kAspects) {
    if (!(r.aspectMask & aspect)) continue;
    for (uint32_t mip = r.baseMipLevel; mip < r.baseMipLevel + r.levelCount && mip < image.desc.mip_levels; ++mip) {
      for (uint32_t layer = r.baseArrayLayer; layer < r.baseArrayLayer + layers && layer < image.desc.array_layers; ++layer) {
        const mem::SubresourceAddress a = image.layout.address(aspect, mip, layer);
        if (!a.size) continue;
        const uintptr_t begin = uintptr_t(image.data) + a.offset;
        // Consecutive layers of one mip level are usually adjacent: one range for them.
        if (!out->empty() && out->back().second == begin) out->back().second = begin + a.size;
        else out->push_back({begin, begin + a.size});
      }
    }
  }
}

void collect_accesses(const Command* cmd, const CommandContext& context, std::vector<TrackedAccess>* accesses) {
  Collector out(accesses);
  switch (cmd->type) {
    case CommandType::CopyBuffer: {
      const auto& c = as<CopyBufferCmd>(cmd);
      for (uint32_t i = 0; i < c.region_count; ++i) {
        out.buffer(c.src, c.regions[i].srcOffset, c.regions[i].size, kCopy, kRead, false);
        out.buffer(c.dst, c.regions[i].dstOffset, c.regions[i].size, kCopy, kWrite, true);
      }
      break;
    }
    case CommandType::CopyImage: {
      const auto& c = as<CopyImageCmd>(cmd);
      for (uint32_t i = 0; i < c.region_count; ++i) {
        const VkImageCopy2& r = c.regions[i];
        out.region(c.src, r.srcSubresource, r.srcOffset, r.extent, kCopy, kRead, false);
        out.region(c.dst, r.dstSubresource, r.dstOffset, r.extent, kCopy, kWrite, true);
      }
      break;
    }
    case CommandType::BlitImage: {
      const auto& c = as<BlitImageCmd>(cmd);
      for (uint32_t i = 0; i < c.region_count; ++i) {
        out.layers(c.src, c.regions[i].srcSubresource, VK_PIPELINE_STAGE_2_BLIT_BIT, kRead, false);
        out.layers(c.dst, c.regions[i].dstSubresource, VK_PIPELINE_STAGE_2_BLIT_BIT, kWrite, true);
      }
      break;
    }
    case CommandType::ResolveImage: {
      const auto& c = as<ResolveImageCmd>(cmd);
      for (uint32_t i = 0; i < c.region_count; ++i) {
        out.layers(c.src, c.regions[i].srcSubresource, VK_PIPELINE_STAGE_2_RESOLVE_BIT, kRead, false);
        out.layers(c.dst, c.regions[i].dstSubresource, VK_PIPELINE_STAGE_2_RESOLVE_BIT, kWrite, true);
      }
      break;
    }
    case CommandType::CopyBufferToImage:
    case CommandType::CopyImageToBuffer: {
      const auto& c = as<BufferImageCopyCmd>(cmd);
      const bool to_image = cmd->type == CommandType::CopyBufferToImage;
      for (uint32_t i = 0; i < c.region_count; ++i) {
        const VkBufferImageCopy2& r = c.regions[i];
        out.buffer(c.buffer, r.bufferOffset, mem::buffer_image_copy_end(*c.image, r) - r.bufferOffset, kCopy,
                   to_image ? kRead : kWrite, !to_image);
        out.region(c.image, r.imageSubresource, r.imageOffset, r.imageExtent, kCopy, to_image ? kWrite : kRead, to_image);
      }
      break;
    }
    case CommandType::FillBuffer: {
      const auto& c = as<FillBufferCmd>(cmd);
      out.buffer(c.dst, c.offset, c.size, kClear, kWrite, true);
      break;
    }
    case CommandType::UpdateBuffer: {
      const auto& c = as<UpdateBufferCmd>(cmd);
      out.buffer(c.dst, c.offset, c.size, kClear, kWrite, true);
      break;
    }
    case CommandType::ClearColorImage: {
      const auto& c = as<ClearColorImageCmd>(cmd);
      for (uint32_t i = 0; i < c.range_count; ++i) out.subresources(c.image, c.ranges[i], kClear, kWrite, true);
      break;
    }
    case CommandType::ClearDepthStencilImage: {
      const auto& c = as<ClearDepthStencilImageCmd>(cmd);
      for (uint32_t i = 0; i < c.range_count; ++i) out.subresources(c.image, c.ranges[i], kClear, kWrite, true);
      break;
    }
    case CommandType::Dispatch: {
      const auto& c = as<DispatchCmd>(cmd);
      descriptor_accesses(c.kernel->descriptor_uses, c.resources, out);
      break;
    }
    case CommandType::DispatchIndirect: {
      const auto& c = as<DispatchIndirectCmd>(cmd);
      out.buffer(c.buffer, c.offset, 12, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT, false);
      descriptor_accesses(c.kernel->descriptor_uses, c.resources, out);
      break;
    }
    case CommandType::Draw: draw_accesses(as<DrawCmd>(cmd), context, out); break;
    case CommandType::ClearView: {
      const auto& c = as<ClearViewCmd>(cmd);
      attachment_write(c.view, c.aspects, c.layers, out);
      break;
    }
    case CommandType::ClearAttachments: {
      const auto& c = as<ClearAttachmentsCmd>(cmd);
      const RenderTargets* targets = c.targets ? c.targets : context.targets;
      if (!targets) break;
      for (uint32_t a = 0; a < c.attachment_count; ++a) {
        const VkClearAttachment& att = c.attachments[a];
        for (uint32_t r = 0; r < c.rect_count; ++r) {
          const mem::LayerSet layers{c.rects[r].baseArrayLayer, c.rects[r].layerCount, targets->view_mask};
          if (att.aspectMask & VK_IMAGE_ASPECT_COLOR_BIT) {
            if (att.colorAttachment < targets->color_count)
              attachment_write(targets->color[att.colorAttachment], att.aspectMask, layers, out);
          } else {
            attachment_write(targets->depth ? targets->depth : targets->stencil, att.aspectMask, layers, out);
          }
        }
      }
      break;
    }
    case CommandType::ResolveView: {
      const auto& c = as<ResolveViewCmd>(cmd);
      // Depth/stencil resolves have been described in both stages (and access types): either one
      // orders them.
      const bool color = c.aspect == VK_IMAGE_ASPECT_COLOR_BIT;
      const Stages stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |
                           (color ? 0 : VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT);
      const Accesses read = VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | (color ? 0 : VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT);
      const Accesses write = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | (color ? 0 : VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
      out.attachment_layers(c.src, c.layers, stage, read, false);
      out.attachment_layers(c.dst, c.layers, stage, write, true);
      break;
    }
    case CommandType::CopyQueryResults: {
      const auto& c = as<CopyQueryResultsCmd>(cmd);
      if (c.count) {
        const uint64_t last = c.pool->result_size(c.flags);
        out.buffer(c.dst, c.offset, uint64_t(c.count - 1) * c.stride + last, kCopy, kWrite, true);
      }
      break;
    }
    case CommandType::BeginConditionalRendering: {
      const auto& c = as<BeginConditionalRenderingCmd>(cmd);
      out.buffer(c.buffer, c.offset, 4, VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT,
                 VK_ACCESS_2_CONDITIONAL_RENDERING_READ_BIT_EXT, false);
      break;
    }
    default: break;
  }
}

void collect_layout_uses(const Command* cmd, std::vector<LayoutUse>* out) {
  auto layers = [&](const mem::Image* image, const VkImageSubresourceLayers& l, VkImageLayout layout) {
    if (image) out->push_back({image, {l.aspectMask, l.mipLevel, 1, l.baseArrayLayer, l.layerCount}, layout});
  };
  auto pairs = [&](const auto& c) {
    for (uint32_t i = 0; i < c.region_count; ++i) {
      layers(c.src, c.regions[i].srcSubresource, c.src_layout);
      layers(c.dst, c.regions[i].dstSubresource, c.dst_layout);
    }
  };
  switch (cmd->type) {
    case CommandType::CopyImage: pairs(as<CopyImageCmd>(cmd)); break;
    case CommandType::BlitImage: pairs(as<BlitImageCmd>(cmd)); break;
    case CommandType::ResolveImage: pairs(as<ResolveImageCmd>(cmd)); break;
    case CommandType::CopyBufferToImage:
    case CommandType::CopyImageToBuffer: {
      const auto& c = as<BufferImageCopyCmd>(cmd);
      for (uint32_t i = 0; i < c.region_count; ++i) layers(c.image, c.regions[i].imageSubresource, c.image_layout);
      break;
    }
    case CommandType::ClearColorImage: {
      const auto& c = as<ClearColorImageCmd>(cmd);
      for (uint32_t i = 0; i < c.range_count; ++i) out->push_back({c.image, c.ranges[i], c.layout});
      break;
    }
    case CommandType::ClearDepthStencilImage: {
      const auto& c = as<ClearDepthStencilImageCmd>(cmd);
      for (uint32_t i = 0; i < c.range_count; ++i) out->push_back({c.image, c.ranges[i], c.layout});
      break;
    }
    default: break;
  }
}

const char* command_name(CommandType type) {
  switch (type) {
    case CommandType::CopyBuffer: return "vkCmdCopyBuffer";
    case CommandType::CopyImage: return "vkCmdCopyImage";
    case CommandType::BlitImage: return "vkCmdBlitImage";
    case CommandType::ResolveImage: return "vkCmdResolveImage";
    case CommandType::CopyBufferToImage: return "vkCmdCopyBufferToImage";
    case CommandType::CopyImageToBuffer: return "vkCmdCopyImageToBuffer";
    case CommandType::FillBuffer: return "vkCmdFillBuffer";
    case CommandType::UpdateBuffer: return "vkCmdUpdateBuffer";
    case CommandType::ClearColorImage: return "vkCmdClearColorImage";
    case CommandType::ClearDepthStencilImage: return "vkCmdClearDepthStencilImage";
    case CommandType::Barrier: return "vkCmdPipelineBarrier";
    case CommandType::SetEvent: return "vkCmdSetEvent";
    case CommandType::ResetEvent: return "vkCmdResetEvent";
    case CommandType::WaitEvents: return "vkCmdWaitEvents";
    case CommandType::ExecuteCommands: return "vkCmdExecuteCommands";
    case CommandType::Dispatch: return "vkCmdDispatch";
    case CommandType::DispatchIndirect: return "vkCmdDispatchIndirect";
    case CommandType::ResetQueries: return "vkCmdResetQueryPool";
    case CommandType::WriteTimestamp: return "vkCmdWriteTimestamp";
    case CommandType::BeginQuery: return "vkCmdBeginQuery";
    case CommandType::EndQuery: return "vkCmdEndQuery";
    case CommandType::CopyQueryResults: return "vkCmdCopyQueryPoolResults";
    case CommandType::Draw: return "vkCmdDraw*";
    case CommandType::SetRenderTargets: return "render pass begin";
    case CommandType::ClearView: return "render pass load-op clear";
    case CommandType::ClearAttachments: return "vkCmdClearAttachments";
    case CommandType::ResolveView: return "render pass resolve";
    case CommandType::BindTransformFeedback: return "vkCmdBindTransformFeedbackBuffersEXT";
    case CommandType::BeginTransformFeedback: return "vkCmdBeginTransformFeedbackEXT";
    case CommandType::EndTransformFeedback: return "vkCmdEndTransformFeedbackEXT";
    case CommandType::BeginConditionalRendering: return "vkCmdBeginConditionalRenderingEXT";
    case CommandType::EndConditionalRendering: return "vkCmdEndConditionalRenderingEXT";
    case CommandType::ImageLayouts: return "render pass attachment layouts";
  }
  return "?";
}

}  // namespace kiln::exec::strict
