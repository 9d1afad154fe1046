#include "icd/extensions.h"

#include <algorithm>
#include <cstring>

namespace kiln {
namespace {

VkExtensionProperties ext(const char* name, uint32_t version) {
  VkExtensionProperties p{};
  strncpy(p.extensionName, name, VK_MAX_EXTENSION_NAME_SIZE - 1);
  p.specVersion = version;
  return p;
}

}  // namespace

std::span<const VkExtensionProperties> supported_instance_extensions() {
  static const VkExtensionProperties list[] = {
      ext(VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME, VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_SPEC_VERSION),
      // Core 1.1 (icd/instance.cpp: one group of one device), for applications and tests that ask by name.
      ext(VK_KHR_DEVICE_GROUP_CREATION_EXTENSION_NAME, VK_KHR_DEVICE_GROUP_CREATION_SPEC_VERSION),
      // Core 1.1's external-object queries (icd/external_memory.cpp) under their extensions' names.
      ext(VK_KHR_EXTERNAL_MEMORY_CAPABILITIES_EXTENSION_NAME, VK_KHR_EXTERNAL_MEMORY_CAPABILITIES_SPEC_VERSION),
      ext(VK_KHR_EXTERNAL_SEMAPHORE_CAPABILITIES_EXTENSION_NAME, VK_KHR_EXTERNAL_SEMAPHORE_CAPABILITIES_SPEC_VERSION),
      ext(VK_KHR_EXTERNAL_FENCE_CAPABILITIES_EXTENSION_NAME, VK_KHR_EXTERNAL_FENCE_CAPABILITIES_SPEC_VERSION),
      // Window-system integration (wsi/). The platform headers are not included here, so the
      // xcb/xlib/wayland names and spec versions are spelled out.
      ext(VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_SURFACE_SPEC_VERSION),
      ext("VK_KHR_xcb_surface", 6),
      ext("VK_KHR_xlib_surface", 6),
      ext("VK_KHR_wayland_surface", 6),
      ext(VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME, VK_EXT_HEADLESS_SURFACE_SPEC_VERSION),
      ext(VK_KHR_GET_SURFACE_CAPABILITIES_2_EXTENSION_NAME, VK_KHR_GET_SURFACE_CAPABILITIES_2_SPEC_VERSION),
      ext(VK_KHR_SURFACE_PROTECTED_CAPABILITIES_EXTENSION_NAME, VK_KHR_SURFACE_PROTECTED_CAPABILITIES_SPEC_VERSION),
      // Messengers that hear Kiln's own reports (debugPrintfEXT, strict mode), object names
      // and labels (icd/debug_utils.cpp, docs/design/debug-output.md).
      ext(VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_DEBUG_UTILS_SPEC_VERSION),
  };
  return list;
}

std::span<const VkExtensionProperties> supported_device_extensions() {
  // Core-promoted extensions whose commands and structures Kiln implements in core form, and
  // VK_KHR_push_descriptor.
  static const VkExtensionProperties list[] = {
      ext(VK_KHR_BIND_MEMORY_2_EXTENSION_NAME, VK_KHR_BIND_MEMORY_2_SPEC_VERSION),
      ext(VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME, VK_KHR_BUFFER_DEVICE_ADDRESS_SPEC_VERSION),
      ext(VK_KHR_COPY_COMMANDS_2_EXTENSION_NAME, VK_KHR_COPY_COMMANDS_2_SPEC_VERSION),
      ext(VK_KHR_DEDICATED_ALLOCATION_EXTENSION_NAME, VK_KHR_DEDICATED_ALLOCATION_SPEC_VERSION),
      ext(VK_KHR_DESCRIPTOR_UPDATE_TEMPLATE_EXTENSION_NAME, VK_KHR_DESCRIPTOR_UPDATE_TEMPLATE_SPEC_VERSION),
      ext(VK_KHR_GET_MEMORY_REQUIREMENTS_2_EXTENSION_NAME, VK_KHR_GET_MEMORY_REQUIREMENTS_2_SPEC_VERSION),
      ext(VK_KHR_MAINTENANCE_3_EXTENSION_NAME, VK_KHR_MAINTENANCE_3_SPEC_VERSION),
      ext(VK_KHR_MAINTENANCE_4_EXTENSION_NAME, VK_KHR_MAINTENANCE_4_SPEC_VERSION),
      ext(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME, VK_KHR_PUSH_DESCRIPTOR_SPEC_VERSION),
      ext(VK_KHR_SWAPCHAIN_EXTENSION_NAME, VK_KHR_SWAPCHAIN_SPEC_VERSION),
      // X11 presentation sends only the changed rectangles (wsi/x11_presenter.cpp).
      ext(VK_KHR_INCREMENTAL_PRESENT_EXTENSION_NAME, VK_KHR_INCREMENTAL_PRESENT_SPEC_VERSION),
      ext(VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME, VK_KHR_SYNCHRONIZATION_2_SPEC_VERSION),
      ext(VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME, VK_KHR_TIMELINE_SEMAPHORE_SPEC_VERSION),
      ext(VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME, VK_EXT_HOST_QUERY_RESET_SPEC_VERSION),
      // The subgroup operations' SPV_KHR_shader_ballot / SPV_KHR_subgroup_vote forms
      // (compiler/translate_subgroup.cpp).
      ext(VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME, VK_EXT_SHADER_SUBGROUP_BALLOT_SPEC_VERSION),
      ext(VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME, VK_EXT_SHADER_SUBGROUP_VOTE_SPEC_VERSION),
      // HLSL compilers' decorations (UserSemantic strings, CounterBuffer): nothing to do with
      // them, and the SPIR-V reader skips them (tests/shaders/hlsl_semantics.spvasm).
      ext(VK_GOOGLE_DECORATE_STRING_EXTENSION_NAME, VK_GOOGLE_DECORATE_STRING_SPEC_VERSION),
      ext(VK_GOOGLE_HLSL_FUNCTIONALITY_1_EXTENSION_NAME, VK_GOOGLE_HLSL_FUNCTIONALITY_1_SPEC_VERSION),
      // Host allocations imported as device memory (icd/external_memory.cpp).
      ext(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME, VK_EXT_EXTERNAL_MEMORY_HOST_SPEC_VERSION),
      // Memory shared with other devices and processes as opaque fds: memfd-backed allocations
      // (icd/external_memory.cpp).
      ext(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_MEMORY_FD_SPEC_VERSION),
      // OpReadClockKHR (compiler/translate_alu.cpp).
      ext(VK_KHR_SHADER_CLOCK_EXTENSION_NAME, VK_KHR_SHADER_CLOCK_SPEC_VERSION),
      // Device timestamps are CLOCK_MONOTONIC (icd/calibrated_timestamps.cpp).
      ext(VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME, VK_EXT_CALIBRATED_TIMESTAMPS_SPEC_VERSION),
      // Promoted to Vulkan 1.1, 1.2 and 1.3, implemented in core form (their features and
      // properties are the core ones, their commands alias the core commands); listed because
      // applications ask for them by name.
      ext(VK_KHR_MAINTENANCE_1_EXTENSION_NAME, VK_KHR_MAINTENANCE_1_SPEC_VERSION),
      // External memory, semaphores and fences as Vulkan 1.1 has them: the export/import structs
      // are accepted and the property queries name the handle types Kiln has (host allocations,
      // VK_EXT_external_memory_host; opaque fds for memory, semaphores and fences)
      // (DeviceTest.ExternalObjectsExtensions).
      ext(VK_KHR_EXTERNAL_MEMORY_EXTENSION_NAME, VK_KHR_EXTERNAL_MEMORY_SPEC_VERSION),
      ext(VK_KHR_EXTERNAL_SEMAPHORE_EXTENSION_NAME, VK_KHR_EXTERNAL_SEMAPHORE_SPEC_VERSION),
      ext(VK_KHR_EXTERNAL_FENCE_EXTENSION_NAME, VK_KHR_EXTERNAL_FENCE_SPEC_VERSION),
      // Opaque fds of shared payload pages (icd/external_sync.cpp).
      ext(VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_SEMAPHORE_FD_SPEC_VERSION),
      ext(VK_KHR_EXTERNAL_FENCE_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_FENCE_FD_SPEC_VERSION),
      ext(VK_KHR_MAINTENANCE_2_EXTENSION_NAME, VK_KHR_MAINTENANCE_2_SPEC_VERSION),
      ext(VK_KHR_MULTIVIEW_EXTENSION_NAME, VK_KHR_MULTIVIEW_SPEC_VERSION),
      ext(VK_KHR_RELAXED_BLOCK_LAYOUT_EXTENSION_NAME, VK_KHR_RELAXED_BLOCK_LAYOUT_SPEC_VERSION),
      ext(VK_KHR_SHADER_DRAW_PARAMETERS_EXTENSION_NAME, VK_KHR_SHADER_DRAW_PARAMETERS_SPEC_VERSION),
      ext(VK_KHR_CREATE_RENDERPASS_2_EXTENSION_NAME, VK_KHR_CREATE_RENDERPASS_2_SPEC_VERSION),
      ext(VK_KHR_DEPTH_STENCIL_RESOLVE_EXTENSION_NAME, VK_KHR_DEPTH_STENCIL_RESOLVE_SPEC_VERSION),
      ext(VK_KHR_DRAW_INDIRECT_COUNT_EXTENSION_NAME, VK_KHR_DRAW_INDIRECT_COUNT_SPEC_VERSION),
      ext(VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME, VK_KHR_DRIVER_PROPERTIES_SPEC_VERSION),
      ext(VK_KHR_IMAGE_FORMAT_LIST_EXTENSION_NAME, VK_KHR_IMAGE_FORMAT_LIST_SPEC_VERSION),
      ext(VK_KHR_IMAGELESS_FRAMEBUFFER_EXTENSION_NAME, VK_KHR_IMAGELESS_FRAMEBUFFER_SPEC_VERSION),
      ext(VK_KHR_SAMPLER_MIRROR_CLAMP_TO_EDGE_EXTENSION_NAME, VK_KHR_SAMPLER_MIRROR_CLAMP_TO_EDGE_SPEC_VERSION),
      ext(VK_KHR_SEPARATE_DEPTH_STENCIL_LAYOUTS_EXTENSION_NAME, VK_KHR_SEPARATE_DEPTH_STENCIL_LAYOUTS_SPEC_VERSION),
      ext(VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME, VK_KHR_SHADER_FLOAT_CONTROLS_SPEC_VERSION),
      ext(VK_KHR_SPIRV_1_4_EXTENSION_NAME, VK_KHR_SPIRV_1_4_SPEC_VERSION),
      ext(VK_KHR_VULKAN_MEMORY_MODEL_EXTENSION_NAME, VK_KHR_VULKAN_MEMORY_MODEL_SPEC_VERSION),
      ext(VK_EXT_SAMPLER_FILTER_MINMAX_EXTENSION_NAME, VK_EXT_SAMPLER_FILTER_MINMAX_SPEC_VERSION),
      ext(VK_EXT_SEPARATE_STENCIL_USAGE_EXTENSION_NAME, VK_EXT_SEPARATE_STENCIL_USAGE_SPEC_VERSION),
      ext(VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME, VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_SPEC_VERSION),
      ext(VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME, VK_KHR_DYNAMIC_RENDERING_SPEC_VERSION),
      ext(VK_KHR_FORMAT_FEATURE_FLAGS_2_EXTENSION_NAME, VK_KHR_FORMAT_FEATURE_FLAGS_2_SPEC_VERSION),
      // debugPrintfEXT (NonSemantic.DebugPrintf) prints; other NonSemantic.* sets are dropped
      // (compiler/spirv_front.cpp, docs/design/debug-output.md).
      ext(VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME, VK_KHR_SHADER_NON_SEMANTIC_INFO_SPEC_VERSION),
      ext(VK_KHR_SHADER_TERMINATE_INVOCATION_EXTENSION_NAME, VK_KHR_SHADER_TERMINATE_INVOCATION_SPEC_VERSION),
      ext(VK_EXT_SHADER_DEMOTE_TO_HELPER_INVOCATION_EXTENSION_NAME, VK_EXT_SHADER_DEMOTE_TO_HELPER_INVOCATION_SPEC_VERSION),
      ext(VK_EXT_TEXEL_BUFFER_ALIGNMENT_EXTENSION_NAME, VK_EXT_TEXEL_BUFFER_ALIGNMENT_SPEC_VERSION),
      ext(VK_EXT_IMAGE_ROBUSTNESS_EXTENSION_NAME, VK_EXT_IMAGE_ROBUSTNESS_SPEC_VERSION),
      // Every access is bounds-checked per scalar against its descriptor's exact range, and null
      // descriptors are zero records (docs/design/robust-access.md): robustness2's behaviour in
      // every pipeline, whatever it asks for.
      ext(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME, VK_EXT_ROBUSTNESS_2_SPEC_VERSION),
      ext(VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME, VK_EXT_PIPELINE_ROBUSTNESS_SPEC_VERSION),
      ext(VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME, VK_EXT_PIPELINE_CREATION_FEEDBACK_SPEC_VERSION),
      ext(VK_EXT_PRIVATE_DATA_EXTENSION_NAME, VK_EXT_PRIVATE_DATA_SPEC_VERSION),
      // Sampling (memory/sampling.cpp): custom border colours, with or without a format.
      ext(VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME, VK_EXT_CUSTOM_BORDER_COLOR_SPEC_VERSION),
      ext(VK_EXT_BORDER_COLOR_SWIZZLE_EXTENSION_NAME, VK_EXT_BORDER_COLOR_SWIZZLE_SPEC_VERSION),
      // A4R4G4B4 / A4B4G4R4: packed formats like the core 4444 ones (icd/format_support.cpp).
      ext(VK_EXT_4444_FORMATS_EXTENSION_NAME, VK_EXT_4444_FORMATS_SPEC_VERSION),
      // Draws (icd/cmd_draw.cpp): several direct draws in one command, DrawIndex = entry index.
      ext(VK_EXT_MULTI_DRAW_EXTENSION_NAME, VK_EXT_MULTI_DRAW_SPEC_VERSION),
      // Instance-rate divisors, 0 included (the vertex kernel's fetch, compiler/emit_vertex.cpp).
      ext(VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME, VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_SPEC_VERSION),
      // Core in 1.3: every dynamic state of both (icd/graphics_dynamic_state.cpp), under the EXT
      // names too, and _2's logic op; not its patch-control-point state (no tessellation).
      ext(VK_EXT_EXTENDED_DYNAMIC_STATE_EXTENSION_NAME, VK_EXT_EXTENDED_DYNAMIC_STATE_SPEC_VERSION),
      ext(VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME, VK_EXT_EXTENDED_DYNAMIC_STATE_2_SPEC_VERSION),
      // Some of its states (the features say which; icd/graphics_dynamic_state.h).
      ext(VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME, VK_EXT_EXTENDED_DYNAMIC_STATE_3_SPEC_VERSION),
      // Per-attachment write enables, static or dynamic, folded into write masks (graphics_dynamic_state.cpp).
      ext(VK_EXT_COLOR_WRITE_ENABLE_EXTENSION_NAME, VK_EXT_COLOR_WRITE_ENABLE_SPEC_VERSION),
      // Rectangular lines (pipeline/graphics/setup.cpp emit_line); no Bresenham, smooth or stipple.
      ext(VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME, VK_EXT_LINE_RASTERIZATION_SPEC_VERSION),
      // Core 1.1 device groups of one device (icd/device_group.cpp; with the swapchain's group
      // commands in icd/wsi_*.cpp).
      ext(VK_KHR_DEVICE_GROUP_EXTENSION_NAME, VK_KHR_DEVICE_GROUP_SPEC_VERSION),
      // Capture from the last pre-rasterization stage into 4 buffers of 4 streams, in API order
      // (pipeline/graphics/xfb_capture.cpp, pipeline/xfb_state.cpp; docs/design/transform-feedback.md).
      ext(VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME, VK_EXT_TRANSFORM_FEEDBACK_SPEC_VERSION),
      // Task and mesh shaders (docs/design/mesh-shading.md).
      ext(VK_EXT_MESH_SHADER_EXTENSION_NAME, VK_EXT_MESH_SHADER_SPEC_VERSION),
      // Draws, dispatches and vkCmdClearAttachments discarded by a buffer's value
      // (icd/cmd_conditional_rendering.cpp).
      ext(VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME, VK_EXT_CONDITIONAL_RENDERING_SPEC_VERSION),
      // Per-stream primitive counts before clipping (pipeline/graphics/xfb_capture.cpp).
      ext(VK_EXT_PRIMITIVES_GENERATED_QUERY_EXTENSION_NAME, VK_EXT_PRIMITIVES_GENERATED_QUERY_SPEC_VERSION),
      // First or last provoking vertex per pipeline (pipeline/graphics/primitive_assembly.cpp).
      ext(VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME, VK_EXT_PROVOKING_VERTEX_SPEC_VERSION),
      // Feedback loops through input attachments are ordered: one worker runs a tile's
      // primitives in order, each batch's tests and stores before the next batch's shader.
      ext(VK_EXT_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_EXTENSION_NAME, VK_EXT_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_SPEC_VERSION),
      // Its ARM original: the same features (the structure types alias) and the same guarantee.
      ext(VK_ARM_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_EXTENSION_NAME, VK_ARM_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_SPEC_VERSION),
      // Restart indices in list topologies: a cut drops the list's incomplete primitive, as
      // primitive assembly does for every topology (pipeline/graphics/primitive_assembly.cpp).
      ext(VK_EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART_EXTENSION_NAME, VK_EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART_SPEC_VERSION),
      // Swapchain images viewed in other formats (icd/wsi_swapchain.cpp).
      ext(VK_KHR_SWAPCHAIN_MUTABLE_FORMAT_EXTENSION_NAME, VK_KHR_SWAPCHAIN_MUTABLE_FORMAT_SPEC_VERSION),
      // Single-sampled attachments rendered with more samples (icd/implicit_attachments.h).
      ext(VK_EXT_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_EXTENSION_NAME, VK_EXT_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_SPEC_VERSION),
      // Images sampled while they are attachments of the render pass (docs/design/render-passes-and-state.md).
      ext(VK_EXT_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_EXTENSION_NAME, VK_EXT_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_SPEC_VERSION),
      // 2D views of a 3D image's depth slices for sampling and storage (icd/image_view.cpp).
      ext(VK_EXT_IMAGE_2D_VIEW_OF_3D_EXTENSION_NAME, VK_EXT_IMAGE_2D_VIEW_OF_3D_SPEC_VERSION),
      // FragStencilRefEXT: each fragment's stencil reference (abi::FragmentInterface::writes_stencil_reference).
      ext(VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME, VK_EXT_SHADER_STENCIL_EXPORT_SPEC_VERSION),
      // Graphics pipelines in four parts, created alone and linked (icd/graphics_pipeline_library.h).
      ext(VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME, VK_KHR_PIPELINE_LIBRARY_SPEC_VERSION),
      ext(VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_SPEC_VERSION),
      // Vertex input as dynamic state: one vertex kernel per recorded state (icd/vertex_input_variants.h).
      ext(VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME, VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_SPEC_VERSION),
      // PostDepthCoverage: SampleMaskIn after the early tests (pipeline/graphics/tile_backend.cpp).
      ext(VK_EXT_POST_DEPTH_COVERAGE_EXTENSION_NAME, VK_EXT_POST_DEPTH_COVERAGE_SPEC_VERSION),
      // Cube samplers that address each face alone (mem::Sampler::seamless_cube).
      ext(VK_EXT_NON_SEAMLESS_CUBE_MAP_EXTENSION_NAME, VK_EXT_NON_SEAMLESS_CUBE_MAP_SPEC_VERSION),
      // [-1, 1] NDC depth (ViewportState::negative_one_to_one: the near plane and the viewport's z).
      ext(VK_EXT_DEPTH_CLIP_CONTROL_EXTENSION_NAME, VK_EXT_DEPTH_CLIP_CONTROL_SPEC_VERSION),
      // Depth clipping independent of depth clamp (RasterizationState::depth_clip, clipping.cpp).
      ext(VK_EXT_DEPTH_CLIP_ENABLE_EXTENSION_NAME, VK_EXT_DEPTH_CLIP_ENABLE_SPEC_VERSION),
      // LOAD_OP_NONE: load ops other than CLEAR do nothing (attachments are memory) and store
      // ops never do anything (RenderPassTest.LoadOpNoneAndStoreOpNoneKeepContents).
      ext(VK_EXT_LOAD_STORE_OP_NONE_EXTENSION_NAME, VK_EXT_LOAD_STORE_OP_NONE_SPEC_VERSION),
      // Depth ranges, clears and bounds outside [0, 1]: float depth attachments store what they
      // get, UNORM ones clamp when packing (memory/format_pack.cpp), depth clamp uses the
      // viewport's range (DrawTest.DepthRangeUnrestricted...).
      ext(VK_EXT_DEPTH_RANGE_UNRESTRICTED_EXTENSION_NAME, VK_EXT_DEPTH_RANGE_UNRESTRICTED_SPEC_VERSION),
      // 8-bit index buffers (pipeline/graphics/vertex_stage.cpp fetch_vertex_ids).
      ext(VK_EXT_INDEX_TYPE_UINT8_EXTENSION_NAME, VK_EXT_INDEX_TYPE_UINT8_SPEC_VERSION),
      // Shader types, layouts and subgroups (compute today; each stage as it lands).
      ext(VK_KHR_8BIT_STORAGE_EXTENSION_NAME, VK_KHR_8BIT_STORAGE_SPEC_VERSION),
      ext(VK_KHR_16BIT_STORAGE_EXTENSION_NAME, VK_KHR_16BIT_STORAGE_SPEC_VERSION),
      ext(VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME, VK_KHR_SHADER_FLOAT16_INT8_SPEC_VERSION),
      ext(VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES_EXTENSION_NAME, VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES_SPEC_VERSION),
      ext(VK_KHR_STORAGE_BUFFER_STORAGE_CLASS_EXTENSION_NAME, VK_KHR_STORAGE_BUFFER_STORAGE_CLASS_SPEC_VERSION),
      ext(VK_KHR_UNIFORM_BUFFER_STANDARD_LAYOUT_EXTENSION_NAME, VK_KHR_UNIFORM_BUFFER_STANDARD_LAYOUT_SPEC_VERSION),
      ext(VK_EXT_SCALAR_BLOCK_LAYOUT_EXTENSION_NAME, VK_EXT_SCALAR_BLOCK_LAYOUT_SPEC_VERSION),
      ext(VK_EXT_PIPELINE_CREATION_CACHE_CONTROL_EXTENSION_NAME, VK_EXT_PIPELINE_CREATION_CACHE_CONTROL_SPEC_VERSION),
      ext(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME, VK_EXT_SUBGROUP_SIZE_CONTROL_SPEC_VERSION),
      ext(VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME, VK_KHR_SHADER_ATOMIC_INT64_SPEC_VERSION),
      ext(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME, VK_EXT_SHADER_ATOMIC_FLOAT_SPEC_VERSION),
      ext(VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME, VK_EXT_SHADER_ATOMIC_FLOAT_2_SPEC_VERSION),
      ext(VK_KHR_ZERO_INITIALIZE_WORKGROUP_MEMORY_EXTENSION_NAME, VK_KHR_ZERO_INITIALIZE_WORKGROUP_MEMORY_SPEC_VERSION),
      ext(VK_KHR_VARIABLE_POINTERS_EXTENSION_NAME, VK_KHR_VARIABLE_POINTERS_SPEC_VERSION),
      ext(VK_EXT_INLINE_UNIFORM_BLOCK_EXTENSION_NAME, VK_EXT_INLINE_UNIFORM_BLOCK_SPEC_VERSION),
      ext(VK_KHR_SHADER_INTEGER_DOT_PRODUCT_EXTENSION_NAME, VK_KHR_SHADER_INTEGER_DOT_PRODUCT_SPEC_VERSION),
      // Descriptor records in the application's buffers (icd/descriptor_buffer.cpp).
      ext(VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME, VK_EXT_DESCRIPTOR_BUFFER_SPEC_VERSION),
      // With the descriptorIndexing feature (icd/physical_device.cpp): every sub-feature it requires.
      ext(VK_EXT_DESCRIPTOR_INDEXING_EXTENSION_NAME, VK_EXT_DESCRIPTOR_INDEXING_SPEC_VERSION),
  };
  return list;
}

bool is_supported_extension(std::span<const VkExtensionProperties> list, const char* name) {
  return std::any_of(list.begin(), list.end(),
                     [&](const VkExtensionProperties& p) { return strcmp(p.extensionName, name) == 0; });
}

VkResult enumerate_extensions(std::span<const VkExtensionProperties> list, uint32_t* count,
                              VkExtensionProperties* out) {
  if (!out) {
    *count = static_cast<uint32_t>(list.size());
    return VK_SUCCESS;
  }
  uint32_t n = std::min<uint32_t>(*count, static_cast<uint32_t>(list.size()));
  std::copy_n(list.begin(), n, out);
  *count = n;
  return n < list.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

}  // namespace kiln
