#pragma once
// The stage-specific half of a translation. The Translator (translator_internal.h) owns what every
// stage shares: values, pointers, control flow under lane masks, memory, arithmetic, images. At
// fixed points it asks its StageEmitter what the execution model decides: the kernel's signature
// and first loads from the invocation record, where Input/Output variables live, the stage's
// built-ins and instructions, the epilogue, and what the stage reports to the engine.
//
// One emitter per execution model, each in its own file with its translate_* entry:
//   emit_compute.cpp           GLCompute
//   emit_task.cpp              TaskEXT      } both on emit_mesh_shading.* (MeshHeader, task payload)
//   emit_mesh.cpp              MeshEXT      }
//     (these three on emit_workgroup.*: ComputeInvocation header, workgroup memory, barriers)
//   emit_vertex.cpp            Vertex
//   emit_tess_control.cpp      TessellationControl    } both on emit_tessellation.* (patch inputs, modes)
//   emit_tess_evaluation.cpp   TessellationEvaluation }
//   emit_geometry.cpp          Geometry
//   emit_fragment.cpp          Fragment
//     (these five on emit_graphics.*: per-lane Input/Output variables, output records)
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "compiler/translator_internal.h"

namespace kiln::compiler {

// A built-in and the element of it that identifies an invocation in debugPrintfEXT messages.
using BuiltinElement = std::pair<spv::BuiltIn, uint32_t>;

class StageEmitter {
 public:
  explicit StageEmitter(Translator& t) : t_(t) {}
  virtual ~StageEmitter() = default;
  StageEmitter(const StageEmitter&) = delete;
  StageEmitter& operator=(const StageEmitter&) = delete;

  // The kernel function's return type: void, except a fragment kernel's surviving lanes.
  virtual llvm::Type* return_type() const;
  // The kernel's first instructions: Translator::resources and faults from the invocation record,
  // and the lanes that run (Translator::mask_).
  virtual void begin_kernel() = 0;
  // An Input, Output, Workgroup or TaskPayloadWorkgroupEXT variable: the emitter places it (sets
  // its pointer), or sets *per_lane for an ordinary per-lane variable the prologue fills. Here:
  // input built-ins are read in place; the other classes do not exist in this stage.
  virtual bool declare_variable(Id id, const spirv::Variable& var, Id pointee, bool* per_lane);
  // After the variables exist, before the entry function: inputs loaded, outputs preset, limits.
  virtual bool prologue() { return true; }
  // The stage's input built-in, or nullptr when it has none by that name (the translator then
  // tries the subgroup built-ins every stage has).
  virtual llvm::Value* builtin(spv::BuiltIn builtin, uint32_t component) = 0;
  // Instructions only this stage has (EmitVertex, demote, derivatives, SetMeshOutputsEXT, ...).
  virtual bool instruction(const spirv::Instruction& inst, bool* handled);
  // Terminators other than branches and returns. Here: OpKill / OpTerminateInvocation end the lanes.
  virtual bool terminator(const spirv::Instruction& inst, bool* handled);
  // OpControlBarrier with Workgroup scope: the engine's barrier (after the translator's fence).
  virtual bool workgroup_barrier(const spirv::Instruction& inst);
  // After the entry function, with the lanes that entered it: outputs stored, the kernel returns.
  virtual bool epilogue();

  // `lanes` without those that must not write memory (a fragment kernel's helpers).
  virtual llvm::Value* without_helpers(llvm::Value* lanes) { return lanes; }
  // Whether LLVM may fuse float multiplies and adds (docs/design/compiler.md "Contraction in compute only").
  virtual bool contracts_float_arithmetic() const { return false; }
  // Whether the kernel runs on a fiber's small stack (barriers), which limits private memory.
  virtual bool runs_on_fiber() const { return false; }
  // GLSL.std.450 InterpolateAt*; a fragment kernel's only.
  virtual bool interpolate_at(const spirv::Instruction& inst);
  // subpassLoad's coordinates for `offset`; nullopt outside a fragment kernel.
  virtual std::optional<Value> subpass_coordinates(const Value& offset);
  // The built-ins that identify an invocation, as abi::DebugPrintfCall::ids lists them.
  virtual std::vector<BuiltinElement> debug_printf_ids() = 0;

 protected:
  // A call of the engine's barrier routine whose address and argument are invocation record fields.
  void call_engine_barrier(size_t function_offset, size_t context_offset);

  Translator& t_;
};

// The translate_* entries' check: whether `entry` is of `model`; if not, *error says it is not a
// `stage` entry point.
bool entry_point_is(const spirv::EntryPoint& entry, spv::ExecutionModel model, const char* stage, std::string* error);

// The emitter of `t.entry.model`'s stage (the translate_* entries have checked the model).
std::unique_ptr<StageEmitter> make_stage_emitter(Translator& t);

// One per execution model, in its emit_*.cpp.
std::unique_ptr<StageEmitter> make_compute_emitter(Translator& t);
std::unique_ptr<StageEmitter> make_task_emitter(Translator& t);
std::unique_ptr<StageEmitter> make_mesh_emitter(Translator& t);
std::unique_ptr<StageEmitter> make_vertex_emitter(Translator& t);
std::unique_ptr<StageEmitter> make_tess_control_emitter(Translator& t);
std::unique_ptr<StageEmitter> make_tess_evaluation_emitter(Translator& t);
std::unique_ptr<StageEmitter> make_geometry_emitter(Translator& t);
std::unique_ptr<StageEmitter> make_fragment_emitter(Translator& t);

}  // namespace kiln::compiler
