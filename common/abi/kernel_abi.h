#pragma once
// Kiln's kernel ABI: the one header that says how JIT-compiled shader kernels are called and
// what memory they read (ARCHITECTURE.md, decisions 1 and 2). Plain C++ — no LLVM here; icd/
// writes descriptor memory in these formats, pipeline/ calls kernels with these signatures, and
// compiler/ generates code that reads exactly these layouts. It lives in its own header-only
// target (kiln_kernel_abi) below compiler/, memory/ and pipeline/, so none of them reaches into
// another for it. Change it only together with the translator and the tests that run kernels
// (tests/unit/graphics_kernel_test.cpp, descriptor_memory_test.cpp and the e2e suite).
#include <cstddef>
#include <cstdint>

namespace kiln::abi {

// ---------------------------------------------------------------------------------------------
// Descriptors are memory. A descriptor set is a block of fixed-size records, one per array
// element of each binding, at the offsets its layout assigns (DescriptorSetLayout in icd/).
// Shaders load these records directly; there is no C++ call per descriptor access.
// ---------------------------------------------------------------------------------------------
constexpr uint32_t kDescriptorRecordSize = 32;
constexpr uint32_t kDescriptorRecordAlignment = 16;

// UNIFORM_BUFFER, STORAGE_BUFFER (and their _DYNAMIC forms once the dynamic offset is applied).
// A null descriptor (robustness2) has address 0 and range 0.
struct BufferDescriptor {
  uint64_t address;  // first byte the shader sees
  uint64_t range;    // bytes the shader may access; robust access clamps against it
  uint64_t reserved[2];
};

// UNIFORM_TEXEL_BUFFER, STORAGE_TEXEL_BUFFER.
// A null descriptor (or a view Kiln cannot address) is all zero: every access is out of bounds.
struct TexelBufferDescriptor {
  uint64_t address;
  uint32_t element_count;  // texels in range
  uint32_t format;         // VkFormat
  uint32_t texel_bytes;    // bytes per texel of `format`
  uint32_t reserved0;
  uint64_t reserved1;
};

// SAMPLED_IMAGE, STORAGE_IMAGE, INPUT_ATTACHMENT, SAMPLER, COMBINED_IMAGE_SAMPLER: pointers to
// records owned by the VkImageView / VkSampler objects (the view must outlive the set's use, as
// Vulkan requires). A null descriptor has image_view == nullptr: shaders then read a record of
// zero size, so every access is out of bounds.
struct ImageSamplerDescriptor {
  const void* image_view;  // ImageViewRecord*, or nullptr
  const void* sampler;     // mem::Sampler* (memory/image_view.h), or nullptr
  uint64_t reserved[2];
};

// What a shader needs to address the texels of an image view's base mip level. The view is
// described as a grid in the coordinate space of SPIR-V image instructions, so the kernel's
// address math is the same for every view type:
//   texel (c0, c1, c2) lives at address + c0 * pitch[0] + c1 * pitch[1] + c2 * pitch[2]
//   and exists when c_i < size[i] for each i (unused dimensions have size 1, pitch 0).
// Per view type, (size[0], size[1], size[2]) is:
//   1D (w,1,1)  1D_ARRAY (w,layers,1)  2D (w,h,1)  2D_ARRAY (w,h,layers)  3D (w,h,d)
//   CUBE (w,h,6)  CUBE_ARRAY (w,h,6*cubes)  2D(_ARRAY) view of a 3D image (w,h,slices).
// pitch[0] is the texel size in bytes. Depth/stencil views address the aspect they select.
struct SampleArgs;
// A view's sampling routine (memory/sampling.h): runs one sample instruction for the lanes of
// `lanes` whose view record names this same routine, and returns those lanes.
using SampleFn = uint32_t (*)(SampleArgs* args, uint32_t lanes);

struct ImageViewRecord {
  uint64_t address;    // texel (0,0,0) of the view's base mip level and first layer/slice
  uint64_t pitch[3];   // bytes between neighbouring texels in each coordinate
  uint32_t size[3];    // texels in each coordinate
  uint32_t format;     // VkFormat of the view
  // Sampling (SAMPLED_IMAGE / COMBINED_IMAGE_SAMPLER; fields above serve storage images).
  SampleFn sample;           // the routine for the view's format; nullptr if it cannot be sampled
  const void* sampled_view;  // mem::SampledView: every mip level and layer of the view
  uint32_t level_count;      // mip levels of the view (OpImageQueryLevels)
  uint32_t samples;          // OpImageQuerySamples
};

// ---------------------------------------------------------------------------------------------
// Sampling: a kernel fills one SampleArgs per sample/fetch/gather instruction (SoA, lane-minor)
// and calls the view's SampleFn once per distinct routine among its lanes (normally once).
// ---------------------------------------------------------------------------------------------
constexpr uint32_t kMaxSampleLanes = 16;

enum SampleOp : uint32_t {
  kSampleOpSample = 0,    // filtered sample (OpImageSample*)
  kSampleOpFetch = 1,     // OpImageFetch: integer coordinates, no sampler
  kSampleOpGather = 2,    // OpImageGather / OpImageDrefGather: component in gather_component
  kSampleOpQueryLod = 3,  // OpImageQueryLod: out[0] = mip level accessed, out[1] = LOD (relative to base)
  kSampleOpMask = 0xFF,
  // LOD source (sample / query): implicit from quad derivatives (fragment), explicit Lod, or Grad.
  kSampleImplicitLod = 0,
  kSampleExplicitLod = 1u << 8,
  kSampleGrad = 2u << 8,
  kSampleLodMask = 3u << 8,
  kSampleBias = 1u << 10,       // lod[] holds a bias (implicit LOD only)
  kSampleDref = 1u << 11,       // dref[] holds the depth reference
  kSampleProj = 1u << 12,       // divide coordinates (and dref) by coord[q_index]
  kSampleOffset = 1u << 13,     // offset[] holds per-lane texel offsets
  kSampleMinLod = 1u << 14,     // min_lod[] holds the shader's minimum LOD
  kSampleOffsets4 = 1u << 15,   // gather_offsets holds ConstOffsets (gather)
  kSampleIndex = 1u << 16,      // sample_index[] holds the Sample operand (fetch from a multisampled image)
  // The kernel proved view[] and sampler[] equal in every lane it passes; the routine then serves the
  // whole instruction and may write out[] of lanes it was not passed (they are inactive).
  kSampleUniform = 1u << 17,
  // With kSampleUniform: uniform_view and uniform_sampler hold that view and sampler, stored as
  // scalars, so routines need not read one lane of view[] / sampler[] right after the kernel's
  // vector stores of them (a load that store forwarding cannot serve, which stalls).
  kSampleUniformRecords = 1u << 18,
};

struct SampleArgs {
  uint32_t op;                // SampleOp kind | flags
  uint32_t width;             // W: lanes in the arrays below (<= kMaxSampleLanes)
  uint32_t coord_count;       // coordinates the shader passed (incl. array layer, excl. Proj's q)
  uint32_t gather_component;  // 0..3
  int32_t gather_offsets[4][2];
  const ImageViewRecord* view[kMaxSampleLanes];
  const void* sampler[kMaxSampleLanes];  // mem::Sampler*, nullptr for fetches
  // Coordinates: float for sample/gather/query, int32 bit patterns for fetch. For Proj, q is
  // coord[coord_count].
  uint32_t coord[4][kMaxSampleLanes];
  float lod[kMaxSampleLanes];    // Lod / Bias operand (fetch: int32 level)
  float min_lod[kMaxSampleLanes];
  float dref[kMaxSampleLanes];
  float grad[2][3][kMaxSampleLanes];  // dP/dx, dP/dy per coordinate
  int32_t offset[3][kMaxSampleLanes];
  uint32_t out[4][kMaxSampleLanes];   // float or int bit patterns as the format's class
  int32_t sample_index[kMaxSampleLanes];  // kSampleIndex: which sample of the texel a fetch reads
  // kSampleUniformRecords: every lane's view[] / sampler[] entry. Last, so the fields above keep the
  // offsets kernels compiled before them (kept in pipeline caches) use; those never set the flag.
  const ImageViewRecord* uniform_view;
  const void* uniform_sampler;
};

static_assert(sizeof(BufferDescriptor) == kDescriptorRecordSize);
static_assert(sizeof(TexelBufferDescriptor) == kDescriptorRecordSize);
static_assert(sizeof(ImageSamplerDescriptor) == kDescriptorRecordSize);

// INLINE_UNIFORM_BLOCK bindings are not records: their descriptorCount bytes are stored in the
// set's memory at the binding's offset (16-byte aligned) and read like a uniform buffer.

constexpr uint32_t kMaxBoundDescriptorSets = 8;
constexpr uint32_t kMaxPushConstantBytes = 256;
// maxComputeSharedMemorySize: a compute kernel with more workgroup memory is refused at pipeline
// creation (the memory is allocated per workgroup at dispatch).
constexpr uint32_t kMaxComputeSharedMemoryBytes = 32768;
// Function/Private variables live in the kernel's stack frame (W interleaved copies). Kernels run
// on worker threads (8 MiB stacks by default) or, when they use barriers, on 256 KiB fibers
// (pipeline/fiber.h): a kernel whose variables would not fit with room to spare is refused at
// pipeline creation instead of overflowing the stack.
constexpr uint64_t kMaxPrivateBytesOnThreadStack = 2u << 20;
constexpr uint64_t kMaxPrivateBytesOnFiberStack = 128u << 10;
constexpr uint32_t kMaxDynamicBuffers = 32;  // 16 uniform + 16 storage

// ---------------------------------------------------------------------------------------------
// debugPrintfEXT (NonSemantic.DebugPrintf; docs/design/debug-output.md). Each executed
// DebugPrintf instruction fills one DebugPrintfCall for the lanes that run it and calls
// ResourceContext::debug_printf once; the callee formats one message per lane, in ascending lane
// order, and reports it.
// ---------------------------------------------------------------------------------------------
constexpr uint32_t kMaxDebugPrintfLanes = 16;
// DebugPrintfCall::kinds: the bit width of an argument component (8, 16, 32 or 64) ...
constexpr uint8_t kPrintfWidthMask = 0x7F;
constexpr uint8_t kPrintfFloat = 0x80;  // ... | this for a floating-point component
// DebugPrintfCall::ids of each stage (one row per lane):
//   compute, task, mesh        WorkgroupId x y z, LocalInvocationId x y z
//   vertex                     VertexIndex, InstanceIndex
//   tessellation control       PrimitiveId, InvocationId
//   tessellation evaluation    PrimitiveId, TessCoord u v w (float bits)
//   geometry                   PrimitiveId, InvocationId
//   fragment                   the pixel: FragCoord x y truncated to integers
constexpr uint32_t kDebugPrintfIds = 6;
struct DebugPrintfCall {
  const char* format;     // the format string (the instruction's OpString), NUL-terminated
  const uint8_t* kinds;   // [value_count]: kPrintfWidthMask bits | kPrintfFloat
  uint32_t value_count;   // scalar components of the arguments, in argument order
  uint32_t stage;         // ShaderStage
  uint32_t width;         // W: lanes in `values` rows
  uint32_t lanes;         // bit i: lane i prints
  const uint64_t* values;  // [value * width + lane]: each component's bits, zero-extended
  uint32_t ids[kDebugPrintfIds][kMaxDebugPrintfLanes];  // [id][lane], as listed above
};
// `context` is ResourceContext::debug_printf_context.
using DebugPrintfFn = void (*)(const void* context, const DebugPrintfCall* call);

// ---------------------------------------------------------------------------------------------
// Strict mode's shader reports (KILN_STRICT=1, docs/strict-mode.md). Kernels compiled for strict
// mode call ResourceContext::shader_fault once per instruction, kernel call and kind of fault whose
// lanes went out of their resource's range (or read poison), naming the application's instruction;
// the engine reports each site once.
// ---------------------------------------------------------------------------------------------
// What strict kernels report: a mask of these in CompileRequest/TranslateOptions::strict_reports,
// one of them in ShaderFaultCall::kind.
constexpr uint32_t kShaderFaultBufferBounds = 1u << 0;  // a buffer or texel buffer access outside its range
constexpr uint32_t kShaderFaultImageBounds = 1u << 1;   // a storage image access outside the view
constexpr uint32_t kShaderFaultPoisonRead = 1u << 2;    // a buffer load that read strict mode's poison
constexpr uint32_t kShaderFaultKinds = 3;
struct ShaderFaultCall {
  uint32_t kind;          // kShaderFault*
  const char* site;       // "OpLoad %42" etc.: the instruction in the application's module (a
                          // constant of the kernel, so also the site's identity)
  const char* file;       // the instruction's OpLine file, or null without line information
  uint32_t line;          // its OpLine line (0: none)
  uint32_t stage;         // ShaderStage
  uint32_t lanes;         // bit i: lane i faulted
  uint32_t ids[kDebugPrintfIds][kMaxDebugPrintfLanes];  // each lane's identity, as DebugPrintfCall::ids
};
// `context` is ResourceContext::shader_fault_context.
using ShaderFaultFn = void (*)(const void* context, const ShaderFaultCall* call);

// ---------------------------------------------------------------------------------------------
// What every kernel receives: the bound resources of the draw or dispatch.
// ---------------------------------------------------------------------------------------------
// The cancellation word of contexts that belong to no device (unit tests): never set.
inline constexpr uint32_t kNeverCancelled = 0;

struct ResourceContext {
  const uint8_t* descriptor_sets[kMaxBoundDescriptorSets];  // set memory, or nullptr if unbound
  // Dynamic buffers of all bound sets, in pipeline-layout order, offsets already applied.
  BufferDescriptor dynamic_buffers[kMaxDynamicBuffers];
  alignas(16) uint8_t push_constants[kMaxPushConstantBytes];
  // Elements of each bound set's variable-count binding (VARIABLE_DESCRIPTOR_COUNT, always the
  // set's last binding), chosen when the set was allocated: shaders clamp indices against it.
  uint32_t variable_counts[kMaxBoundDescriptorSets];
  // Where debugPrintfEXT messages go (set by icd/ when a pipeline is bound); null: nowhere.
  DebugPrintfFn debug_printf;
  const void* debug_printf_context;
  // Cancellation (docs/design/device-loss.md): the device's loss word, which kernels load on every
  // loop back-edge; when it is non-zero the loop exits at once (the lanes still in it stop), so a
  // shader that never leaves a loop ends once the watchdog declares the device lost. Never null.
  const uint32_t* cancel = &kNeverCancelled;
  // Strict mode's reports of out-of-bounds accesses (set by icd/ when the device is strict; only
  // kernels compiled for strict mode call it). Null: nowhere. New fields go last, so the fields
  // above keep their offsets.
  ShaderFaultFn shader_fault = nullptr;
  const void* shader_fault_context = nullptr;
};

// Bits a kernel ORs into ComputeDispatchContext::faults when the application's data made it clamp
// something it cannot detect at record time; the engine logs each kind once after the dispatch.
constexpr uint32_t kFaultDescriptorIndex = 1u << 0;  // a descriptor array index past the array's end

// ---------------------------------------------------------------------------------------------
// Compute (and later task/mesh) kernels: one call runs one subgroup of W invocations of one
// workgroup. Lanes are invocations local_index = subgroup_id * W + lane; lanes past the
// workgroup's size are inactive from the start.
// ---------------------------------------------------------------------------------------------
struct ComputeDispatchContext {
  const ResourceContext* resources;
  uint32_t workgroup_size[3];   // LocalSize (from the module or specialization)
  uint32_t workgroup_count[3];  // NumWorkgroups: the dispatch's group counts
  uint32_t base_workgroup[3];   // vkCmdDispatchBase offset (WorkgroupId includes it)
  uint32_t* faults;             // kFault* bits, ORed atomically by kernels (never null)
  // Task and mesh kernels (a draw's workgroups): DrawIndex and ViewIndex; 0 for compute.
  uint32_t draw_index;
  uint32_t view_index;
};

struct ComputeInvocation {
  const ComputeDispatchContext* dispatch;
  uint32_t workgroup_id[3];  // includes base_workgroup
  uint32_t subgroup_id;
  uint32_t subgroup_count;
  uint8_t* shared_memory;    // the workgroup's Workgroup-storage block (zeroed when the shader asks)
  // OpControlBarrier with Workgroup scope: suspends this subgroup until every other live
  // subgroup of the workgroup has reached a barrier too (pipeline/compute_dispatch.cpp).
  void (*workgroup_barrier)(void* barrier_context);
  void* barrier_context;
};

// The kernel entry point. Returns nothing; writes memory only through descriptors.
using ComputeKernelFn = void (*)(const ComputeInvocation* invocation);

// ---------------------------------------------------------------------------------------------
// Task and mesh kernels (docs/design/mesh-shading.md) are compute kernels: one call runs one
// subgroup of a workgroup with a ComputeInvocation. What a workgroup hands on lives in its shared
// memory, which starts with a MeshHeader: SetMeshOutputsEXT writes the output counts, and
// EmitMeshTasksEXT the mesh grid. The task payload (TaskPayloadWorkgroupEXT) and a mesh
// workgroup's outputs (per-vertex and per-primitive arrays, primitive indices) are shared-memory
// variables in natural layout at offsets the compiler reports (compiler/translator.h MeshInfo):
// any invocation may write any vertex or primitive, and the engine reads them after the
// workgroup has run. The engine copies the task workgroup's payload into each of its mesh
// workgroups' shared memory before they run.
// ---------------------------------------------------------------------------------------------
constexpr uint32_t kMaxMeshOutputVertices = 256;    // maxMeshOutputVertices
constexpr uint32_t kMaxMeshOutputPrimitives = 256;  // maxMeshOutputPrimitives
constexpr uint32_t kMaxTaskPayloadBytes = 16384;    // maxTaskPayloadSize
constexpr uint32_t kMaxMeshWorkgroupInvocations = 128;  // maxTaskWorkGroupInvocations / maxMeshWorkGroupInvocations
constexpr uint32_t kMaxMeshWorkgroupTotal = 1u << 22;   // maxTaskWorkGroupTotalCount / maxMeshWorkGroupTotalCount
struct MeshHeader {
  uint32_t vertex_count;     // SetMeshOutputsEXT: vertices and primitives the workgroup outputs
  uint32_t primitive_count;  // (0 when never called: nothing is drawn)
  uint32_t task_count[3];    // EmitMeshTasksEXT: the mesh workgroups a task workgroup launches
  uint32_t reserved[3];
};
constexpr uint32_t kMeshHeaderBytes = sizeof(MeshHeader);
// Where one word of a mesh workgroup's vertex records (VertexOutputLayout slots) is in its shared
// memory: element 0's word at `offset`, the others `stride` apart, per vertex or per primitive.
struct MeshOutputWord {
  int32_t offset = -1;  // -1: never written (reads 0)
  uint32_t stride = 0;
  bool per_primitive = false;
};
static_assert(kMeshHeaderBytes == 32, "variables after the header keep 16-byte alignment");


// ---------------------------------------------------------------------------------------------
// Graphics kernels. Stage data flows as structure-of-arrays batches (ARCHITECTURE.md decision 3):
// a 4-component slot of 32-bit values per varying, component-major, lane-minor:
//   value (slot s, component c) of lane i is at  data[(s * 4 + c) * W + i]
// Values are raw 32-bit patterns (float, int or uint as the shader declares them). 64-bit and
// 16-bit varyings are not supported by these kernels yet (the compiler rejects them).
// ---------------------------------------------------------------------------------------------
constexpr uint32_t kMaxVertexBindings = 32;
constexpr uint32_t kMaxVertexAttributes = 32;
constexpr uint32_t kMaxVaryingLocations = 32;  // maxVertexOutputComponents / 4
constexpr uint32_t kMaxColorAttachments = 8;
// Output slot of Location 0 Index 1 (dual-source blending). It borrows Location 1's slot: a
// pipeline blending with SRC1_* factors writes only Location 0 (maxFragmentDualSrcAttachments is
// 1), and a shader that also writes Location 1 has its Index 1 output dropped by the compiler.
constexpr uint32_t kDualSourceOutputSlot = 1;
constexpr uint32_t kMaxClipDistances = 8;
// Fragment shaders read ClipDistance[i] / CullDistance[j] from two input slots after the
// Locations: component kClipCullInputSlot * 4 + i, then + clip_distance_inputs + j.
constexpr uint32_t kClipCullInputSlot = kMaxVaryingLocations;
// InterpolateAtCentroid/Sample/Offset: the first 8 bytes of this slot hold a pointer to the
// primitive's InterpolationRecord (filled only when FragmentInterface::interpolates_at_positions).
constexpr uint32_t kInterpolationInputSlot = kMaxVaryingLocations + 2;
constexpr uint32_t kFragmentInputSlots = kMaxVaryingLocations + 3;
constexpr uint32_t kMaxInterpolationSamples = 8;  // rasterizationSamples Kiln supports

// Everything a fragment kernel needs to interpolate a Location input at any position of the
// primitive's plane itself (GLSL.std.450 InterpolateAt*): the engine's own setup, so the kernel
// evaluates exactly what the engine would at that position. Positions are framebuffer pixels.
//   b1 = b1[0] + b1[1] * (x - origin[0]) + b1[2] * (y - origin[1])   (b2 likewise; b0 = 1 - b1 - b2)
//   NoPerspective weights: (b1, b2). Smooth ones (when `perspective`): q_i = b_i * inv_w[i],
//   p_i = q_i / (q0 + q1 + q2), else the screen weights.
//   value of input component k = component[k][0] + p1 * component[k][1] + p2 * component[k][2]
struct InterpolationRecord {
  float origin[2];
  float b1[3], b2[3];
  float inv_w[3];
  uint32_t perspective;  // 1 when 1/w differs between the vertices
  uint32_t samples;      // rasterization samples (1 when single-sampled)
  float sample_position[kMaxInterpolationSamples][2];  // within the pixel, (0.5, 0.5) = centre
  float component[kMaxVaryingLocations * 4][3];          // vertex 0's value, differences to vertices 1 and 2
};

// One bound vertex buffer (vkCmdBindVertexBuffers(2)); `address` is null when nothing is bound.
// Attribute fetches past `size` read the format's zero: (0, 0, 0, 1) in the attribute's type when
// the format has no fourth component, else (0, 0, 0, 0) (robustBufferAccess2).
struct VertexBufferRecord {
  const uint8_t* address;  // buffer data + bind offset
  uint64_t size;           // bytes from `address` the draw may read
  uint64_t stride;         // bytes between elements (pipeline state or dynamic stride)
  uint64_t reserved;
};

// Transform feedback (VK_EXT_transform_feedback): which 32-bit output components of the last
// pre-rasterization stage are captured, and where. A capture reads component `component` of
// output slot `slot` and writes it `offset` bytes into each vertex's `stride[buffer]`-byte record
// of buffer `buffer`; outputs of vertex stream `stream` (geometry shaders) are captured with
// that stream's primitives.
constexpr uint32_t kMaxXfbBuffers = 4;    // maxTransformFeedbackBuffers
constexpr uint32_t kMaxXfbCaptures = 512;  // 4 streams x maxTransformFeedbackStreamDataSize (512 bytes) / 4
struct XfbCapture {
  uint16_t offset;
  uint8_t buffer, stream;
  uint8_t slot, component;
};
struct XfbLayout {
  uint32_t capture_count = 0;  // 0: the stage captures nothing
  uint32_t stride[kMaxXfbBuffers] = {};
  XfbCapture captures[kMaxXfbCaptures];
};

// Where a vertex kernel puts each output of a vertex (reported by the compiler per kernel).
// Position is always slot 0. A -1 slot means the shader does not write that output.
struct VertexOutputLayout {
  uint32_t slot_count = 1;
  int32_t point_size_slot = -1;     // component 0
  int32_t layer_slot = -1;          // component 0 (int)
  int32_t viewport_index_slot = -1; // component 0 (int)
  int32_t primitive_id_slot = -1;   // component 0 (int): geometry shaders' PrimitiveId output
  // ClipDistance[i] / CullDistance[i] live at slot + i / 4, component i % 4.
  int32_t clip_distance_slot = -1;
  uint32_t clip_distance_count = 0;
  int32_t cull_distance_slot = -1;
  uint32_t cull_distance_count = 0;
  int32_t location_slot[kMaxVaryingLocations];  // Location L's four components; -1 if unwritten
  XfbLayout xfb;                                 // what transform feedback captures of these outputs
  VertexOutputLayout() { for (int32_t& s : location_slot) s = -1; }
};

// One call shades `lane_count` (<= W) vertices. The kernel fetches its own vertex attributes
// (the vertex input formats are part of its compile key) from `vertex_buffers`, indexed by
// binding, at element vertex_index[i] (per-vertex rate) or at the instance element
// (base_instance + (instance_index - base_instance) / divisor, per-instance rate).
struct VertexInvocation {
  const ResourceContext* resources;
  const VertexBufferRecord* vertex_buffers;  // [kMaxVertexBindings]
  uint32_t* faults;                          // kFault* bits (never null)
  const int32_t* vertex_index;               // [W]: VertexIndex (index + vertexOffset, or firstVertex + n)
  uint32_t lane_count;                       // lanes >= lane_count are inactive
  uint32_t instance_index;                   // InstanceIndex (includes firstInstance)
  int32_t base_vertex;                       // BaseVertex: firstVertex, or vertexOffset for indexed draws
  uint32_t base_instance;                    // BaseInstance: firstInstance
  uint32_t draw_index;                       // DrawIndex
  uint32_t view_index;                       // ViewIndex (multiview), 0 otherwise
  uint32_t* outputs;                         // [slot_count * 4 * W], VertexOutputLayout order
  // Kernels compiled with VertexInputKey::staged: Location L's components c at
  // staged_attributes[L][c * W + lane] (32-bit values, already converted from their formats).
  const uint32_t* const* staged_attributes;  // [kMaxVertexAttributes]
};
using VertexKernelFn = void (*)(const VertexInvocation* invocation);

// ---------------------------------------------------------------------------------------------
// Tessellation kernels (docs/design/tessellation.md). Tessellation shaders read other invocations'
// vertices (gl_in[i], gl_out[i]), so between the stages of a patch vertices live in memory, not in
// lanes: the vertex stage's records (VertexOutputLayout slots, one record per control point), and
// the control stage's output variables as the control kernel lays them out (natural layout, one
// region per variable, shared by the patch's invocations). A reading stage is compiled against a
// StageOutputMap of the stage before it: where each Location component and built-in is.
// ---------------------------------------------------------------------------------------------
constexpr uint32_t kMaxPatchVertices = 32;  // maxTessellationPatchSize
// A per-patch value's place: bytes from the start of the patch's memory (-1: never written).
// Per-vertex values: vertex v's copy is at offset + v * stride.
struct StageOutputAddress {
  int32_t offset = -1;
  uint32_t stride = 0;
};
struct StageOutputMap {
  uint32_t vertex_count = 0;  // vertices whose per-vertex values exist (the reader reads zero past them)
  StageOutputAddress location[kMaxVaryingLocations][4];        // per-vertex Location outputs
  StageOutputAddress patch_location[kMaxVaryingLocations][4];  // Patch Location outputs
  StageOutputAddress position[4], point_size, clip_distance[kMaxClipDistances], cull_distance[kMaxClipDistances];
};
// The vertex stage's records as a StageOutputMap (control points padded to kMaxPatchVertices).
inline StageOutputMap record_map(const VertexOutputLayout& l) {
  StageOutputMap map;
  map.vertex_count = kMaxPatchVertices;
  const uint32_t stride = l.slot_count * 16;
  auto at = [&](int32_t slot, uint32_t component) {
    return slot < 0 ? StageOutputAddress{} : StageOutputAddress{int32_t((uint32_t(slot) * 4 + component) * 4), stride};
  };
  for (uint32_t loc = 0; loc < kMaxVaryingLocations; ++loc)
    for (uint32_t c = 0; c < 4; ++c) map.location[loc][c] = at(l.location_slot[loc], c);
  for (uint32_t c = 0; c < 4; ++c) map.position[c] = at(0, c);
  map.point_size = at(l.point_size_slot, 0);
  for (uint32_t k = 0; k < l.clip_distance_count; ++k) map.clip_distance[k] = at(l.clip_distance_slot + int32_t(k / 4), k % 4);
  for (uint32_t k = 0; k < l.cull_distance_count; ++k) map.cull_distance[k] = at(l.cull_distance_slot + int32_t(k / 4), k % 4);
  return map;
}
// The per-patch memory of a control kernel starts with TessLevelOuter[4] and TessLevelInner[2].
constexpr uint32_t kTessLevelOuterOffset = 0, kTessLevelInnerOffset = 16, kTessLevelBytes = 32;

// The execution modes of the tessellation stages (either stage may declare them); 0 = not declared.
struct TessellationModes {
  uint8_t domain = 0;      // 1 triangles, 2 quads, 3 isolines
  uint8_t spacing = 0;     // 1 equal, 2 fractional even, 3 fractional odd
  uint8_t vertex_order = 0;  // 1 cw, 2 ccw
  bool point_mode = false;
  uint32_t output_vertices = 0;  // OutputVertices
};

// One call runs invocations invocation_base .. invocation_base + lane_count - 1 (InvocationId) of
// one patch: the patch's output vertices, W at a time. The invocations of a patch share
// `outputs` and `patch_outputs` (zeroed before the first call).
struct TessControlInvocation {
  const ResourceContext* resources;
  uint32_t* faults;                // kFault* bits (never null)
  const uint32_t* inputs;          // the patch's input control points: vertex-stage records, kMaxPatchVertices of them
  uint32_t input_slots;            // slot_count of the input records (the vertex stage's layout)
  uint32_t patch_vertices;         // PatchVertices: input control points (<= kMaxPatchVertices)
  uint32_t primitive_id;           // PrimitiveId: the patch's index in the draw (instance)
  uint32_t invocation_base;        // InvocationId of lane 0
  uint32_t lane_count;             // lanes >= lane_count are inactive
  uint32_t view_index;             // ViewIndex (multiview), 0 otherwise
  uint32_t* outputs;               // per-vertex output variables (TessControlInfo::vertex_bytes)
  uint32_t* patch_outputs;         // per-patch outputs, tessellation levels first (TessControlInfo::patch_bytes)
  // OpControlBarrier: returns once every invocation of the patch has reached a barrier (never
  // null; a no-op when the patch's invocations run in one call, whose lanes are in step).
  void (*barrier)(void* barrier_context);
  void* barrier_context;
};
using TessControlKernelFn = void (*)(const TessControlInvocation* invocation);
// One call evaluates `lane_count` (<= W) domain points of one patch; outputs as a vertex kernel's.
struct TessEvalInvocation {
  const ResourceContext* resources;
  uint32_t* faults;                // kFault* bits (never null)
  const float* tess_coord;         // [3 * W]: TessCoord u of each lane, then v, then w
  const uint32_t* inputs;          // the control stage's per-vertex outputs
  const uint32_t* patch_inputs;    // the control stage's per-patch outputs
  uint32_t patch_vertices;         // PatchVertices: the control stage's output vertices
  uint32_t primitive_id;           // PrimitiveId: the patch's index in the draw (instance)
  uint32_t lane_count;             // lanes >= lane_count are inactive
  uint32_t view_index;             // ViewIndex (multiview), 0 otherwise
  uint32_t* outputs;               // [slot_count * 4 * W], VertexOutputLayout order
};
using TessEvalKernelFn = void (*)(const TessEvalInvocation* invocation);

// ---------------------------------------------------------------------------------------------
// Geometry kernels (docs/design/geometry.md). A lane is one invocation of one input primitive;
// lanes are ordered primitive-major (a primitive's invocations, then the next primitive's), so
// the engine reads the lanes' emitted vertices back in the spec's output order. Inputs are the
// previous stage's records (a StageOutputMap, per-vertex strides), `input_vertices` per primitive;
// each lane reads its own primitive's with a gather. EmitVertex stores the lane's current outputs
// as a record of VertexOutputLayout slots (slot_count * 4 words, like store_records) into the
// lane's own output area, with a flags word; EndPrimitive marks the lane's next vertex of that
// stream as the start of a new strip.
// ---------------------------------------------------------------------------------------------
constexpr uint32_t kMaxGeometryInputVertices = 6;   // triangles with adjacency
constexpr uint32_t kMaxGeometryOutputVertices = 256;  // maxGeometryOutputVertices
constexpr uint32_t kMaxGeometryInvocations = 32;    // maxGeometryShaderInvocations
constexpr uint32_t kMaxVertexStreams = 4;           // maxTransformFeedbackStreams
// GeometryInvocation::vertex_flags of an emitted vertex.
constexpr uint32_t kGeometryStripStart = 1u;        // the first vertex of a strip (after EndPrimitive, or the first)
constexpr uint32_t kGeometryStreamShift = 1;        // bits 1-2: the vertex's stream

struct GeometryModes {
  uint8_t input_vertices = 0;  // 1 InputPoints, 2 InputLines, 4 InputLinesAdjacency, 3 Triangles, 6 InputTrianglesAdjacency
  uint8_t output = 0;          // 1 OutputPoints, 2 OutputLineStrip, 3 OutputTriangleStrip
  uint8_t invocations = 1;     // Invocations
  uint8_t reserved = 0;
  uint32_t output_vertices = 0;  // OutputVertices: the most any invocation emits
};

struct GeometryInvocation {
  const ResourceContext* resources;
  uint32_t* faults;                 // kFault* bits (never null)
  const uint8_t* inputs;            // input records: primitive p's vertex v at inputs + p * primitive_bytes + v * stride
  uint32_t primitive_bytes;
  uint32_t lane_count;              // lanes >= lane_count are inactive
  const uint32_t* input_primitive;  // [W]: the lane's primitive (every lane's entry is a valid primitive)
  const uint32_t* primitive_id;     // [W]: PrimitiveIdIn
  const uint32_t* invocation_id;    // [W]: InvocationId
  uint32_t view_index;              // ViewIndex (multiview), 0 otherwise
  uint32_t reserved;
  // Lane i's n-th emitted vertex: record at outputs + (i * output_vertices + n) * slot_count * 4,
  // flags at vertex_flags[i * output_vertices + n]. Emits past output_vertices are dropped.
  uint32_t* outputs;
  uint32_t* vertex_flags;
  uint32_t* emitted;                // [W]: vertices each lane emitted (zeroed by the engine)
};
using GeometryKernelFn = void (*)(const GeometryInvocation* invocation);

enum class Interpolation : uint8_t { Smooth, Flat, NoPerspective };

// What a fragment kernel reads and writes (reported by the compiler per kernel).
struct FragmentInterface {
  uint32_t input_location_mask = 0;                 // Locations the shader reads
  // Per Location, the components the shader declares (bit c: component c): the engine
  // interpolates only those (a float input leaves three of its location's four unused).
  uint8_t input_components[kMaxVaryingLocations] = {};
  Interpolation interpolation[kMaxVaryingLocations] = {};
  uint32_t centroid_mask = 0, sample_mask = 0;      // per input location: Centroid / Sample decorated
  uint32_t output_location_mask = 0;                // colour outputs written (Location = attachment)
  // Base type of each colour output: 0 float, 1 signed int, 2 unsigned int.
  uint8_t output_type[kMaxColorAttachments] = {};
  bool writes_depth = false;        // FragDepth
  bool writes_sample_mask = false;  // SampleMask
  bool can_discard = false;         // OpKill / OpTerminateInvocation / OpDemoteToHelperInvocation
  bool early_fragment_tests = false;
  bool depth_replacing_mode_less = false, depth_replacing_mode_greater = false;  // DepthLess/DepthGreater
  bool uses_sample_rate = false;    // SampleId / SamplePosition / Sample inputs: run per sample
  bool interpolates_at_positions = false;  // InterpolateAt*: the engine fills the InterpolationRecord
  // The shader may write memory (storage buffers/images, atomics): then depth/stencil tests may
  // only run before it when it declares EarlyFragmentTests, because its writes must happen for
  // fragments that fail the tests later.
  bool has_side_effects = false;
  bool reads_frag_coord = false;    // FragCoord is read: the engine fills frag_coord only then
  // Declares input attachments: subpassLoad may read the depth/stencil attachment this draw
  // tests and writes, so the tests must not run before the shader (and colour reads stay ordered).
  bool reads_input_attachments = false;
  uint32_t clip_distance_inputs = 0, cull_distance_inputs = 0;  // ClipDistance/CullDistance array sizes read
  // Writes Location 0 Index 1, dual-source blending's second source, into output slot
  // kDualSourceOutputSlot (the SRC1_* blend factors of attachment 0 read it).
  bool writes_dual_source = false;
  // Reads SampleMask (gl_SampleMaskIn): without PostDepthCoverage it is the primitive's coverage,
  // so the engine keeps the coverage from before tests it runs early.
  bool reads_sample_mask_in = false;
  bool post_depth_coverage = false;  // PostDepthCoverage: SampleMaskIn is the coverage after early tests
  // Reads FrontFacing or PrimitiveId: the only per-primitive invocation fields besides Layer and
  // ViewportIndex, so without them one call may shade quads of several primitives.
  bool reads_primitive_builtins = false;
  // FragStencilRefEXT (VK_EXT_shader_stencil_export): the stencil test and REPLACE use each
  // lane's stencil_reference_out instead of the state's reference, so the tests run after it.
  bool writes_stencil_reference = false;
};

// One call shades W / 4 quads of 2x2 pixels. Lane i is pixel (i & 1, (i >> 1) & 1) of quad i / 4
// (x to the right, y down), so derivatives are differences within each group of four lanes.
// Lanes of a quad that cover no sample are helper invocations: they run for derivatives and
// their results are discarded. The engine interpolates inputs; the kernel only reads them.
struct FragmentInvocation {
  const ResourceContext* resources;
  uint32_t* faults;
  const uint32_t* inputs;      // [(location * 4 + component) * W + lane] for input_location_mask, kFragmentInputSlots slots
  const float* frag_coord;     // [component * W + lane]: x, y (pixel centre or sample), z, 1/w
                               // (filled only when FragmentInterface::reads_frag_coord)
  const float* point_coord;    // [component * W + lane]: PointCoord (s, t) for point primitives, else null
  uint32_t covered_mask;       // lanes that are real fragments (others are helpers or empty)
  uint32_t quad_mask;          // lanes of quads that hold at least one real fragment
  uint32_t front_facing;       // 1 when the primitive is front-facing
  uint32_t primitive_id;       // PrimitiveId
  uint32_t layer;              // Layer (0 unless layered rendering)
  uint32_t view_index;         // ViewIndex
  uint32_t viewport_index;     // ViewportIndex (the primitive's viewport)
  uint32_t sample_id;          // SampleId when uses_sample_rate (per call), else 0
  const uint32_t* sample_mask_in;  // [W]: SampleMaskIn (coverage of each lane's pixel)
  uint32_t* outputs;           // [(location * 4 + component) * W + lane]
  float* frag_depth;           // [W]: preset to frag_coord z; the shader may overwrite it
  uint32_t* sample_mask_out;   // [W]: preset to all ones
  uint32_t* stencil_reference_out;  // [W]: preset to the state's reference (writes_stencil_reference)
};
// Returns the lanes of covered_mask that were not discarded (killed or demoted).
using FragmentKernelFn = uint32_t (*)(const FragmentInvocation* invocation);

}  // namespace kiln::abi
