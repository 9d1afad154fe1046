#pragma once
// The translator: what every stage shares, split over translate_*.cpp by instruction family:
//   translator.cpp        kernel setup, structured control flow under lane masks, values across blocks
//   translate_memory.cpp  variables, descriptors, access chains, loads/stores, atomics, barriers
//   translate_alu.cpp     arithmetic, logic, conversions, composites (translate_glsl.cpp: GLSL.std.450)
//   translate_dot.cpp     integer dot products (OpSDot and relatives)
//   translate_image.cpp, translate_sample.cpp  storage images, texel buffers; sampling
//   translate_subgroup.cpp subgroup operations and built-ins; translate_debug_printf.cpp debugPrintfEXT
// What a stage decides — the kernel's signature and first loads, where Input/Output variables
// live, its built-ins, instructions and epilogue, what it reports — is its StageEmitter's
// (compiler/stage_emitter.h lists the emit_*.cpp file of each execution model); Translator::stage().
// stage_interface.* describes a graphics stage's Input/Output variables as leaves.
//
// Value model: every SPIR-V value is a list of "leaves", one per scalar component in declaration
// order (a vec4 has 4 leaves, a struct the leaves of its members); each leaf is an LLVM vector
// <W x T> holding that component for all W lanes. Booleans are <W x i1>.
// Pointers carry a per-lane byte address plus the bounds of the object they point into, so every
// access can be clamped to its buffer or variable (robust access never touches other memory).
// PhysicalStorageBuffer pointers (buffer device addresses) are bare addresses: the spec leaves
// their accesses unchecked. A pointer that travels as a value (OpSelect, OpPhi, a Function
// variable, a load of a PhysicalStorageBuffer pointer) has the leaves [addr, lo, hi], or just
// [addr] for PhysicalStorageBuffer, so every value path carries pointers without special cases.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <array>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/shader_image_formats.h"
#include "compiler/translator.h"

namespace kiln::compiler {

// The driver's stage enum for an execution model (reports name the stage).
ShaderStage stage_of(spv::ExecutionModel model);

using spirv::Id;

struct Value {
  std::vector<llvm::Value*> leaves;
};

// What a pointer points at.
enum class PointerKind {
  Memory,           // addr/lo/hi describe bytes in memory
  Builtin,          // an input built-in variable (component = selected element, -1 for all)
  DescriptorArray,  // an array of buffer descriptors, before the array index is applied
  Register,         // a Function/Private variable kept as SSA leaves (only constant indexing)
  Image,            // an image descriptor: addr is the <W x i64> address of each lane's record
};

struct Pointer {
  PointerKind kind = PointerKind::Memory;
  Id pointee = 0;                // SPIR-V type pointed to
  llvm::Value* addr = nullptr;   // <W x i64> per-lane address
  llvm::Value* lo = nullptr;     // <W x i64> first valid byte
  llvm::Value* hi = nullptr;     // <W x i64> one past the last valid byte
  bool explicit_layout = false;  // buffer storage: offsets/strides from decorations
  bool bounded = true;           // false for PhysicalStorageBuffer: lo/hi unused, accesses unchecked
  // Function/Private memory holds all W lanes' copies element-major: the scalar at natural offset
  // o of lane i lives at lo + o * W + i * size(scalar), so constant-indexed accesses are one
  // vector load/store. addr/lo/hi stay natural (one copy's addresses); physical_address maps them.
  bool lanes_interleaved = false;
  uint32_t matrix_stride = 0;    // for matrix pointees (and vectors inside them)
  bool row_major = false;
  uint32_t component_stride = 0; // vectors inside row-major matrices: stride between components
  // A Coherent or Volatile variable (or block member): other invocations may write it at any
  // time, so every access really happens where the shader has it (translate_memory.cpp).
  bool coherent = false;
  // Builtin
  spv::BuiltIn builtin = spv::BuiltIn::Max;
  int component = -1;
  // DescriptorArray
  uint32_t set = 0, binding = 0;
  Id variable = 0;
  // Register: leaves [first_leaf, first_leaf + leaf_count(pointee)) of `variable`'s slots
  uint32_t first_leaf = 0;
};

// llvm.minnum / llvm.maxnum (`id`) of two float lane vectors: a NaN operand loses. Half lanes
// use a compare and a select, because x86 without AVX512-FP16 has no half min/max and LLVM
// would call libm's fminf/fmaxf lane by lane (translate_alu.cpp).
llvm::Value* float_min_max(llvm::IRBuilder<>& b, llvm::Intrinsic::ID id, llvm::Value* x, llvm::Value* y);

// A graphics stage's interface variables as scalar leaves (built by compiler/stage_interface.h).
// One scalar leaf of an interface variable, in the variable's leaf order: a Location and
// component, or element `component` of a built-in.
struct InterfaceLeaf {
  uint32_t location = 0;
  uint32_t component = 0;
  spv::BuiltIn builtin = spv::BuiltIn::Max;  // Max: a Location leaf
  Id scalar = 0;                             // SPIR-V scalar type
  bool flat = false, no_perspective = false, centroid = false, sample = false;
  bool wide = false;     // a 64-bit scalar: components `component` (low half) and `component + 1` (high)
  bool accessed = true;  // the shader uses it (output built-ins: see accessed_output_members)
  uint32_t index = 0;  // fragment outputs: the Index decoration (1: dual-source blending's second source)
  uint32_t vertex = 0;  // arrayed (per-vertex) variables: the element, gl_in[vertex]
  // Outputs: the vertex stream (geometry shaders), and where transform feedback captures the
  // leaf (xfb_offset < 0: not captured).
  uint32_t stream = 0;
  int32_t xfb_offset = -1;
  uint32_t xfb_buffer = 0;
};

class StageEmitter;  // compiler/stage_emitter.h

struct InterfaceVariable {
  Id id = 0;
  Id pointee = 0;
  std::vector<InterfaceLeaf> leaves;  // arrayed: vertex 0's leaves, then vertex 1's, ...
  // Per-vertex variables of the tessellation and geometry stages (gl_in[], gl_out[], `in vec4 x[]`)
  // are arrays over vertices: `vertices` elements of `element` type, each with the same leaves.
  uint32_t vertices = 0;  // 0: not arrayed
  Id element = 0;
  bool patch = false;     // a Patch variable or a tessellation level
  bool per_primitive = false;  // PerPrimitiveEXT (mesh outputs): one element per primitive
  // Outputs: XfbStride of each transform feedback buffer the variable's leaves are captured in (0: none).
  uint32_t xfb_stride[abi::kMaxXfbBuffers] = {};
};

class Translator {
 public:
  Translator(const spirv::Module& module, const spirv::EntryPoint& entry, const TranslateOptions& options,
             llvm::LLVMContext& context, const std::string& symbol);
  ~Translator();
  // Builds the kernel: the stage's setup, variables, the entry function, the stage's epilogue.
  std::unique_ptr<llvm::Module> run(std::string* error);
  // The emitter of the entry point's stage (make_stage_emitter), which decides what is stage-specific.
  StageEmitter& stage() { return *stage_; }

  // --- shared helpers (translator.cpp) ---
  bool fail(const spirv::Instruction& inst, const std::string& what);
  // Sets the error for Function/Private variables beyond the stack budget (abi::kMaxPrivateBytes*).
  bool private_memory_too_large(uint64_t limit = abi::kMaxPrivateBytesOnThreadStack);
  llvm::Type* leaf_type(Id scalar_type);             // LLVM scalar type of a SPIR-V scalar type
  llvm::VectorType* lane_type(llvm::Type* scalar);   // <W x scalar>
  llvm::Value* splat(llvm::Value* scalar);
  llvm::Value* lane_index();                         // <W x i32> 0..W-1
  // The leaves' scalar SPIR-V types, in order.
  void scalar_types(Id type, std::vector<Id>* out) const;
  uint32_t leaf_count(Id type) const;
  // The value of an undefined leaf of SPIR-V scalar type `scalar`: LLVM undef, except that an
  // undefined pointer is null (bounds 0..0), so dereferencing it touches no memory.
  llvm::Value* undefined_leaf(Id scalar);
  uint32_t leaf_offset(Id composite_type, uint32_t index) const;  // first leaf of element `index`
  Id element_type(Id composite_type, uint32_t index) const;
  Value get(Id id);                                  // value of an id (constants materialised)
  Pointer get_pointer(Id id);
  Id type_of(Id id) const;                           // SPIR-V type of an id (values, variables, constants)
  void set(Id id, Value value);
  void set_pointer(Id id, Pointer pointer);
  llvm::Value* any_lane(llvm::Value* mask);
  // The scalar every lane of the <W x T> `v` holds, when the IR that computes `v` shows it is the
  // same in all lanes (splats, and arithmetic, compares, casts and selects of them); else nullptr.
  // New scalar instructions are emitted at the insertion point (dead ones are removed by LLVM).
  llvm::Value* uniform_scalar(llvm::Value* v);
  // A zero-filled private global of abi::kDescriptorRecordSize bytes: the record unbound
  // descriptors read, and the address a skipped uniform load reads instead of its own.
  llvm::GlobalVariable* zero_record();
  llvm::Value* mask() const { return mask_; }
  llvm::IRBuilder<>& b() { return builder_; }
  uint32_t width() const { return options_.simd_width; }

  // --- translate_memory.cpp ---
  bool setup_variables();
  bool memory_instruction(const spirv::Instruction& inst, bool* handled);
  // An input built-in's value (one component) in this stage, or nullptr when the stage has none.
  llvm::Value* builtin_value(spv::BuiltIn builtin, uint32_t component);
  // A built-in every stage has, the subgroup ones (translate_subgroup.cpp), or nullptr.
  llvm::Value* subgroup_builtin(spv::BuiltIn builtin, uint32_t component);
  Value load(const Pointer& p, Id type);
  void store(const Pointer& p, Id type, const Value& value);
  // Lanes of the current mask whose `size`-byte access at `addr` stays inside p's object.
  llvm::Value* physical_address(const Pointer& p, llvm::Value* addr, uint32_t scalar_size);
  // The active lanes whose [addr, addr + size) lies in p's bounds; in strict mode the others are
  // noted for the instruction's report (note_out_of_bounds).
  llvm::Value* lanes_in_bounds(const Pointer& p, llvm::Value* addr, uint32_t size);
  // A pointer to the `size` bytes at `memory` + `offset` that every lane shares (patch or
  // workgroup memory), holding a `pointee` in natural layout.
  Pointer region_pointer(llvm::Value* memory, uint32_t offset, uint32_t size, Id pointee);

  // --- translate_dot.cpp ---
  bool dot_instruction(const spirv::Instruction& inst, bool* handled);
  // <W x i64> address of each lane's descriptor record `element` of a binding; a null record for
  // unbound sets and elements past the binding's end (translate_memory.cpp).
  llvm::Value* descriptor_record(uint32_t set, const BindingLocation& loc, llvm::Value* element);

  // --- translate_image.cpp ---
  // A UniformConstant variable: images (and arrays of them) become Image / DescriptorArray
  // pointers; samplers are left for when a sampling instruction uses them.
  bool image_variable(Id id, Id pointee, uint32_t set, uint32_t binding);
  bool image_instruction(const spirv::Instruction& inst, bool* handled);

  // --- translate_sample.cpp ---
  bool sample_instruction(const spirv::Instruction& inst, bool* handled);

  // --- translate_subgroup.cpp ---
  bool subgroup_instruction(const spirv::Instruction& inst, bool* handled);

  // --- translate_debug_printf.cpp ---
  // NonSemantic.DebugPrintf (debugPrintfEXT): a call of ResourceContext::debug_printf.
  bool debug_printf_instruction(const spirv::Instruction& inst);
  std::vector<llvm::Value*> debug_printf_ids();  // abi::DebugPrintfCall::ids of this stage
  // Stores debug_printf_ids() into `ids` (a [kDebugPrintfIds][kMaxDebugPrintfLanes] uint32 array).
  void store_invocation_ids(llvm::Value* ids);
  // Calls the engine routine at ResourceContext offset `fn_offset` (a void(const void* context,
  // const void* record) pointer; context at `context_offset`) with `record`, when it is set and
  // `lanes` (an i32 lane mask) is not 0.
  void call_engine(size_t fn_offset, size_t context_offset, llvm::Value* lanes, llvm::Value* record);

  // --- translate_strict_reports.cpp (KILN_STRICT=1: docs/strict-mode.md) ---
  // Whether the kernel reports `kind` (an abi::kShaderFault* bit).
  bool reports(uint32_t kind) const { return (strict_reports_ & kind) != 0; }
  // Adds `lanes` (<W x i1>) to the current instruction's lanes that faulted with `kind`.
  void note_shader_fault(uint32_t kind, llvm::Value* lanes);
  // Buffer bounds: `lanes` went outside `p`'s range, except those whose range is empty (a null
  // descriptor, defined with nullDescriptor, or a null pointer).
  void note_out_of_bounds(llvm::Value* lanes, const Pointer& p);
  // A load through `p` gave `value` (one leaf): lanes of `mask` that read strict mode's poison.
  void note_poison_read(const Pointer& p, llvm::Value* value);
  // After `inst`: for each kind it noted lanes of, a call of ResourceContext::shader_fault naming
  // the application's instruction (compiler/strict_access_tags.h) when any lane faulted.
  void report_shader_faults(const spirv::Instruction& inst);

  // --- translate_alu.cpp ---
  bool alu_instruction(const spirv::Instruction& inst, bool* handled);
  bool glsl_instruction(const spirv::Instruction& inst);
  Value constant_value(Id id);
  Id composite_type(Id id) const;                    // SPIR-V type of a value id (0 if unknown)

  const spirv::Module& m;
  const spirv::EntryPoint& entry;
  const TranslateOptions& options_;
  llvm::LLVMContext& ctx;
  std::unique_ptr<llvm::Module> llvm_module;
  llvm::Function* function = nullptr;
  llvm::Value* invocation = nullptr;     // the kernel's argument: the stage's abi::*Invocation record
  llvm::Value* resources = nullptr;      // const abi::ResourceContext*
  llvm::Value* faults = nullptr;         // uint32_t* the kernel ORs abi::kFault* bits into
  llvm::Value* cancel_ = nullptr;        // const uint32_t*: abi::ResourceContext::cancel, polled on loop back-edges
  llvm::Value* entry_mask_ = nullptr;    // lanes that run the kernel (the epilogue's lanes)
  llvm::GlobalVariable* null_record = nullptr;  // a zero descriptor record for unbound sets
  llvm::IRBuilder<> builder_;
  llvm::IRBuilder<> alloca_builder_;     // inserts allocas at the top of the entry block
  llvm::Value* mask_ = nullptr;          // lanes active in the block being translated
  std::string error_;
  uint64_t private_bytes_ = 0;  // stack bytes of Function/Private variables (all lanes; checked against abi limits)
  std::unordered_map<Id, Pointer> pointers_;
  // OpSelect between two descriptor arrays (variable pointers): its value is the condition, and
  // an access chain from it picks each arm's descriptor, then selects per lane (translate_memory.cpp).
  struct DescriptorArraySelect {
    Id if_true = 0, if_false = 0;
  };
  std::unordered_map<Id, DescriptorArraySelect> descriptor_array_selects_;
  bool is_descriptor_array(Id pointer) const;
  std::unordered_map<Id, Value> values_;
  std::unordered_map<Id, Id> value_types_;           // result id → its SPIR-V type
  std::unordered_map<Id, size_t> def_block_;         // id → index of its defining block
  std::unordered_set<Id> escaping_;                  // ids used outside their defining block
  std::unordered_map<Id, std::vector<llvm::AllocaInst*>> spills_;  // storage of escaping ids
  std::unordered_map<Id, std::vector<llvm::AllocaInst*>> register_slots_;  // Register variables' leaves
  size_t current_block_ = 0;
  const uint32_t strict_reports_;  // KILN_STRICT: what the kernel reports (abi::kShaderFault* bits)
  // Per kind (bit index): <W x i1> lanes of the current instruction that faulted, or null.
  std::array<llvm::Value*, abi::kShaderFaultKinds> shader_faults_{};

 private:
  bool translate_function(const spirv::Function& f);
  bool translate_block(const spirv::Function& f, size_t index);
  bool terminator(const spirv::Function& f, size_t index);
  void send_mask(const spirv::Function& f, size_t from, Id to_label, llvm::Value* edge_mask);
  void analyse_escapes(const spirv::Function& f);
  void spill(Id id);
  Pointer pointer_from_value(Id id);

  std::vector<llvm::AllocaInst*> in_masks_;          // per block: lanes arriving from predecessors
  std::unique_ptr<StageEmitter> stage_;
};

// The address of a zero abi::ImageViewRecord that null image descriptors are redirected to
// (every size 0, no sampling routine); translate_image.cpp.
llvm::Value* null_image_view(Translator& t);

// Loads (store_value == nullptr) or stores one `size`-byte scalar per lane at the <W x i64>
// addresses `addr` for the lanes in `lanes` (a vector access when the addresses are consecutive);
// translate_memory.cpp. Lanes not in `lanes` load zero.
llvm::Value* access_lanes(Translator& t, llvm::Value* addr, llvm::Value* lanes, llvm::Type* scalar, uint32_t size,
                          llvm::Value* store_value);

// One raw component (an integer vector of the component's width) of a texel or vertex attribute
// in numeric class `numeric` with `bits` bits, as its 32-bit shader value: i32 for integer
// classes, float otherwise (translate_image.cpp; shared by image reads and vertex fetch).
llvm::Value* component_to_value(Translator& t, abi::Numeric numeric, uint32_t bits, llvm::Value* raw);

// The raw bits of `field` (an <W x iN> of field.bits) from a loaded memory unit of a texel
// (abi::channel_field; translate_image.cpp, shared with vertex fetch).
llvm::Value* extract_field(Translator& t, llvm::Value* unit, const abi::ChannelField& field);

}  // namespace kiln::compiler
