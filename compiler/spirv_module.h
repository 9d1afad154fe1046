#pragma once
// Kiln's typed view of a (validated, optimized) SPIR-V module: types, constants, decorations,
// variables, functions with their blocks in structured order, and entry points. The translator
// works from this view only; parsing never trusts the input beyond what the validator checked,
// and a module it cannot represent yields an error naming the instruction.
#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/abi/shader_stage.h"

namespace kiln::spirv {

using Id = uint32_t;

// One instruction: its opcode, result type and id (0 when absent) and the remaining operands.
// An instruction's OpLine: file (an OpString id; 0: no line information), line and column.
struct SourceLine {
  Id file = 0;
  uint32_t line = 0;
  uint32_t column = 0;
};

struct Instruction {
  spv::Op opcode;
  Id result_type = 0;
  Id result = 0;
  std::span<const uint32_t> operands;  // words after result type / result id
  uint32_t word_offset = 0;            // position in the module, for error messages
  SourceLine source;                   // the OpLine in effect (function bodies)
};

enum class TypeKind { Void, Bool, Int, Float, Vector, Matrix, Array, RuntimeArray, Struct, Pointer, Function, Image, Sampler, Other };

struct Type {
  TypeKind kind = TypeKind::Other;
  uint32_t width = 0;        // bits of Int / Float
  bool is_signed = false;    // Int
  Id element = 0;            // Vector/Matrix/Array/RuntimeArray component type; Pointer pointee
  uint32_t count = 0;        // Vector components, Matrix columns, Array length
  std::vector<Id> members;   // Struct member types; Function: return type then parameters
  spv::StorageClass storage_class = spv::StorageClass::Max;  // Pointer
  // Explicit layout (from decorations) for buffer-backed types; 0 when undecorated.
  uint32_t array_stride = 0;
  std::vector<uint32_t> member_offsets;
  std::vector<uint32_t> member_matrix_strides;  // per member (0 if not a matrix)
  std::vector<bool> member_row_major;
  bool block = false;         // Block decoration (uniform/storage/push-constant interface)
  bool buffer_block = false;  // BufferBlock (pre-1.3 storage buffers)
  // Image (OpTypeImage; `element` is the Sampled Type)
  spv::Dim dim = spv::Dim::Max;
  bool arrayed = false;
  bool multisampled = false;
  uint32_t sampled = 0;  // 1: used with a sampler, 2: storage image
  spv::ImageFormat image_format = spv::ImageFormat::Unknown;
  bool sampled_image = false;  // OpTypeSampledImage (the other fields describe its image)
};

struct Constant {
  Id type = 0;
  std::vector<uint32_t> words;        // scalar: value words (low word first)
  std::vector<Id> constituents;       // composite
  bool null = false;                  // OpConstantNull (all zero)
  bool undef = false;                 // OpUndef
};

struct Decorations {
  std::optional<uint32_t> set, binding, location, component, offset, spec_id, array_stride;
  std::optional<uint32_t> index;  // Index of a fragment output (dual-source blending)
  std::optional<uint32_t> xfb_buffer, xfb_stride, stream;  // transform feedback / vertex streams
  std::optional<spv::BuiltIn> builtin;
  std::optional<spv::FPRoundingMode> rounding;  // FPRoundingMode on a conversion result
  bool flat = false, no_perspective = false, centroid = false, sample = false, patch = false;
  bool per_primitive = false;  // PerPrimitiveEXT: a mesh shader output (fragment input) per primitive, not per vertex
  bool non_writable = false, non_readable = false, coherent = false, volatile_ = false, restrict_ = false;
  bool no_contraction = false, relaxed_precision = false, non_uniform = false;
};

struct Block {
  Id label = 0;
  std::vector<Instruction> body;  // excluding merge instruction and terminator; OpPhi first
  Instruction terminator{};
  // Structured control flow: OpSelectionMerge / OpLoopMerge before the terminator.
  Id merge_block = 0;
  Id continue_target = 0;  // loops only
  bool is_loop_header = false;
};

struct Function {
  Id id = 0;
  Id type = 0;
  std::vector<Id> parameters;
  std::vector<Block> blocks;  // structured order: every construct's blocks before its merge block
  std::unordered_map<Id, size_t> block_index;  // label → index in `blocks`
};

struct EntryPoint {
  spv::ExecutionModel model;
  std::string name;
  Id function = 0;
  std::vector<Id> interface;
  uint32_t local_size[3] = {1, 1, 1};
  Id local_size_ids[3] = {0, 0, 0};  // LocalSizeId operands (constants), if used
  std::vector<std::pair<spv::ExecutionMode, std::vector<uint32_t>>> modes;
};

struct Variable {
  Id type = 0;  // a Pointer type
  spv::StorageClass storage_class;
  Id initializer = 0;
};

class Module {
 public:
  // Parses `words` (which must outlive the Module). On failure returns nullopt and sets `error`.
  static std::optional<Module> parse(std::span<const uint32_t> words, std::string* error);

  const Type& type(Id id) const;
  bool has_type(Id id) const { return types_.count(id) != 0; }
  const Constant* constant(Id id) const;
  const Decorations& decorations(Id id) const;
  const Decorations& member_decorations(Id struct_type, uint32_t member) const;
  const Variable* variable(Id id) const;
  const Function* function(Id id) const;
  const EntryPoint* entry_point(std::string_view name, spv::ExecutionModel model) const;
  const std::unordered_map<Id, Variable>& variables() const { return variables_; }
  // Imported extended instruction set id for GLSL.std.450 (0 if not imported).
  Id glsl_std_450() const { return glsl_std_450_; }
  // Imported NonSemantic.DebugPrintf (debugPrintfEXT), or 0.
  Id debug_printf() const { return debug_printf_; }
  // The text of OpString `id`, or nullptr.
  const std::string* string(Id id) const {
    auto it = strings_.find(id);
    return it == strings_.end() ? nullptr : &it->second;
  }
  const std::vector<spv::Capability>& capabilities() const { return capabilities_; }
  // OpSpecConstantOp / OpSpecConstantComposite that specialization could not fold (SPIRV-Tools
  // folds 32-bit integer operations only), rewritten as the ordinary instructions they name, in
  // definition order. The translator evaluates them at kernel entry; their operands are
  // constants, so LLVM folds them to constants there.
  const std::vector<Instruction>& deferred_spec_constants() const { return deferred_spec_constants_; }
  // Scalar value of an integer/bool constant, if `id` is one.
  std::optional<uint64_t> constant_uint(Id id) const;
  uint32_t id_bound() const { return id_bound_; }

 private:
  std::unordered_map<Id, Type> types_;
  std::unordered_map<Id, Constant> constants_;
  std::unordered_map<Id, Decorations> decorations_;
  std::unordered_map<uint64_t, Decorations> member_decorations_;  // (struct << 32) | member
  std::unordered_map<Id, Variable> variables_;
  std::unordered_map<Id, Function> functions_;
  std::vector<EntryPoint> entry_points_;
  std::vector<Instruction> deferred_spec_constants_;
  std::vector<spv::Capability> capabilities_;
  Id glsl_std_450_ = 0;
  Id debug_printf_ = 0;
  std::unordered_map<Id, std::string> strings_;
  uint32_t id_bound_ = 0;
};

// Orders a function's blocks so every structured construct's blocks precede its merge block and
// a loop's blocks are contiguous after its header (reverse post-order, visiting merges first).
void order_blocks_structured(Function& function);

// Byte size of a scalar/vector/matrix/array/struct type under its explicit layout (buffer
// storage classes) or Kiln's natural layout (scalars aligned to their size) otherwise.
uint32_t type_size(const Module& module, Id type);
// Offset of member `index` in a struct (explicit Offset decoration, else natural layout).
uint32_t member_offset(const Module& module, Id struct_type, uint32_t index);
// Byte stride between elements of an array/runtime array type (ArrayStride, else natural).
uint32_t array_stride(const Module& module, Id array_type);
// Byte stride between consecutive `type` values in Kiln's natural layout (its size, aligned).
uint32_t natural_stride(const Module& module, Id type);

// The SPIR-V execution model of a driver stage (the entry point a pipeline stage names).
spv::ExecutionModel execution_model_of(ShaderStage stage);

// The instructions that end a block (and with it an OpLine's scope).
bool is_block_terminator(spv::Op op);

// The atomic instructions Kiln implements (compiler/translate_memory.cpp, atomic()).
bool is_atomic_instruction(spv::Op op);

}  // namespace kiln::spirv
