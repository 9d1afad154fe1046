#include "icd/device_limits.h"

#include "common/abi/kernel_abi.h"
#include "pipeline/graphics_state.h"

namespace kiln {

// Values are what Kiln's design supports (ARCHITECTURE.md): 64-byte aligned host memory, 8 sub-pixel
// bits, up to 8 colour attachments, workgroups of up to 1024 invocations, 32 KiB of shared memory.
// Limits that belong to a feature Kiln does not support yet take the value the spec prescribes
// for that case (marked "not yet"); raise them together with the feature.
static VkPhysicalDeviceLimits make_limits() {
  VkPhysicalDeviceLimits l{};
  l.maxImageDimension1D = 16384;
  l.maxImageDimension2D = 16384;
  l.maxImageDimension3D = 2048;
  l.maxImageDimensionCube = 16384;
  l.maxImageArrayLayers = 2048;
  l.maxTexelBufferElements = 128 * 1024 * 1024;
  l.maxUniformBufferRange = 65536;
  l.maxStorageBufferRange = 1u << 30;
  l.maxPushConstantsSize = 256;
  l.maxMemoryAllocationCount = 1u << 20;
  l.maxSamplerAllocationCount = 64 * 1024;
  l.bufferImageGranularity = 1;  // linear memory: no aliasing hazards between buffers and images
  l.sparseAddressSpaceSize = 0;
  l.maxBoundDescriptorSets = 8;
  l.maxPerStageDescriptorSamplers = 1u << 20;
  l.maxPerStageDescriptorUniformBuffers = 1u << 20;
  l.maxPerStageDescriptorStorageBuffers = 1u << 20;
  l.maxPerStageDescriptorSampledImages = 1u << 20;
  l.maxPerStageDescriptorStorageImages = 1u << 20;
  l.maxPerStageDescriptorInputAttachments = 8;
  l.maxPerStageResources = 1u << 20;
  l.maxDescriptorSetSamplers = 1u << 20;
  l.maxDescriptorSetUniformBuffers = 1u << 20;
  l.maxDescriptorSetUniformBuffersDynamic = 16;
  l.maxDescriptorSetStorageBuffers = 1u << 20;
  l.maxDescriptorSetStorageBuffersDynamic = 16;
  l.maxDescriptorSetSampledImages = 1u << 20;
  l.maxDescriptorSetStorageImages = 1u << 20;
  l.maxDescriptorSetInputAttachments = 8;
  l.maxVertexInputAttributes = 32;
  l.maxVertexInputBindings = 32;
  l.maxVertexInputAttributeOffset = 2047;
  l.maxVertexInputBindingStride = 2048;
  l.maxVertexOutputComponents = 128;
  // Tessellation (docs/design/tessellation.md): patches of up to abi::kMaxPatchVertices points,
  // kMaxVaryingLocations Locations between every two stages, levels up to 64.
  l.maxTessellationGenerationLevel = 64;
  l.maxTessellationPatchSize = abi::kMaxPatchVertices;
  l.maxTessellationControlPerVertexInputComponents = abi::kMaxVaryingLocations * 4;
  l.maxTessellationControlPerVertexOutputComponents = abi::kMaxVaryingLocations * 4;
  l.maxTessellationControlPerPatchOutputComponents = 120;  // the spec's minimum; patch memory has room for 128
  l.maxTessellationControlTotalOutputComponents = 4096;
  l.maxTessellationEvaluationInputComponents = abi::kMaxVaryingLocations * 4;
  l.maxTessellationEvaluationOutputComponents = abi::kMaxVaryingLocations * 4;
  // Geometry shaders (docs/design/geometry.md): kMaxVaryingLocations Locations in and out, up to
  // 256 emitted vertices and 32 invocations (the spec's minimums for the totals).
  l.maxGeometryShaderInvocations = abi::kMaxGeometryInvocations;
  l.maxGeometryInputComponents = abi::kMaxVaryingLocations * 4;
  l.maxGeometryOutputComponents = abi::kMaxVaryingLocations * 4;
  l.maxGeometryOutputVertices = abi::kMaxGeometryOutputVertices;
  l.maxGeometryTotalOutputComponents = 1024;
  l.maxFragmentInputComponents = 128;
  l.maxFragmentOutputAttachments = 8;
  l.maxFragmentDualSrcAttachments = 1;  // dualSrcBlend: Location 0 Index 1 blends attachment 0
  l.maxFragmentCombinedOutputResources = 1u << 20;
  l.maxComputeSharedMemorySize = abi::kMaxComputeSharedMemoryBytes;
  l.maxComputeWorkGroupCount[0] = l.maxComputeWorkGroupCount[1] = l.maxComputeWorkGroupCount[2] = 65535;
  l.maxComputeWorkGroupInvocations = 1024;
  l.maxComputeWorkGroupSize[0] = 1024;
  l.maxComputeWorkGroupSize[1] = 1024;
  l.maxComputeWorkGroupSize[2] = 64;
  l.subPixelPrecisionBits = 8;
  l.subTexelPrecisionBits = 8;
  l.mipmapPrecisionBits = 8;
  l.maxDrawIndexedIndexValue = 0xFFFFFFFFu;  // fullDrawIndexUint32
  l.maxDrawIndirectCount = UINT32_MAX;         // records are read at execution, one sub-draw each
  l.maxSamplerLodBias = 16.0f;
  l.maxSamplerAnisotropy = 16.0f;
  l.maxViewports = exec::kMaxViewports;        // ViewportIndex selects viewport + scissor
  l.maxViewportDimensions[0] = l.maxViewportDimensions[1] = 16384;
  l.viewportBoundsRange[0] = -32768.0f;
  l.viewportBoundsRange[1] = 32767.0f;
  l.viewportSubPixelBits = 8;
  l.minMemoryMapAlignment = 64;
  l.minTexelBufferOffsetAlignment = 16;
  l.minUniformBufferOffsetAlignment = 16;
  l.minStorageBufferOffsetAlignment = 16;
  l.minTexelOffset = -32;
  l.maxTexelOffset = 31;
  l.minTexelGatherOffset = -32;  // any offset works (memory/sampling.cpp wraps per texel)
  l.maxTexelGatherOffset = 31;
  // InterpolateAtOffset evaluates the primitive's planes at any offset (compiler/emit_fragment.cpp
  // interpolate_at): the spec's minimum range, offsets unrounded.
  l.minInterpolationOffset = -0.5f;
  l.maxInterpolationOffset = 0.4375f;
  l.subPixelInterpolationOffsetBits = 4;
  l.maxFramebufferWidth = 16384;
  l.maxFramebufferHeight = 16384;
  l.maxFramebufferLayers = 2048;
  // Multisampled images and rasterization at 1, 2, 4 and 8 samples (standard locations,
  // pipeline/draw.cpp). Storage images too (shaderStorageImageMultisample: the Sample operand
  // picks one of a texel's adjacent samples, compiler/translate_image.cpp).
  l.framebufferColorSampleCounts = kSupportedSampleCounts;
  l.framebufferDepthSampleCounts = kSupportedSampleCounts;
  l.framebufferStencilSampleCounts = kSupportedSampleCounts;
  l.framebufferNoAttachmentsSampleCounts = kSupportedSampleCounts;
  l.maxColorAttachments = 8;
  l.sampledImageColorSampleCounts = kSupportedSampleCounts;
  l.sampledImageIntegerSampleCounts = kSupportedSampleCounts;
  l.sampledImageDepthSampleCounts = kSupportedSampleCounts;
  l.sampledImageStencilSampleCounts = kSupportedSampleCounts;
  l.storageImageSampleCounts = kSupportedSampleCounts;
  l.maxSampleMaskWords = 1;
  l.timestampComputeAndGraphics = VK_TRUE;  // every queue writes timestamps
  l.timestampPeriod = 1.0f;  // nanoseconds
  // Clip and cull distances travel in the vertex output slots (abi::kMaxClipDistances each).
  l.maxClipDistances = abi::kMaxClipDistances;
  l.maxCullDistances = abi::kMaxClipDistances;
  l.maxCombinedClipAndCullDistances = abi::kMaxClipDistances;
  l.discreteQueuePriorities = 2;
  // Points and lines become two triangles whose corners are offset by size/2 (width/2) in float
  // and then rounded to the 8 sub-pixel bits, so any size in the range is drawn to 1/128 pixel.
  l.pointSizeRange[0] = exec::kMinPointSize;
  l.pointSizeRange[1] = exec::kMaxPointSize;
  l.lineWidthRange[0] = exec::kMinLineWidth;
  l.lineWidthRange[1] = exec::kMaxLineWidth;
  l.pointSizeGranularity = 1.0f / 128.0f;
  l.lineWidthGranularity = 1.0f / 128.0f;
  l.strictLines = VK_TRUE;  // DEFAULT-mode lines are rectangles (pipeline/graphics/setup.cpp emit_line)
  l.standardSampleLocations = VK_TRUE;
  l.optimalBufferCopyOffsetAlignment = 64;
  l.optimalBufferCopyRowPitchAlignment = 64;
  l.nonCoherentAtomSize = 64;
  return l;
}

const VkPhysicalDeviceLimits& device_limits() {
  static const VkPhysicalDeviceLimits limits = make_limits();
  return limits;
}

}  // namespace kiln
