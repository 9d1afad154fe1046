#pragma once
// The interface of a graphics stage as the compiler sees it: each Input or Output variable as a
// list of scalar leaves (a Location and component, or a built-in's element), in the variable's
// leaf order (translator_internal.h's value model). Shared by every stage's prologue and epilogue
// (the emitters, compiler/stage_emitter.h).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "compiler/translator_internal.h"

namespace kiln::compiler {

// InterfaceLeaf and InterfaceVariable: compiler/translator_internal.h (the translator keeps some).

// Whether the stage's Input (`input`) or Output variables that are not Patch are arrays over
// vertices: tessellation control inputs and outputs, tessellation evaluation and geometry inputs.
bool is_arrayed_interface(spv::ExecutionModel model, bool input);

// Whether interface variable `id` is per patch: decorated Patch, a tessellation level, or a
// `patch` block (glslang decorates the block's members Patch, not the variable).
bool is_patch_variable(const spirv::Module& m, Id id);

// Whether the first member of the block `type` (or of its arrays' element) is PerPrimitiveEXT:
// glslang decorates the members of gl_MeshPerPrimitiveEXT, not the variable.
bool first_member_per_primitive(const spirv::Module& m, Id type);

// A mesh shader output built-in that is not a vertex record word: primitive indices, culling,
// shading rate (the engine reads them from the workgroup's memory itself).
bool is_mesh_primitive_control(spv::BuiltIn builtin);

// Whether a graphics stage's Input variable `id` is an ordinary per-lane variable its prologue
// fills (Location inputs, the tessellation levels an evaluation kernel reads, and per-vertex
// built-ins of the stages whose inputs are arrays over vertices) rather than a built-in read in
// place where the shader reads it.
bool is_per_lane_input(const spirv::Module& m, spv::ExecutionModel model, Id id, const spirv::Variable& var);

// The stage's Input (`input` true) or Output variables with their leaves. Inputs the stage reads
// in place (built-ins such as VertexIndex) are left out (is_per_lane_input).
bool interface_variables(const Translator& t, bool input, std::vector<InterfaceVariable>* out, std::string* error);

constexpr uint32_t kNoSlot = ~0u;  // a vertex output leaf the shader never accesses: not stored

// Each output leaf's (slot, component) in VertexOutputLayout order; captured leaves also go to
// layout->xfb: Position in slot 0, then the
// Location outputs by increasing Location, then PointSize, ClipDistance, CullDistance, Layer,
// ViewportIndex, PrimitiveId (geometry shaders).
bool vertex_output_slots(Translator& t, const std::vector<InterfaceVariable>& outputs, abi::VertexOutputLayout* layout,
                         std::vector<std::vector<std::pair<uint32_t, uint32_t>>>* slots);

// The byte offset of every leaf of `type` in Kiln's natural layout (spirv::type_size), in leaf order.
void natural_leaf_offsets(const spirv::Module& m, Id type, uint32_t base, std::vector<uint32_t>* out);

// Where the previous stage left leaf `leaf` of input `v` (offset -1: nowhere, the shader reads 0);
// tessellation and geometry stages read their inputs from there.
abi::StageOutputAddress previous_stage_address(const abi::StageOutputMap& map, const InterfaceVariable& v,
                                               const InterfaceLeaf& leaf);

bool is_integer(const Translator& t, Id scalar);

// A leaf's value as raw 32-bit lanes: one <W x i32>, or a 64-bit leaf's low and high halves.
std::vector<llvm::Value*> leaf_words(Translator& t, const InterfaceLeaf& leaf, llvm::Value* value);
// The leaf's value from its raw 32-bit lanes (as leaf_words gives them).
llvm::Value* leaf_from_words(Translator& t, const InterfaceLeaf& leaf, const std::vector<llvm::Value*>& words);

// A field of the kernel's invocation record (abi::*Invocation), `offset` bytes in.
inline llvm::Value* invocation_field(Translator& t, size_t offset, llvm::Type* type) {
  auto& b = t.b();
  return b.CreateLoad(type, b.CreateConstGEP1_64(b.getInt8Ty(), t.invocation, offset));
}

// <W x type> from W consecutive lanes' values at `base` + `offset` bytes.
inline llvm::Value* lane_array(Translator& t, llvm::Value* base, uint64_t offset, llvm::Type* scalar) {
  auto& b = t.b();
  return b.CreateAlignedLoad(t.lane_type(scalar), b.CreateConstGEP1_64(b.getInt8Ty(), base, offset), llvm::Align(4));
}

// Stores the 32-bit `leaf` (any <W x 32-bit> type) as W consecutive lanes' values at `base` + `offset` bytes.
inline void store_lane_array(Translator& t, llvm::Value* base, uint64_t offset, llvm::Value* leaf) {
  auto& b = t.b();
  b.CreateAlignedStore(b.CreateBitCast(leaf, t.lane_type(b.getInt32Ty())), b.CreateConstGEP1_64(b.getInt8Ty(), base, offset),
                       llvm::Align(4));
}

}  // namespace kiln::compiler
