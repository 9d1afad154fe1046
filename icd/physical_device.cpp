// VkPhysicalDevice: what Kiln reports about itself. Every feature bit is FALSE until the
// capability works and is tested; limits come from device_limits.cpp.
#include <cstring>

#include "common/build_id.h"
#include "common/cpu.h"
#include "common/env.h"
#include "icd/descriptor_memory.h"
#include "icd/device_limits.h"
#include "icd/extensions.h"
#include "icd/external_memory.h"
#include "icd/format_support.h"
#include "icd/instance.h"
#include "icd/struct_chain.h"
#include "kiln_entrypoints.h"

namespace kiln {
namespace {

constexpr uint32_t kKilnDriverVersion = VK_MAKE_VERSION(0, 1, 0);
constexpr uint32_t kQueueCount = 4;  // each VkQueue has its own submission thread
// Kiln has no Khronos-registered VkDriverId; this value is outside the registered range on purpose.
constexpr VkDriverId kKilnDriverId = static_cast<VkDriverId>(0x4B494C4E);

// Stable 16-byte identifiers derived from a name (FNV-1a), so they are equal across processes.
void fill_uuid(uint8_t out[VK_UUID_SIZE], const char* name) {
  uint64_t h = 1469598103934665603ull;
  for (int round = 0; round < 2; ++round) {
    for (const char* p = name; *p; ++p) h = (h ^ static_cast<uint8_t>(*p)) * 1099511628211ull;
    memcpy(out + 8 * round, &h, 8);
    h ^= 0x9e3779b97f4a7c15ull;
  }
}

uint64_t heap_size_bytes() {
  // KILN_HEAP_SIZE_MB sets the heap; by default half of the machine's RAM.
  int64_t mb = env_int("KILN_HEAP_SIZE_MB", 0);
  if (mb > 0) return static_cast<uint64_t>(mb) << 20;
  return host_memory_bytes() / 2;
}

}  // namespace

void init_physical_device(PhysicalDevice* pd, Instance* instance) {
  pd->instance = instance;
  pd->queue_count = kQueueCount;

  VkPhysicalDeviceProperties& p = pd->properties;
  p.apiVersion = VK_MAKE_API_VERSION(0, 1, 3, VK_HEADER_VERSION);
  p.driverVersion = kKilnDriverVersion;
  p.vendorID = 0;  // Kiln has no registered vendor ID (see docs/design/identity.md)
  p.deviceID = 0;
  p.deviceType = VK_PHYSICAL_DEVICE_TYPE_CPU;
  snprintf(p.deviceName, sizeof p.deviceName, "Kiln (CPU, %u-wide SIMD)", host_simd_width());
  fill_uuid(p.pipelineCacheUUID, ("kiln-pipeline-cache-" + build_id()).c_str());
  p.limits = device_limits();
  p.sparseProperties = {};

  VkPhysicalDeviceVulkan11Properties& p11 = pd->properties11;
  fill_uuid(p11.deviceUUID, "kiln-device-cpu");
  fill_uuid(p11.driverUUID, "kiln-driver-0.1.0");
  p11.deviceNodeMask = 0;
  p11.deviceLUIDValid = VK_FALSE;
  p11.subgroupSize = host_simd_width();
  // Subgroups are the W lanes of a kernel call: a compute kernel's invocations, a fragment
  // kernel's quads (helper invocations included, as active invocations: DrawTest.
  // SubgroupOperationsInFragmentShaders; CTS glsl.derivate dynamic cases), the vertices of a vertex
  // call, a patch's output control points in a control call, the domain points of an evaluation
  // call, a geometry call's (primitive, invocation) pairs (which invocations share a call is the
  // implementation's choice, as the spec allows; GeometryTest.SubgroupOperationsInGeometryShaders).
  p11.subgroupSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT | VK_SHADER_STAGE_VERTEX_BIT |
                                VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT | VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT |
                                VK_SHADER_STAGE_GEOMETRY_BIT | VK_SHADER_STAGE_TASK_BIT_EXT | VK_SHADER_STAGE_MESH_BIT_EXT;
  p11.subgroupSupportedOperations = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                    VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                    VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT |
                                    VK_SUBGROUP_FEATURE_CLUSTERED_BIT | VK_SUBGROUP_FEATURE_QUAD_BIT;
  p11.subgroupQuadOperationsInAllStages = VK_FALSE;
  p11.pointClippingBehavior = VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
  // Every bit of a view mask: a draw simply runs again per view (DrawFeaturesTest.MultiviewUsesEveryViewUpToTheLimit).
  p11.maxMultiviewViewCount = 32;
  p11.maxMultiviewInstanceIndex = (1u << 27) - 1;
  p11.protectedNoFault = VK_FALSE;
  p11.maxPerSetDescriptors = desc::kMaxDescriptorsPerSet;
  p11.maxMemoryAllocationSize = kMaxResourceSize;

  VkPhysicalDeviceVulkan12Properties& p12 = pd->properties12;
  p12.driverID = kKilnDriverId;
  // Min/max reduction works on every linearly filterable format and before the view's swizzle
  // (memory/sampling.cpp; samplerFilterMinmax).
  p12.filterMinmaxSingleComponentFormats = VK_TRUE;
  p12.filterMinmaxImageComponentMapping = VK_TRUE;
  snprintf(p12.driverName, sizeof p12.driverName, "Kiln");
  snprintf(p12.driverInfo, sizeof p12.driverInfo, "Kiln 0.1.0 (LLVM-based CPU Vulkan driver)");
  p12.conformanceVersion = {0, 0, 0, 0};  // not conformant (yet)
  p12.denormBehaviorIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
  p12.roundingModeIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
  // Float controls the JIT gives every shader anyway: IEEE operations without fast-math flags
  // (signed zeros, infinities and NaNs preserved), the host's default MXCSR (denormals neither
  // flushed nor treated as zero) and round-to-nearest-even. Flush-to-zero and round-toward-zero
  // would need code of their own: FALSE.
  for (VkBool32* preserved : {&p12.shaderSignedZeroInfNanPreserveFloat16, &p12.shaderSignedZeroInfNanPreserveFloat32,
                              &p12.shaderSignedZeroInfNanPreserveFloat64, &p12.shaderDenormPreserveFloat16,
                              &p12.shaderDenormPreserveFloat32, &p12.shaderDenormPreserveFloat64,
                              &p12.shaderRoundingModeRTEFloat16, &p12.shaderRoundingModeRTEFloat32,
                              &p12.shaderRoundingModeRTEFloat64})
    *preserved = VK_TRUE;
  p12.maxUpdateAfterBindDescriptorsInAllPools = 1u << 20;
  p12.maxPerStageDescriptorUpdateAfterBindSamplers = 1u << 20;
  p12.maxPerStageDescriptorUpdateAfterBindUniformBuffers = 1u << 20;
  p12.maxPerStageDescriptorUpdateAfterBindStorageBuffers = 1u << 20;
  p12.maxPerStageDescriptorUpdateAfterBindSampledImages = 1u << 20;
  p12.maxPerStageDescriptorUpdateAfterBindStorageImages = 1u << 20;
  p12.maxPerStageDescriptorUpdateAfterBindInputAttachments = 8;
  p12.maxPerStageUpdateAfterBindResources = 1u << 20;
  p12.maxDescriptorSetUpdateAfterBindSamplers = 1u << 20;
  p12.maxDescriptorSetUpdateAfterBindUniformBuffers = 1u << 20;
  p12.maxDescriptorSetUpdateAfterBindUniformBuffersDynamic = 16;
  p12.maxDescriptorSetUpdateAfterBindStorageBuffers = 1u << 20;
  p12.maxDescriptorSetUpdateAfterBindStorageBuffersDynamic = 16;
  p12.maxDescriptorSetUpdateAfterBindSampledImages = 1u << 20;
  p12.maxDescriptorSetUpdateAfterBindStorageImages = 1u << 20;
  p12.maxDescriptorSetUpdateAfterBindInputAttachments = 8;
  // Descriptor indexing: kernels read descriptors from set memory when they run (update after bind
  // needs nothing more) and gather each lane's own record, so non-uniform buffer indices are
  // native. Image and texel-buffer instructions also take each lane's record, but sampling with
  // lane-divergent views loops over the views, so those are not claimed native.
  p12.shaderUniformBufferArrayNonUniformIndexingNative = VK_TRUE;
  p12.shaderStorageBufferArrayNonUniformIndexingNative = VK_TRUE;
  p12.robustBufferAccessUpdateAfterBind = VK_TRUE;
  p12.quadDivergentImplicitLod = VK_FALSE;
  // Depth/stencil resolve attachments (memory/attachment_ops.cpp; MsaaTest.DepthStencilResolveModes).
  // Independent: each aspect is resolved by its own command with its own mode, and NONE records
  // none, so depth and stencil may differ and either may be left unresolved.
  p12.supportedDepthResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_AVERAGE_BIT |
                                   VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT;
  p12.supportedStencilResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT;
  p12.independentResolveNone = VK_TRUE;
  p12.independentResolve = VK_TRUE;
  p12.maxTimelineSemaphoreValueDifference = UINT64_MAX;
  p12.framebufferIntegerColorSampleCounts = kSupportedSampleCounts;

  VkPhysicalDeviceVulkan13Properties& p13 = pd->properties13;
  p13.minSubgroupSize = host_simd_width();
  p13.maxSubgroupSize = host_simd_width();
  p13.maxComputeWorkgroupSubgroups = 1024 / host_simd_width();
  // One subgroup size (the SIMD width): a required size can only be that, and workgroups whose
  // size is a multiple of it have only full subgroups, as computeFullSubgroups asks.
  p13.requiredSubgroupSizeStages = VK_SHADER_STAGE_COMPUTE_BIT;
  p13.maxInlineUniformBlockSize = desc::kMaxInlineUniformBlockSize;
  p13.maxPerStageDescriptorInlineUniformBlocks = desc::kMaxInlineUniformBlocksPerSet;
  p13.maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks = desc::kMaxInlineUniformBlocksPerSet;
  p13.maxDescriptorSetInlineUniformBlocks = desc::kMaxInlineUniformBlocksPerSet;
  p13.maxDescriptorSetUpdateAfterBindInlineUniformBlocks = desc::kMaxInlineUniformBlocksPerSet;
  p13.maxInlineUniformTotalSize = desc::kMaxInlineUniformBlockSize * desc::kMaxInlineUniformBlocksPerSet;
  p13.storageTexelBufferOffsetAlignmentBytes = 16;
  p13.uniformTexelBufferOffsetAlignmentBytes = 16;
  // Texel buffers are read and written with unaligned loads and stores (atomics on R32 texels stay
  // 4-byte aligned): one texel's size is alignment enough. ComputeImageTest.TexelBuffers*.
  p13.storageTexelBufferOffsetSingleTexelAlignment = VK_TRUE;
  p13.uniformTexelBufferOffsetSingleTexelAlignment = VK_TRUE;
  p13.maxBufferSize = kMaxResourceSize;

  // Features: only what works and is tested.
  // Every shader buffer access is bounds-checked against its descriptor (compiler/translate_memory.cpp);
  // vertex input must keep this when graphics arrives.
  pd->features.robustBufferAccess = VK_TRUE;
  pd->features12.timelineSemaphore = VK_TRUE;
  // 8-, 16- and 64-bit arithmetic types and 8/16-bit buffer and push-constant storage, including
  // subgroup operations on them (tests/e2e/compute_types_test.cpp). storageInputOutput16 stays
  // FALSE until stages with inputs and outputs exist.
  pd->features.shaderInt64 = VK_TRUE;
  pd->features.shaderInt16 = VK_TRUE;
  pd->features.shaderFloat64 = VK_TRUE;
  pd->features11.storageBuffer16BitAccess = VK_TRUE;
  pd->features11.uniformAndStorageBuffer16BitAccess = VK_TRUE;
  pd->features11.storagePushConstant16 = VK_TRUE;
  pd->features12.shaderInt8 = VK_TRUE;
  pd->features12.shaderFloat16 = VK_TRUE;
  pd->features12.storageBuffer8BitAccess = VK_TRUE;
  pd->features12.uniformAndStorageBuffer8BitAccess = VK_TRUE;
  pd->features12.storagePushConstant8 = VK_TRUE;
  pd->features12.shaderSubgroupExtendedTypes = VK_TRUE;
  // Descriptors (icd/descriptor_*.cpp; tests/e2e/descriptor_indexing_test.cpp,
  // descriptor_indexing_images_test.cpp, descriptor_inline_uniform_block_test.cpp): inline uniform
  // blocks live in set memory; arrays of buffers, images and texel buffers take any index per lane
  // (past the end: a null descriptor), may be runtime-sized, partially bound, of variable count
  // and updated after bind: `descriptorIndexing` with every sub-feature it requires. Input
  // attachments are read like sampled images (compiler/translate_image.cpp), so their arrays are
  // indexed the same way (InputAttachmentTest.ArrayIndexedPerFragment).
  pd->features12.descriptorIndexing = VK_TRUE;
  pd->features12.shaderInputAttachmentArrayDynamicIndexing = VK_TRUE;
  pd->features12.shaderInputAttachmentArrayNonUniformIndexing = VK_TRUE;
  pd->features.shaderStorageImageArrayDynamicIndexing = VK_TRUE;
  pd->features12.shaderUniformTexelBufferArrayDynamicIndexing = VK_TRUE;
  pd->features12.shaderStorageTexelBufferArrayDynamicIndexing = VK_TRUE;
  pd->features12.shaderStorageImageArrayNonUniformIndexing = VK_TRUE;
  pd->features12.shaderUniformTexelBufferArrayNonUniformIndexing = VK_TRUE;
  pd->features12.shaderStorageTexelBufferArrayNonUniformIndexing = VK_TRUE;
  pd->features12.descriptorBindingSampledImageUpdateAfterBind = VK_TRUE;
  pd->features12.descriptorBindingStorageImageUpdateAfterBind = VK_TRUE;
  pd->features12.descriptorBindingUniformTexelBufferUpdateAfterBind = VK_TRUE;
  pd->features12.descriptorBindingStorageTexelBufferUpdateAfterBind = VK_TRUE;
  pd->features.shaderUniformBufferArrayDynamicIndexing = VK_TRUE;
  // Sampled images and samplers: any index per lane (the kernel calls each lane's view's routine;
  // compiler/translate_sample.cpp; tests/e2e/compute_sampling_test.cpp).
  pd->features.shaderSampledImageArrayDynamicIndexing = VK_TRUE;
  pd->features12.shaderSampledImageArrayNonUniformIndexing = VK_TRUE;
  // Sampling extras (memory/sampling.cpp; tests/e2e/compute_sampling_test.cpp
  // CubeArraysMirrorClampToEdgeAndExtendedGathers, tests/unit/sampling_test.cpp).
  pd->features.imageCubeArray = VK_TRUE;
  pd->features.shaderImageGatherExtended = VK_TRUE;
  pd->features12.samplerMirrorClampToEdge = VK_TRUE;
  pd->features12.samplerFilterMinmax = VK_TRUE;
  // Anisotropic filtering: N probes along the major axis of the derivatives (memory/sampling.cpp
  // anisotropic_footprint; tests/unit/sampling_test.cpp, tests/e2e/compute_sampling_test.cpp
  // AnisotropicFilteringWithGradients).
  pd->features.samplerAnisotropy = VK_TRUE;
  // Sample-rate shading: one kernel call per sample when the shader reads SampleId/SamplePosition/
  // sample inputs or minSampleShading * samples > 1 (pipeline/graphics/tile_backend.cpp), and
  // GLSL.std.450 InterpolateAt* from the primitive's planes (abi::InterpolationRecord).
  // tests/e2e/msaa_test.cpp SampleShadingTest.* and MsaaSamplesTest.SampleShadingColoursEachSample.
  pd->features.sampleRateShading = VK_TRUE;
  // Every BC, ETC2/EAC and ASTC LDR format is decoded when sampled (tests/e2e/compute_sampling_test.cpp
  // CompressedFormatsDecodeWhenSampled, against memory/compressed and, for BC and ETC2, lavapipe).
  pd->features.textureCompressionBC = VK_TRUE;
  pd->features.textureCompressionETC2 = VK_TRUE;
  pd->features.textureCompressionASTC_LDR = VK_TRUE;
  // Every "storage image extended format" is a storage format (compiler/shader_image_formats.h);
  // the feature only guarantees that. PhysicalDeviceTest.StorageImageExtendedFormatsAreStorageFormats,
  // ComputeImageTest storage cases; CTS caselists/image.extended_formats.2d.txt (docs/cts.md).
  pd->features.shaderStorageImageExtendedFormats = VK_TRUE;
  // Storage images and texel buffers without a format in the module: the kernel carries code for
  // every storage format of the image's class and picks it per lane from the view's format
  // (compiler/translate_image.cpp). ComputeImageTest.StorageImagesWithoutFormat*; CTS
  // image.{store,load_store}.without_format (docs/cts.md).
  pd->features.shaderStorageImageMultisample = VK_TRUE;  // StorageImageMultisampleTest
  pd->features.shaderStorageImageReadWithoutFormat = VK_TRUE;
  pd->features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
  pd->features.shaderStorageBufferArrayDynamicIndexing = VK_TRUE;
  pd->features12.shaderUniformBufferArrayNonUniformIndexing = VK_TRUE;
  pd->features12.shaderStorageBufferArrayNonUniformIndexing = VK_TRUE;
  pd->features12.descriptorBindingUniformBufferUpdateAfterBind = VK_TRUE;
  pd->features12.descriptorBindingStorageBufferUpdateAfterBind = VK_TRUE;
  pd->features12.descriptorBindingUpdateUnusedWhilePending = VK_TRUE;
  pd->features12.descriptorBindingPartiallyBound = VK_TRUE;
  pd->features12.descriptorBindingVariableDescriptorCount = VK_TRUE;
  pd->features12.runtimeDescriptorArray = VK_TRUE;
  pd->features13.inlineUniformBlock = VK_TRUE;
  pd->features13.descriptorBindingInlineUniformBlockUpdateAfterBind = VK_TRUE;
  pd->features13.synchronization2 = VK_TRUE;
  // vkCmdBeginRendering and imageless framebuffers make their attachments current, clear (load
  // ops, vkCmdClearAttachments) and resolve them (icd/cmd_rendering.cpp, icd/cmd_render_pass.cpp;
  // tests/e2e/render_pass_test.cpp); draws render into them (tests/e2e/draw_test.cpp).
  pd->features13.dynamicRendering = VK_TRUE;
  pd->features12.imagelessFramebuffer = VK_TRUE;
  // Fragment kernels mask demoted lanes out of every write but keep them running for
  // derivatives; terminated lanes leave the kernel (compiler/emit_fragment.cpp;
  // DrawTest.DemotedAndTerminatedInvocationsWriteNothing).
  pd->features13.shaderDemoteToHelperInvocation = VK_TRUE;
  // Vertex and fragment kernels write storage buffers and images like compute kernels (helper
  // lanes masked); clip and cull distances are clipped/culled by the front end
  // (pipeline/graphics/clipping.cpp). DrawTest.VertexAndFragmentStoresClipAndCullDistances.
  pd->features.vertexPipelineStoresAndAtomics = VK_TRUE;
  pd->features.fragmentStoresAndAtomics = VK_TRUE;
  pd->features.shaderClipDistance = VK_TRUE;
  pd->features.shaderCullDistance = VK_TRUE;
  // Depth clamp instead of near/far clipping, and polygon modes LINE/POINT
  // (pipeline/graphics/clipping.cpp, setup.cpp; DrawTest.DepthClampDrawsBeyondTheFarPlane,
  // DrawTest.PolygonModeLineDrawsOutlines).
  pd->features.depthClamp = VK_TRUE;
  pd->features.fillModeNonSolid = VK_TRUE;
  // Depth bounds against the stored depth, logic ops for integer/normalized attachments
  // (pipeline/graphics/output_merge.cpp; DrawTest.DepthBoundsTestTheStoredDepth, LogicOpXor...).
  pd->features.depthBounds = VK_TRUE;
  pd->features.logicOp = VK_TRUE;
  // Alpha to one before blending (pipeline/graphics/output_merge.cpp; MsaaTest.AlphaToOneWritesOpaqueAlpha).
  pd->features.alphaToOne = VK_TRUE;
  pd->features13.shaderTerminateInvocation = VK_TRUE;
  // Storage images and texel buffers check every coordinate against the view (out of bounds:
  // reads zero, writes dropped; compiler/translate_image.cpp).
  pd->features13.robustImageAccess = VK_TRUE;
  pd->features13.maintenance4 = VK_TRUE;
  // FAIL_ON_PIPELINE_COMPILE_REQUIRED: kernels in this process or the VkPipelineCache only.
  pd->features13.pipelineCreationCacheControl = VK_TRUE;
  pd->features13.subgroupSizeControl = VK_TRUE;
  pd->features13.computeFullSubgroups = VK_TRUE;
  pd->features12.subgroupBroadcastDynamicId = VK_TRUE;
  // Buffer accesses follow each module's Offset/ArrayStride decorations whatever the layout
  // rules (compiler/spirv_front.h, kKilnLayoutSupport).
  pd->features12.uniformBufferStandardLayout = VK_TRUE;
  pd->features12.scalarBlockLayout = VK_TRUE;
  // Shared memory is zeroed before every workgroup (pipeline/compute_dispatch.cpp), which is what
  // a Workgroup variable's OpConstantNull initializer asks for.
  pd->features13.shaderZeroInitializeWorkgroupMemory = VK_TRUE;
  // Atomics on buffer and shared memory and on 32-bit storage image texels are LLVM
  // atomicrmw/cmpxchg of any width, float add/min/max included (16-bit floats too), serialized per
  // lane (tests/e2e/compute_atomics_test.cpp).
  pd->features12.shaderBufferInt64Atomics = VK_TRUE;
  pd->features12.shaderSharedInt64Atomics = VK_TRUE;
  pd->atomic_float.shaderBufferFloat32Atomics = VK_TRUE;
  pd->atomic_float.shaderBufferFloat32AtomicAdd = VK_TRUE;
  pd->atomic_float.shaderBufferFloat64Atomics = VK_TRUE;
  pd->atomic_float.shaderBufferFloat64AtomicAdd = VK_TRUE;
  pd->atomic_float.shaderSharedFloat32Atomics = VK_TRUE;
  pd->atomic_float.shaderSharedFloat32AtomicAdd = VK_TRUE;
  pd->atomic_float.shaderSharedFloat64Atomics = VK_TRUE;
  pd->atomic_float.shaderSharedFloat64AtomicAdd = VK_TRUE;
  pd->atomic_float.shaderImageFloat32Atomics = VK_TRUE;
  pd->atomic_float.shaderImageFloat32AtomicAdd = VK_TRUE;
  pd->atomic_float2.shaderBufferFloat16Atomics = VK_TRUE;
  pd->atomic_float2.shaderBufferFloat16AtomicAdd = VK_TRUE;
  pd->atomic_float2.shaderBufferFloat16AtomicMinMax = VK_TRUE;
  pd->atomic_float2.shaderBufferFloat32AtomicMinMax = VK_TRUE;
  pd->atomic_float2.shaderBufferFloat64AtomicMinMax = VK_TRUE;
  pd->atomic_float2.shaderSharedFloat16Atomics = VK_TRUE;
  pd->atomic_float2.shaderSharedFloat16AtomicAdd = VK_TRUE;
  pd->atomic_float2.shaderSharedFloat16AtomicMinMax = VK_TRUE;
  pd->atomic_float2.shaderSharedFloat32AtomicMinMax = VK_TRUE;
  pd->atomic_float2.shaderSharedFloat64AtomicMinMax = VK_TRUE;
  pd->atomic_float2.shaderImageFloat32AtomicMinMax = VK_TRUE;
  // Buffer device addresses are host addresses (icd/device_address.cpp); PhysicalStorageBuffer
  // pointers and variable pointers on StorageBuffer and Workgroup storage
  // (tests/e2e/compute_device_address_test.cpp). No capture/replay, a single device.
  pd->features12.bufferDeviceAddress = VK_TRUE;
  pd->features11.variablePointersStorageBuffer = VK_TRUE;
  pd->features11.variablePointers = VK_TRUE;
  // OpSDot/OpUDot/OpSUDot and the AccSat forms on every integer width and on packed 4x8-bit
  // scalars (compiler/translate_dot.cpp; tests/e2e/compute_dot_product_test.cpp). The
  // integerDotProduct*Accelerated properties stay FALSE: the products are plain widened
  // multiply-adds, no faster than the shader doing that arithmetic itself.
  pd->features13.shaderIntegerDotProduct = VK_TRUE;
  // The Vulkan memory model: seq_cst atomics and fences, coherent host caches, and accesses with
  // availability/visibility operands or through Coherent/Volatile variables kept in place by
  // compiler fences (compiler/translate_memory.cpp; CTS caselist memory_model.compute: no
  // failures). Availability/visibility chains of any length hold too: every device access is to
  // one coherent memory, and LLVM moves no plain access across a seq_cst atomic or a fence
  // (CTS memory_model.transitive.*).
  pd->features12.vulkanMemoryModel = VK_TRUE;
  pd->features12.vulkanMemoryModelDeviceScope = VK_TRUE;
  pd->features12.vulkanMemoryModelAvailabilityVisibilityChains = VK_TRUE;
  // Query pools: timestamps, occlusion queries (exact sample counts, so PRECISE is free) and
  // pipeline statistics, reset on the host or on a queue, active across vkCmdExecuteCommands
  // (secondaries are inlined into the primary's execution; pipeline/query_tracker.h;
  // tests/e2e/query_pool_test.cpp, draw_query_test.cpp); private data on any object
  // (icd/private_data.cpp).
  pd->features12.hostQueryReset = VK_TRUE;
  pd->features.occlusionQueryPrecise = VK_TRUE;
  pd->features.pipelineStatisticsQuery = VK_TRUE;
  // Index values are fetched whole and VertexIndex = index + vertexOffset wraps in 32 bits
  // (pipeline/graphics/vertex_stage.cpp; DrawTest.FullUint32IndicesWrapWithTheVertexOffset).
  pd->features.fullDrawIndexUint32 = VK_TRUE;
  pd->features.inheritedQueries = VK_TRUE;
  // BaseVertex, BaseInstance and DrawIndex are vertex-invocation fields
  // (compiler/emit_vertex.cpp; DrawQueryTest.MultiDraw* read all three).
  pd->features11.shaderDrawParameters = VK_TRUE;
  pd->features13.privateData = VK_TRUE;
  // Multiview: a draw repeats per view with ViewIndex, into layer = view; load/clear ops,
  // vkCmdClearAttachments and resolves act per view (pipeline/draw.cpp, memory/attachment_ops;
  // tests/e2e/draw_features_test.cpp MultiviewRendersEachViewIntoItsLayer), geometry shaders
  // included (GeometryTest.MultiviewGeometry).
  pd->features11.multiview = VK_TRUE;
  pd->features11.multiviewGeometryShader = VK_TRUE;
  // Tessellation: control kernels per patch (fibers across barriers), the tessellator and
  // evaluation kernels feed the primitive stream (pipeline/graphics/tessellation_producer.cpp,
  // compiler/emit_tess_control.cpp, emit_tess_evaluation.cpp; tests/e2e/tessellation_test.cpp,
  // tests/unit/tessellation_draw_test.cpp). PointSize travels between the stages like any output
  // and the last one's sizes points; multiview repeats the patches per view with ViewIndex
  // (TessellationTest.PointSizeFromControlPointsSizesEvaluationPoints,
  // MultiviewRunsBothStagesPerViewWithItsViewIndex).
  pd->features.shaderTessellationAndGeometryPointSize = VK_TRUE;
  pd->features11.multiviewTessellationShader = VK_TRUE;
  pd->features.tessellationShader = VK_TRUE;
  // Geometry shaders: a producer of the primitive stream after the vertex or evaluation stage
  // (pipeline/graphics/geometry_stage.cpp, compiler/emit_geometry.cpp; docs/design/geometry.md;
  // tests/e2e/geometry_test.cpp): every input primitive type, strips with EndPrimitive, instancing,
  // PrimitiveId in and out, Layer and ViewportIndex per primitive, statistics.
  pd->features.geometryShader = VK_TRUE;
  // Layouts never change memory in Kiln; depth and stencil aspects in different layouts
  // (barriers, render passes, dynamic rendering) are accepted everywhere
  // (DrawFeaturesTest.DepthAndStencilAspectsInSeparateLayouts).
  pd->features12.separateDepthStencilLayouts = VK_TRUE;
  // Rasterization features of pipeline/graphics/setup.cpp, each with an e2e test in
  // tests/e2e/draw_features_test.cpp: depth bias clamp, points of any size in pointSizeRange
  // with PointCoord, lines wider than 1 (non-strict parallelograms), a blend state per colour
  // attachment, and ViewportIndex/Layer written by the vertex shader selecting viewport + scissor
  // / framebuffer layer.
  pd->features.depthBiasClamp = VK_TRUE;
  pd->features.largePoints = VK_TRUE;
  pd->features.wideLines = VK_TRUE;
  pd->features.independentBlend = VK_TRUE;
  // Dual-source blending: the second source (Location 0 Index 1) feeds the SRC1_* factors of
  // attachment 0 (abi::kDualSourceOutputSlot).
  pd->features.dualSrcBlend = VK_TRUE;
  pd->features.multiViewport = VK_TRUE;
  // Indirect draws read every record (and the count, for the Count commands) when they execute,
  // firstInstance included (pipeline/graphics/draw_context.cpp collect_draws;
  // DrawFeaturesTest.IndirectDrawsEveryRecordAndCount).
  pd->features.multiDrawIndirect = VK_TRUE;
  pd->features.drawIndirectFirstInstance = VK_TRUE;
  pd->features12.drawIndirectCount = VK_TRUE;
  pd->features12.shaderOutputViewportIndex = VK_TRUE;
  pd->features12.shaderOutputLayer = VK_TRUE;

  VkPhysicalDeviceMemoryProperties& m = pd->memory;
  m.memoryHeapCount = 1;
  m.memoryHeaps[0] = {heap_size_bytes(), VK_MEMORY_HEAP_DEVICE_LOCAL_BIT};
  // All memory is host RAM (icd/device_limits.h): a device-local-only type for applications that
  // look for one, the fully host-visible type, and a lazily allocated one for transient
  // attachments (MemoryTest.MemoryTypesFollowTheSpecOrder, TransientAttachmentInLazilyAllocatedMemory).
  m.memoryTypeCount = kMemoryTypeCount;
  m.memoryTypes[kDeviceLocalMemoryType] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
  m.memoryTypes[kHostVisibleMemoryType] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                                           0};
  m.memoryTypes[kLazilyAllocatedMemoryType] = {
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT, 0};
}

}  // namespace kiln

using namespace kiln;

static PhysicalDevice* pdev(VkPhysicalDevice handle) { return from_handle<PhysicalDevice>(handle); }

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceProperties(VkPhysicalDevice physicalDevice,
                                                                       VkPhysicalDeviceProperties* pProperties) {
  *pProperties = pdev(physicalDevice)->properties;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                                                        VkPhysicalDeviceProperties2* pProperties) {
  PhysicalDevice* pd = pdev(physicalDevice);
  pProperties->properties = pd->properties;
  for (auto* s = static_cast<VkBaseOutStructure*>(pProperties->pNext); s; s = s->pNext) {
    switch (s->sType) {
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES:
        copy_out_keeping_chain(reinterpret_cast<VkPhysicalDeviceVulkan11Properties*>(s), pd->properties11);
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES:
        copy_out_keeping_chain(reinterpret_cast<VkPhysicalDeviceVulkan12Properties*>(s), pd->properties12);
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES:
        copy_out_keeping_chain(reinterpret_cast<VkPhysicalDeviceVulkan13Properties*>(s), pd->properties13);
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR:
        reinterpret_cast<VkPhysicalDevicePushDescriptorPropertiesKHR*>(s)->maxPushDescriptors = desc::kMaxPushDescriptors;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_PROPERTIES_EXT:
        // Primitive assembly reads each draw's topology; nothing in a pipeline depends on its class
        // (ExtendedDynamicState3Test.DynamicTopologyCrossesTopologyClasses).
        reinterpret_cast<VkPhysicalDeviceExtendedDynamicState3PropertiesEXT*>(s)->dynamicPrimitiveTopologyUnrestricted = VK_TRUE;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_PROPERTIES_EXT: {
        auto* p = reinterpret_cast<VkPhysicalDeviceGraphicsPipelineLibraryPropertiesEXT*>(s);
        // Linking libraries compiles nothing: each kernel is compiled with its part, vertex fetch
        // included (compiler/vertex_fetch_kernel.h; docs/design/pipeline-libraries.md).
        p->graphicsPipelineLibraryFastLinking = VK_TRUE;
        // Fragment kernels interpolate by their own decorations (abi::FragmentInterface).
        p->graphicsPipelineLibraryIndependentInterpolationDecoration = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_EXT:
        // The divisor is a 32-bit constant in the vertex kernel: any value works.
        reinterpret_cast<VkPhysicalDeviceVertexAttributeDivisorPropertiesEXT*>(s)->maxVertexAttribDivisor = UINT32_MAX;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_PROPERTIES_EXT:
        // Line ends are positioned like every vertex: subPixelPrecisionBits (device_limits.cpp).
        reinterpret_cast<VkPhysicalDeviceLineRasterizationPropertiesEXT*>(s)->lineSubPixelPrecisionBits =
            pd->properties.limits.subPixelPrecisionBits;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_PROPERTIES_EXT: {
        // The mode is pipeline state (RasterizationState::provoking_vertex); captured primitives
        // start at (or, in last-vertex mode, end with) their provoking vertex, fans included
        // (pipeline/graphics/xfb_capture.cpp).
        auto* p = reinterpret_cast<VkPhysicalDeviceProvokingVertexPropertiesEXT*>(s);
        p->provokingVertexModePerPipeline = VK_TRUE;
        p->transformFeedbackPreservesTriangleFanProvokingVertex = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT: {
        // docs/design/transform-feedback.md: positions are 32-bit counters; up to 512 captured
        // bytes per stream (abi::kMaxXfbCaptures over 4 streams).
        auto* p = reinterpret_cast<VkPhysicalDeviceTransformFeedbackPropertiesEXT*>(s);
        p->maxTransformFeedbackStreams = abi::kMaxVertexStreams;
        p->maxTransformFeedbackBuffers = abi::kMaxXfbBuffers;
        p->maxTransformFeedbackBufferSize = UINT32_MAX;
        p->maxTransformFeedbackStreamDataSize = 512;
        p->maxTransformFeedbackBufferDataSize = 512;
        p->maxTransformFeedbackBufferDataStride = 2048;
        p->transformFeedbackQueries = VK_TRUE;
        p->transformFeedbackStreamsLinesTriangles = VK_TRUE;
        p->transformFeedbackRasterizationStreamSelect = VK_TRUE;
        p->transformFeedbackDraw = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_PROPERTIES_EXT: {
        // Bounds are the descriptor's exact range (no rounding up).
        auto* p = reinterpret_cast<VkPhysicalDeviceRobustness2PropertiesEXT*>(s);
        p->robustStorageBufferAccessSizeAlignment = 1;
        p->robustUniformBufferAccessSizeAlignment = 1;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_PROPERTIES_EXT: {
        // What a pipeline gets without robustness features: the same checks as with them.
        auto* p = reinterpret_cast<VkPhysicalDevicePipelineRobustnessPropertiesEXT*>(s);
        p->defaultRobustnessStorageBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
        p->defaultRobustnessUniformBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
        p->defaultRobustnessVertexInputs = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
        p->defaultRobustnessImages = VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_ROBUST_IMAGE_ACCESS_2_EXT;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_PROPERTIES_EXT: {
        // docs/design/mesh-shading.md: workgroups run like compute ones (shared memory is the
        // worker's own, sized per kernel); outputs and payload limits are abi's.
        auto* p = reinterpret_cast<VkPhysicalDeviceMeshShaderPropertiesEXT*>(s);
        constexpr uint32_t kGroups = abi::kMaxMeshWorkgroupTotal, kGroupsPerDimension = 65535, kInvocations = abi::kMaxMeshWorkgroupInvocations;
        p->maxTaskWorkGroupTotalCount = kGroups;
        p->maxMeshWorkGroupTotalCount = kGroups;
        for (int i = 0; i < 3; ++i) {
          p->maxTaskWorkGroupCount[i] = p->maxMeshWorkGroupCount[i] = kGroupsPerDimension;
          p->maxTaskWorkGroupSize[i] = p->maxMeshWorkGroupSize[i] = kInvocations;
        }
        p->maxTaskWorkGroupInvocations = p->maxMeshWorkGroupInvocations = kInvocations;
        p->maxTaskPayloadSize = abi::kMaxTaskPayloadBytes;
        p->maxTaskSharedMemorySize = 32768;
        p->maxTaskPayloadAndSharedMemorySize = 32768 + abi::kMaxTaskPayloadBytes;
        p->maxMeshSharedMemorySize = 32768;
        p->maxMeshPayloadAndSharedMemorySize = 32768 + abi::kMaxTaskPayloadBytes;
        p->maxMeshOutputMemorySize = 32768;
        p->maxMeshPayloadAndOutputMemorySize = 32768 + abi::kMaxTaskPayloadBytes;
        p->maxMeshOutputComponents = 128;
        p->maxMeshOutputVertices = abi::kMaxMeshOutputVertices;
        p->maxMeshOutputPrimitives = abi::kMaxMeshOutputPrimitives;
        p->maxMeshOutputLayers = 2048;  // maxFramebufferLayers
        // Every view of maxMultiviewViewCount works; 16 because CTS 1.3.5.2's max_view_index
        // builds its view mask as (1u << count) - 1, which is undefined for 32.
        p->maxMeshMultiviewViewCount = 16;
        p->meshOutputPerVertexGranularity = 1;
        p->meshOutputPerPrimitiveGranularity = 1;
        p->maxPreferredTaskWorkGroupInvocations = 32;
        p->maxPreferredMeshWorkGroupInvocations = 32;
        p->prefersLocalInvocationVertexOutput = VK_FALSE;
        p->prefersLocalInvocationPrimitiveOutput = VK_FALSE;
        p->prefersCompactVertexOutput = VK_FALSE;
        p->prefersCompactPrimitiveOutput = VK_FALSE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_PROPERTIES_EXT:
        reinterpret_cast<VkPhysicalDeviceMultiDrawPropertiesEXT*>(s)->maxMultiDrawCount = kMaxMultiDrawCount;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT:
        reinterpret_cast<VkPhysicalDeviceExternalMemoryHostPropertiesEXT*>(s)->minImportedHostPointerAlignment =
            kMinImportedHostPointerAlignment;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT: {
        // Every descriptor is one record of set memory (icd/descriptor_buffer.cpp); address
        // spaces are the host's (a device address is a host address).
        auto* p = reinterpret_cast<VkPhysicalDeviceDescriptorBufferPropertiesEXT*>(s);
        constexpr size_t kRecord = abi::kDescriptorRecordSize;
        constexpr VkDeviceSize kAddressSpace = VkDeviceSize{1} << 40;
        p->combinedImageSamplerDescriptorSingleArray = VK_TRUE;
        p->bufferlessPushDescriptors = VK_FALSE;
        p->allowSamplerImageViewPostSubmitCreation = VK_FALSE;
        p->descriptorBufferOffsetAlignment = abi::kDescriptorRecordAlignment;
        p->maxDescriptorBufferBindings = abi::kMaxBoundDescriptorSets;
        p->maxResourceDescriptorBufferBindings = abi::kMaxBoundDescriptorSets;
        p->maxSamplerDescriptorBufferBindings = abi::kMaxBoundDescriptorSets;
        p->maxEmbeddedImmutableSamplerBindings = abi::kMaxBoundDescriptorSets;
        p->maxEmbeddedImmutableSamplers = desc::kMaxDescriptorsPerSet;
        p->bufferCaptureReplayDescriptorDataSize = 0;
        p->imageCaptureReplayDescriptorDataSize = 0;
        p->imageViewCaptureReplayDescriptorDataSize = 0;
        p->samplerCaptureReplayDescriptorDataSize = 0;
        p->accelerationStructureCaptureReplayDescriptorDataSize = 0;
        p->samplerDescriptorSize = p->combinedImageSamplerDescriptorSize = p->sampledImageDescriptorSize =
            p->storageImageDescriptorSize = p->uniformTexelBufferDescriptorSize = p->robustUniformTexelBufferDescriptorSize =
                p->storageTexelBufferDescriptorSize = p->robustStorageTexelBufferDescriptorSize = p->uniformBufferDescriptorSize =
                    p->robustUniformBufferDescriptorSize = p->storageBufferDescriptorSize = p->robustStorageBufferDescriptorSize =
                        p->inputAttachmentDescriptorSize = p->accelerationStructureDescriptorSize = kRecord;
        p->maxSamplerDescriptorBufferRange = kAddressSpace;
        p->maxResourceDescriptorBufferRange = kAddressSpace;
        p->samplerDescriptorBufferAddressSpaceSize = kAddressSpace;
        p->resourceDescriptorBufferAddressSpaceSize = kAddressSpace;
        p->descriptorBufferAddressSpaceSize = kAddressSpace;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_PROPERTIES_EXT:
        // A custom colour is four values in the sampler object: no table to run out of.
        reinterpret_cast<VkPhysicalDeviceCustomBorderColorPropertiesEXT*>(s)->maxCustomBorderColorSamplers = 1u << 20;
        break;
      default:
        // Extension structs promoted to core: the core answer, member by member (generated);
        // structures Kiln does not know keep what the application put there.
        copy_promoted_properties(s, pd->properties11, pd->properties12, pd->properties13);
        break;
    }
  }
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceFeatures(VkPhysicalDevice physicalDevice,
                                                                     VkPhysicalDeviceFeatures* pFeatures) {
  *pFeatures = pdev(physicalDevice)->features;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                                                                      VkPhysicalDeviceFeatures2* pFeatures) {
  PhysicalDevice* pd = pdev(physicalDevice);
  pFeatures->features = pd->features;
  for (auto* s = static_cast<VkBaseOutStructure*>(pFeatures->pNext); s; s = s->pNext) {
    switch (s->sType) {
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES:
        copy_out_keeping_chain(reinterpret_cast<VkPhysicalDeviceVulkan11Features*>(s), pd->features11);
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES:
        copy_out_keeping_chain(reinterpret_cast<VkPhysicalDeviceVulkan12Features*>(s), pd->features12);
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES:
        copy_out_keeping_chain(reinterpret_cast<VkPhysicalDeviceVulkan13Features*>(s), pd->features13);
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT:
        copy_out_keeping_chain(reinterpret_cast<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT*>(s), pd->atomic_float);
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT:
        copy_out_keeping_chain(reinterpret_cast<VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT*>(s), pd->atomic_float2);
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT: {
        // tests/e2e/compute_sampling_test.cpp CustomBorderColors.
        auto* f = reinterpret_cast<VkPhysicalDeviceCustomBorderColorFeaturesEXT*>(s);
        f->customBorderColors = VK_TRUE;
        f->customBorderColorWithoutFormat = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_4444_FORMATS_FEATURES_EXT: {
        // The two formats are ordinary packed formats of the vk.xml format table: transfers,
        // blits, sampling (linear filtering), attachments and blending go through format_pack like
        // every packed format (tests/e2e/format_4444_test.cpp).
        auto* f = reinterpret_cast<VkPhysicalDevice4444FormatsFeaturesEXT*>(s);
        f->formatA4R4G4B4 = VK_TRUE;
        f->formatA4B4G4R4 = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT: {
        // Border texels go through the view's component mapping like every texel
        // (memory/sampling.cpp write_out), so the image's swizzle applies without the sampler's
        // VkSamplerBorderColorComponentMappingCreateInfoEXT (which Kiln then ignores).
        auto* f = reinterpret_cast<VkPhysicalDeviceBorderColorSwizzleFeaturesEXT*>(s);
        f->borderColorSwizzle = VK_TRUE;
        f->borderColorSwizzleFromImage = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR: {
        // OpReadClockKHR reads the CPU's time-stamp counter at either scope (compiler/translate_alu.cpp;
        // tests/e2e/compute_shader_clock_test.cpp).
        auto* f = reinterpret_cast<VkPhysicalDeviceShaderClockFeaturesKHR*>(s);
        f->shaderSubgroupClock = VK_TRUE;
        f->shaderDeviceClock = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT:
        // vkCmdDrawMulti(Indexed)EXT record one draw per entry with DrawIndex = its index
        // (icd/cmd_draw.cpp; tests/e2e/draw_query_test.cpp MultiDraw*).
        reinterpret_cast<VkPhysicalDeviceMultiDrawFeaturesEXT*>(s)->multiDraw = VK_TRUE;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT: {
        // Element = base_instance + (instance - base_instance) / divisor, divisor 0 = base_instance
        // (compiler/emit_vertex.cpp; DrawFeaturesTest.VertexAttributeDivisorRepeatsInstanceData).
        auto* f = reinterpret_cast<VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT*>(s);
        f->vertexAttributeInstanceRateDivisor = VK_TRUE;
        f->vertexAttributeInstanceRateZeroDivisor = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT:
        // DrawFeaturesTest.ColorWriteEnableStaticAndDynamic.
        reinterpret_cast<VkPhysicalDeviceColorWriteEnableFeaturesEXT*>(s)->colorWriteEnable = VK_TRUE;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT:
        // Vulkan 1.3 core dynamic state under the extension's names
        // (DrawFeaturesTest.ExtendedDynamicStateExtensionCommandsActLikeCore).
        reinterpret_cast<VkPhysicalDeviceExtendedDynamicStateFeaturesEXT*>(s)->extendedDynamicState = VK_TRUE;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT: {
        // The states a draw merges over the pipeline's (merge_dynamic_state; e2e
        // ExtendedDynamicState3Test). The others stay FALSE: the rasterization stream is planned
        // per pipeline (transform feedback), the rest is not in Kiln at all (advanced blending,
        // conservative rasterization, sample locations, ...).
        auto* f = reinterpret_cast<VkPhysicalDeviceExtendedDynamicState3FeaturesEXT*>(s);
        f->extendedDynamicState3PolygonMode = VK_TRUE;
        f->extendedDynamicState3SampleMask = VK_TRUE;
        f->extendedDynamicState3AlphaToCoverageEnable = VK_TRUE;
        f->extendedDynamicState3AlphaToOneEnable = VK_TRUE;
        f->extendedDynamicState3LogicOpEnable = VK_TRUE;
        f->extendedDynamicState3ColorBlendEnable = VK_TRUE;
        f->extendedDynamicState3ColorBlendEquation = VK_TRUE;
        f->extendedDynamicState3ColorWriteMask = VK_TRUE;
        f->extendedDynamicState3LineRasterizationMode = VK_TRUE;
        f->extendedDynamicState3LineStippleEnable = VK_TRUE;
        f->extendedDynamicState3DepthClipEnable = VK_TRUE;
        f->extendedDynamicState3DepthClipNegativeOneToOne = VK_TRUE;
        f->extendedDynamicState3ProvokingVertexMode = VK_TRUE;
        f->extendedDynamicState3TessellationDomainOrigin = VK_TRUE;
        f->extendedDynamicState3DepthClampEnable = VK_TRUE;
        f->extendedDynamicState3RasterizationSamples = VK_TRUE;
        // The stream a geometry shader's primitives are rasterized from is draw state too
        // (pipeline/graphics/geometry_stage.cpp). TransformFeedbackTest.DynamicRasterizationStream.
        f->extendedDynamicState3RasterizationStream = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT: {
        auto* f = reinterpret_cast<VkPhysicalDeviceExtendedDynamicState2FeaturesEXT*>(s);
        f->extendedDynamicState2 = VK_TRUE;
        // The logic op is read when a draw merges its dynamic state (DrawFeaturesTest.DynamicLogicOp).
        f->extendedDynamicState2LogicOp = VK_TRUE;
        // TessellationTest.DynamicPatchControlPoints.
        f->extendedDynamicState2PatchControlPoints = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT: {
        // Rectangles with ends perpendicular to the line (setup.cpp emit_line;
        // DrawFeaturesTest.RectangularLinesCoverTheirRectangle), Bresenham lines by the
        // diamond-exit rule, smooth lines (pixel coverage into alpha) and stipple for all three
        // (line_raster.cpp; e2e LineRasterizationTest.*).
        auto* f = reinterpret_cast<VkPhysicalDeviceLineRasterizationFeaturesEXT*>(s);
        f->rectangularLines = VK_TRUE;
        f->bresenhamLines = VK_TRUE;
        f->smoothLines = VK_TRUE;
        f->stippledRectangularLines = f->stippledBresenhamLines = VK_TRUE;
        f->stippledSmoothLines = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NON_SEAMLESS_CUBE_MAP_FEATURES_EXT:
        // Faces addressed alone with the sampler's address modes (memory/sampling.cpp texel();
        // unit Sampling.CubeFacesAndSeamlessEdges).
        reinterpret_cast<VkPhysicalDeviceNonSeamlessCubeMapFeaturesEXT*>(s)->nonSeamlessCubeMap = VK_TRUE;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT:
        // Near plane z = -w and z' = (z + 1) / 2 across the depth range (draw_context.cpp
        // set_viewports, clipping.cpp; DrawTest.DepthClipControlNegativeOneToOne).
        reinterpret_cast<VkPhysicalDeviceDepthClipControlFeaturesEXT*>(s)->depthClipControl = VK_TRUE;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT:
        // Clipping reads RasterizationState::depth_clip, the clamp depth_clamp
        // (DrawTest.DepthClipIsIndependentOfDepthClamp).
        reinterpret_cast<VkPhysicalDeviceDepthClipEnableFeaturesEXT*>(s)->depthClipEnable = VK_TRUE;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT:
        // A vertex kernel per recorded vertex input state (icd/vertex_input_variants.h;
        // DrawFeaturesTest.VertexInputDynamicState).
        reinterpret_cast<VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT*>(s)->vertexInputDynamicState = VK_TRUE;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_FEATURES_EXT:
        // Implicit multisampled images stand in for single-sampled attachments
        // (icd/implicit_attachments.h; MultisampledRenderToSingleSampledTest).
        reinterpret_cast<VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT*>(s)->multisampledRenderToSingleSampled =
            VK_TRUE;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT: {
        // Records in the application's buffers, read as set memory is (icd/descriptor_buffer.cpp;
        // DescriptorBufferTest). Records hold no image layout. No capture/replay, no push
        // descriptors without a push buffer.
        auto* f = reinterpret_cast<VkPhysicalDeviceDescriptorBufferFeaturesEXT*>(s);
        f->descriptorBuffer = VK_TRUE;
        f->descriptorBufferCaptureReplay = VK_FALSE;
        f->descriptorBufferImageLayoutIgnored = VK_TRUE;
        f->descriptorBufferPushDescriptors = VK_FALSE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_FEATURES_EXT:
        // Attachments are memory, and a barrier inside a render pass finishes the draws before it,
        // so a later draw samples what earlier ones wrote (AttachmentFeedbackLoopTest).
        reinterpret_cast<VkPhysicalDeviceAttachmentFeedbackLoopLayoutFeaturesEXT*>(s)->attachmentFeedbackLoopLayout = VK_TRUE;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_2D_VIEW_OF_3D_FEATURES_EXT: {
        // A 2D view of a 3D image's slice is sampled and stored like any 2D view
        // (Image2DViewOf3DTest.SlicesAreSampledAndLoadedThroughTwoDimensionalViews).
        auto* f = reinterpret_cast<VkPhysicalDeviceImage2DViewOf3DFeaturesEXT*>(s);
        f->image2DViewOf3D = VK_TRUE;
        f->sampler2DViewOf3D = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT:
        // Pipelines in parts, linked (icd/graphics_pipeline_library.h; GraphicsPipelineLibraryTest).
        reinterpret_cast<VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT*>(s)->graphicsPipelineLibrary = VK_TRUE;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT: {
        // Assembly splits the id stream at cuts whatever the topology; a list's incomplete
        // primitive before a cut is dropped (DrawFeaturesTest.ListRestartDropsTheIncompletePrimitive).
        auto* f = reinterpret_cast<VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT*>(s);
        f->primitiveTopologyListRestart = VK_TRUE;
        f->primitiveTopologyPatchListRestart = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT: {
        // Primitive assembly picks v_(i+2) (lists, strips) / v_(i+2) of fans as the provoking
        // vertex in LAST mode (DrawFeaturesTest.ProvokingVertexLastForEveryTopology).
        auto* f = reinterpret_cast<VkPhysicalDeviceProvokingVertexFeaturesEXT*>(s);
        f->provokingVertexLast = VK_TRUE;
        // Captured primitives keep the provoking vertex first or last (TransformFeedbackTest.*).
        f->transformFeedbackPreservesProvokingVertex = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT: {
        // Capture from the vertex, evaluation or geometry stage, vertex streams from geometry
        // shaders (tests/e2e/transform_feedback_*_test.cpp).
        auto* f = reinterpret_cast<VkPhysicalDeviceTransformFeedbackFeaturesEXT*>(s);
        f->transformFeedback = VK_TRUE;
        f->geometryStreams = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT: {
        // docs/design/robust-access.md.
        auto* f = reinterpret_cast<VkPhysicalDeviceRobustness2FeaturesEXT*>(s);
        f->robustBufferAccess2 = VK_TRUE;
        f->robustImageAccess2 = VK_TRUE;
        f->nullDescriptor = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT:
        reinterpret_cast<VkPhysicalDevicePipelineRobustnessFeaturesEXT*>(s)->pipelineRobustness = VK_TRUE;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT: {
        // Task and mesh pipelines (docs/design/mesh-shading.md; tests/e2e/mesh_shader_*_test.cpp).
        // No fragment shading rate: primitiveFragmentShadingRateMeshShader stays FALSE.
        auto* f = reinterpret_cast<VkPhysicalDeviceMeshShaderFeaturesEXT*>(s);
        f->taskShader = VK_TRUE;
        f->meshShader = VK_TRUE;
        f->multiviewMeshShader = VK_TRUE;
        f->primitiveFragmentShadingRateMeshShader = VK_FALSE;
        f->meshShaderQueries = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT: {
        // The executor skips the commands while the condition is false; secondaries run inline
        // (ConditionalRenderingTest.*).
        auto* f = reinterpret_cast<VkPhysicalDeviceConditionalRenderingFeaturesEXT*>(s);
        f->conditionalRendering = VK_TRUE;
        f->inheritedConditionalRendering = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT: {
        // Counted per stream before clipping, whatever rasterizer discard says.
        auto* f = reinterpret_cast<VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT*>(s);
        f->primitivesGeneratedQuery = VK_TRUE;
        f->primitivesGeneratedQueryWithRasterizerDiscard = VK_TRUE;
        f->primitivesGeneratedQueryWithNonZeroStreams = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_FEATURES_EXT: {
        // Input-attachment reads see every earlier fragment's colour, depth and stencil writes at
        // the pixel: a tile's primitives run in order on one worker, a shader that reads input
        // attachments gets late tests, and each batch stores before the next one is shaded
        // (InputAttachmentTest.RasterizationOrderAccessSeesEveryEarlierFragment for colour; the CTS
        // rasterization_order_attachment_access depth/stencil cases pass too, docs/cts.md).
        auto* f = reinterpret_cast<VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT*>(s);
        f->rasterizationOrderColorAttachmentAccess = VK_TRUE;
        f->rasterizationOrderDepthAttachmentAccess = VK_TRUE;
        f->rasterizationOrderStencilAttachmentAccess = VK_TRUE;
        break;
      }
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT:
        // Required with Vulkan 1.3: texel buffer offsets follow VkPhysicalDeviceTexelBufferAlignmentProperties
        // (the Vulkan 1.3 properties' storage/uniformTexelBufferOffset*), which Kiln reports.
        reinterpret_cast<VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT*>(s)->texelBufferAlignment = VK_TRUE;
        break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT:
        // 8-bit indices, restart value 0xFF (pipeline/graphics/vertex_stage.cpp fetch_vertex_ids;
        // tests/e2e/draw_features_test.cpp Uint8IndicesWithPrimitiveRestart).
        reinterpret_cast<VkPhysicalDeviceIndexTypeUint8FeaturesEXT*>(s)->indexTypeUint8 = VK_TRUE;
        break;
      default: {
        // Extension structs promoted to core: the core answer, member by member (generated).
        if (copy_promoted_features(s, pd->features11, pd->features12, pd->features13)) break;
        // Any other feature struct: every bit FALSE (Kiln does not support it). Feature structs are
        // sType, pNext, then VkBool32 members only, so zeroing the tail is exact.
        VkBaseOutStructure* next = s->pNext;
        size_t size = feature_struct_size(s->sType);
        if (size > sizeof(VkBaseOutStructure))
          memset(reinterpret_cast<char*>(s) + sizeof(VkBaseOutStructure), 0, size - sizeof(VkBaseOutStructure));
        s->pNext = next;
        break;
      }
    }
  }
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceMemoryProperties(
    VkPhysicalDevice physicalDevice, VkPhysicalDeviceMemoryProperties* pMemoryProperties) {
  *pMemoryProperties = pdev(physicalDevice)->memory;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceMemoryProperties2(
    VkPhysicalDevice physicalDevice, VkPhysicalDeviceMemoryProperties2* pMemoryProperties) {
  pMemoryProperties->memoryProperties = pdev(physicalDevice)->memory;
}

static VkQueueFamilyProperties queue_family(PhysicalDevice* pd) {
  VkQueueFamilyProperties q{};
  q.queueFlags = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
  q.queueCount = pd->queue_count;
  q.timestampValidBits = 64;  // CLOCK_MONOTONIC nanoseconds (pipeline/query_pool.cpp)
  q.minImageTransferGranularity = {1, 1, 1};
  return q;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceQueueFamilyProperties(
    VkPhysicalDevice physicalDevice, uint32_t* pCount, VkQueueFamilyProperties* pProperties) {
  if (!pProperties) {
    *pCount = 1;
    return;
  }
  if (*pCount == 0) return;
  pProperties[0] = queue_family(pdev(physicalDevice));
  *pCount = 1;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceQueueFamilyProperties2(
    VkPhysicalDevice physicalDevice, uint32_t* pCount, VkQueueFamilyProperties2* pProperties) {
  if (!pProperties) {
    *pCount = 1;
    return;
  }
  if (*pCount == 0) return;
  pProperties[0].queueFamilyProperties = queue_family(pdev(physicalDevice));
  *pCount = 1;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceFormatProperties(VkPhysicalDevice,
                                                                             VkFormat format,
                                                                             VkFormatProperties* pProperties) {
  FormatSupport s = format_support(format);
  // The first 31 bits of VkFormatFeatureFlags2 are the VkFormatFeatureFlags bits.
  pProperties->linearTilingFeatures = static_cast<VkFormatFeatureFlags>(s.linear & 0x7FFFFFFF);
  pProperties->optimalTilingFeatures = static_cast<VkFormatFeatureFlags>(s.optimal & 0x7FFFFFFF);
  pProperties->bufferFeatures = static_cast<VkFormatFeatureFlags>(s.buffer & 0x7FFFFFFF);
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceFormatProperties2(VkPhysicalDevice physicalDevice,
                                                                              VkFormat format,
                                                                              VkFormatProperties2* pProperties) {
  kiln_GetPhysicalDeviceFormatProperties(physicalDevice, format, &pProperties->formatProperties);
  if (auto* p3 = find_in_chain_mut<VkFormatProperties3>(pProperties->pNext)) {
    FormatSupport s = format_support(format);
    p3->linearTilingFeatures = s.linear;
    p3->optimalTilingFeatures = s.optimal;
    p3->bufferFeatures = s.buffer;
  }
  // Rendering to a single-sampled attachment with more samples costs an implicit image, a copy in
  // and a resolve out (icd/implicit_attachments.h): not what the spec calls optimal.
  if (auto* resolve = find_in_chain_mut<VkSubpassResolvePerformanceQueryEXT>(pProperties->pNext)) resolve->optimal = VK_FALSE;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetPhysicalDeviceImageFormatProperties(
    VkPhysicalDevice, VkFormat format, VkImageType type, VkImageTiling tiling, VkImageUsageFlags usage,
    VkImageCreateFlags flags, VkImageFormatProperties* pImageFormatProperties) {
  return image_format_properties(format, type, tiling, usage, flags, pImageFormatProperties);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetPhysicalDeviceImageFormatProperties2(
    VkPhysicalDevice, const VkPhysicalDeviceImageFormatInfo2* pInfo, VkImageFormatProperties2* pProperties) {
  // Images, like buffers, can import host allocations (VK_EXT_external_memory_host: an image's
  // memory is plain host memory at an offset, so an imported allocation serves as any other) and
  // share opaque fds (icd/external_memory.cpp); no other handle type.
  const auto* external = find_in_chain<VkPhysicalDeviceExternalImageFormatInfo>(pInfo->pNext);
  const VkExternalMemoryProperties external_properties =
      external && external->handleType ? external_memory_properties(external->handleType) : VkExternalMemoryProperties{};
  if (external && external->handleType && !external_properties.externalMemoryFeatures) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  VkImageUsageFlags usage = pInfo->usage;
  if (auto* stencil_usage = find_in_chain<VkImageStencilUsageCreateInfo>(pInfo->pNext)) usage |= stencil_usage->stencilUsage;
  const VkResult result = image_format_properties(pInfo->format, pInfo->type, pInfo->tiling, usage, pInfo->flags,
                                                  &pProperties->imageFormatProperties);
  if (auto* out = find_in_chain_mut<VkExternalImageFormatProperties>(pProperties->pNext))
    out->externalMemoryProperties = result == VK_SUCCESS ? external_properties : VkExternalMemoryProperties{};
  return result;
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceSparseImageFormatProperties(
    VkPhysicalDevice, VkFormat, VkImageType, VkSampleCountFlagBits, VkImageUsageFlags, VkImageTiling,
    uint32_t* pPropertyCount, VkSparseImageFormatProperties*) {
  *pPropertyCount = 0;  // no sparse resources
}

extern "C" VKAPI_ATTR void VKAPI_CALL kiln_GetPhysicalDeviceSparseImageFormatProperties2(
    VkPhysicalDevice, const VkPhysicalDeviceSparseImageFormatInfo2*, uint32_t* pPropertyCount,
    VkSparseImageFormatProperties2*) {
  *pPropertyCount = 0;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_EnumerateDeviceExtensionProperties(
    VkPhysicalDevice, const char* pLayerName, uint32_t* pPropertyCount, VkExtensionProperties* pProperties) {
  if (pLayerName) return VK_ERROR_LAYER_NOT_PRESENT;
  return enumerate_extensions(supported_device_extensions(), pPropertyCount, pProperties);
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_EnumerateDeviceLayerProperties(VkPhysicalDevice, uint32_t* pPropertyCount,
                                                                              VkLayerProperties*) {
  *pPropertyCount = 0;
  return VK_SUCCESS;
}

extern "C" VKAPI_ATTR VkResult VKAPI_CALL kiln_GetPhysicalDeviceToolProperties(VkPhysicalDevice, uint32_t* pToolCount,
                                                                               VkPhysicalDeviceToolProperties*) {
  *pToolCount = 0;
  return VK_SUCCESS;
}
