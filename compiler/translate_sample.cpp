// Sampling instructions: OpSampledImage, OpImageSample* (implicit/explicit LOD, Dref, Proj),
// OpImageFetch on sampled images (with the Sample operand on multisampled ones), OpImageGather / OpImageDrefGather and OpImageQueryLod.
//
// A sampled image's value is two leaves: the address of the descriptor record that holds the
// image view and the one that holds the sampler (the same record for combined image samplers).
// Each instruction fills one abi::SampleArgs (SoA, in a per-function stack slot) and calls the
// view's sampling routine (memory/sampling.cpp) once for all lanes; lanes whose views name a
// different routine (non-uniform indexing over views of different formats) get further calls.
// Lanes with a null view read zero.
#include <vulkan/vulkan_core.h>

#include <cstddef>

#include <llvm/Analysis/VectorUtils.h>

#include "common/abi/kernel_abi.h"
#include "compiler/image_operands.h"
#include "compiler/stage_emitter.h"
#include "compiler/translator_internal.h"

namespace kiln::compiler {
namespace {

using abi::SampleArgs;

class SampleCodegen {
 public:
  explicit SampleCodegen(Translator& t) : t_(t), b_(t.b()) {}

  llvm::Value* i64(uint64_t v) { return t_.splat(b_.getInt64(v)); }

  // The function's one SampleArgs slot (allocated at the top of the entry block on first use).
  // Its lane arrays start 48 bytes past a multiple of 64 (after the scalar header and
  // gather_offsets), so the slot starts kArgsSkew bytes into a 64-byte aligned allocation: each
  // 64-byte array then fills one cache line. Arrays that straddle two lines made every 16-lane
  // store and load of them split, and forwarding a split store to the routine's load of the same
  // bytes takes longer (docs/design/sampling.md "Call path and SampleArgs alignment").
  static constexpr uint64_t kArgsSkew = 16;
  static_assert((offsetof(SampleArgs, view) + kArgsSkew) % 64 == 0 && (offsetof(SampleArgs, coord) + kArgsSkew) % 64 == 0 &&
                (offsetof(SampleArgs, out) + kArgsSkew) % 64 == 0);
  llvm::Value* args() {
    llvm::BasicBlock& entry = t_.function->getEntryBlock();
    for (llvm::Instruction& inst : entry)
      if (inst.getName() == "kiln.sample_args") return &inst;
    auto* type = llvm::ArrayType::get(b_.getInt8Ty(), sizeof(SampleArgs) + kArgsSkew);
    llvm::AllocaInst* slot = t_.alloca_builder_.CreateAlloca(type, nullptr, "kiln.sample_args_storage");
    slot->setAlignment(llvm::Align(64));
    return t_.alloca_builder_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), slot, kArgsSkew, "kiln.sample_args");
  }

  llvm::Value* at(llvm::Value* base, size_t offset) { return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), base, offset); }

  // Stores a <W x 32-bit> lane vector (float or int; other widths converted) at `offset`.
  void store_lanes(llvm::Value* a, size_t offset, llvm::Value* v, bool as_float) {
    llvm::Type* s = v->getType()->getScalarType();
    if (as_float) {
      if (s->isIntegerTy()) v = b_.CreateSIToFP(v, t_.lane_type(b_.getFloatTy()));
      else if (!s->isFloatTy()) v = b_.CreateFPCast(v, t_.lane_type(b_.getFloatTy()));
    } else {
      if (s->isFloatingPointTy()) v = b_.CreateBitCast(v, t_.lane_type(b_.getIntNTy(s->getPrimitiveSizeInBits())));
      v = b_.CreateSExtOrTrunc(v, t_.lane_type(b_.getInt32Ty()));
    }
    b_.CreateAlignedStore(v, at(a, offset), llvm::Align(4));
  }

  // Loads a field of each active lane's record (zero for other lanes, whose record addresses
  // may be anything).
  llvm::Value* field(llvm::Value* record, uint32_t offset, llvm::Type* type) {
    llvm::Value* addr = b_.CreateAdd(record, i64(offset));
    return b_.CreateMaskedGather(t_.lane_type(type), b_.CreateIntToPtr(addr, t_.lane_type(b_.getPtrTy())),
                                 llvm::Align(4), t_.mask(), llvm::Constant::getNullValue(t_.lane_type(type)));
  }

  // The scalar every lane of `v` holds when the IR shows it (splats, and lane-wise casts, binary
  // operations and selects of them, as descriptor addresses are built), recreated as scalar code at
  // the insertion point; nullptr otherwise.
  llvm::Value* uniform_scalar(llvm::Value* v, int depth = 0) {
    if (depth > 8) return nullptr;
    if (llvm::Value* s = llvm::getSplatValue(v)) return s;
    if (auto* c = llvm::dyn_cast<llvm::Constant>(v)) return c->getSplatValue();
    if (auto* bin = llvm::dyn_cast<llvm::BinaryOperator>(v)) {
      llvm::Value* x = uniform_scalar(bin->getOperand(0), depth + 1);
      llvm::Value* y = x ? uniform_scalar(bin->getOperand(1), depth + 1) : nullptr;
      return y ? b_.CreateBinOp(bin->getOpcode(), x, y) : nullptr;
    }
    if (auto* sel = llvm::dyn_cast<llvm::SelectInst>(v)) {
      llvm::Value* c = uniform_scalar(sel->getCondition(), depth + 1);
      llvm::Value* x = c ? uniform_scalar(sel->getTrueValue(), depth + 1) : nullptr;
      llvm::Value* y = x ? uniform_scalar(sel->getFalseValue(), depth + 1) : nullptr;
      return y ? b_.CreateSelect(c, x, y) : nullptr;
    }
    if (auto* cast = llvm::dyn_cast<llvm::CastInst>(v)) {
      llvm::Value* x = uniform_scalar(cast->getOperand(0), depth + 1);
      return x ? b_.CreateCast(cast->getOpcode(), x, cast->getDestTy()->getScalarType()) : nullptr;
    }
    return nullptr;
  }

  // The four output vectors (<W x i32>) from SampleArgs::out.
  std::array<llvm::Value*, 4> load_out(llvm::Value* a) {
    std::array<llvm::Value*, 4> out;
    for (uint32_t c = 0; c < 4; ++c)
      out[c] = b_.CreateAlignedLoad(t_.lane_type(b_.getInt32Ty()), at(a, offsetof(SampleArgs, out) + c * 4 * abi::kMaxSampleLanes),
                                    llvm::Align(4));
    return out;
  }

  // Calls the views' routines until every active lane with a view has been served; returns the
  // four output vectors (<W x i32>).
  // `op` is the SampleArgs::op already stored; the uniform case adds kSampleUniform to it.
  std::array<llvm::Value*, 4> call(llvm::Value* a, uint32_t op, llvm::Value* image_records, llvm::Value* sampler_records) {
    llvm::Type* i64t = b_.getInt64Ty();
    llvm::Type* i32t = b_.getInt32Ty();
    const uint32_t w = t_.width();
    llvm::Value* null_view = null_image_view(t_);
    llvm::Value* lanes;
    llvm::Value* uniform_images = uniform_scalar(image_records);
    llvm::Value* uniform_samplers = sampler_records && uniform_images ? uniform_scalar(sampler_records) : nullptr;
    if (uniform_images && (!sampler_records || uniform_samplers)) {
      // The usual case, descriptors the same for every lane: scalar loads instead of gathers. With
      // no lane active the record address may be anything, so the null view (all zero) is read then.
      llvm::Value* any = b_.CreateOrReduce(t_.mask());
      // Routines may then skip comparing the lanes' records, and read them from the scalar copies.
      b_.CreateAlignedStore(b_.getInt32(op | abi::kSampleUniform | abi::kSampleUniformRecords),
                            at(a, offsetof(SampleArgs, op)), llvm::Align(4));
      auto scalar_field = [&](llvm::Value* record, uint32_t offset) {
        llvm::Value* addr = b_.CreateSelect(any, b_.CreateAdd(record, b_.getInt64(offset)), null_view);
        return b_.CreateAlignedLoad(i64t, b_.CreateIntToPtr(addr, b_.getPtrTy()), llvm::Align(8));
      };
      llvm::Value* view = scalar_field(uniform_images, offsetof(abi::ImageSamplerDescriptor, image_view));
      view = b_.CreateSelect(b_.CreateICmpEQ(view, b_.getInt64(0)), null_view, view);
      llvm::Value* splat_view = b_.CreateVectorSplat(t_.width(), view);
      b_.CreateAlignedStore(b_.CreateSelect(t_.mask(), splat_view, t_.splat(null_view)), at(a, offsetof(SampleArgs, view)),
                            llvm::Align(8));
      b_.CreateAlignedStore(view, at(a, offsetof(SampleArgs, uniform_view)), llvm::Align(8));
      llvm::Value* sampler = b_.getInt64(0);
      if (sampler_records) {
        sampler = scalar_field(uniform_samplers, offsetof(abi::ImageSamplerDescriptor, sampler));
        b_.CreateAlignedStore(b_.CreateSelect(t_.mask(), b_.CreateVectorSplat(t_.width(), sampler), i64(0)),
                              at(a, offsetof(SampleArgs, sampler)), llvm::Align(8));
      }
      b_.CreateAlignedStore(sampler, at(a, offsetof(SampleArgs, uniform_sampler)), llvm::Align(8));
      llvm::Value* fn = b_.CreateAlignedLoad(
          i64t, b_.CreateIntToPtr(b_.CreateAdd(view, b_.getInt64(offsetof(abi::ImageViewRecord, sample))), b_.getPtrTy()),
          llvm::Align(8));
      // One call serves every active lane (with kSampleUniform the routine takes them all), made
      // through `fn` itself: the loop below would reload the routine from the view array just
      // stored as vectors, a load that waits on store forwarding before the call is confirmed.
      // No call (no lane active, or a view that cannot be sampled) reads zero.
      llvm::Value* served = b_.CreateAnd(any, b_.CreateICmpNE(fn, b_.getInt64(0)));
      llvm::Value* lane_bits = b_.CreateZExt(b_.CreateBitCast(t_.mask(), b_.getIntNTy(w)), i32t);
      llvm::Function* function = t_.function;
      llvm::BasicBlock* before = b_.GetInsertBlock();
      auto* body = llvm::BasicBlock::Create(t_.ctx, "sample_call", function);
      auto* done = llvm::BasicBlock::Create(t_.ctx, "sample_done", function);
      b_.CreateCondBr(served, body, done);
      b_.SetInsertPoint(body);
      auto* type = llvm::FunctionType::get(i32t, {b_.getPtrTy(), i32t}, false);
      b_.CreateCall(type, b_.CreateIntToPtr(fn, b_.getPtrTy()), {a, lane_bits});
      const std::array<llvm::Value*, 4> loaded = load_out(a);
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
      std::array<llvm::Value*, 4> out;
      for (uint32_t c = 0; c < 4; ++c) {
        llvm::PHINode* phi = b_.CreatePHI(t_.lane_type(i32t), 2);
        phi->addIncoming(llvm::Constant::getNullValue(t_.lane_type(i32t)), before);
        phi->addIncoming(loaded[c], body);
        out[c] = phi;
      }
      return out;
    } else {
      for (uint32_t c = 0; c < 4; ++c)
        b_.CreateAlignedStore(llvm::Constant::getNullValue(t_.lane_type(i32t)),
                              at(a, offsetof(SampleArgs, out) + c * 4 * abi::kMaxSampleLanes), llvm::Align(4));
      llvm::Value* views = field(image_records, offsetof(abi::ImageSamplerDescriptor, image_view), i64t);
      llvm::Value* null_lanes = b_.CreateICmpEQ(views, i64(0));
      views = b_.CreateSelect(null_lanes, t_.splat(null_view), views);
      b_.CreateAlignedStore(views, at(a, offsetof(SampleArgs, view)), llvm::Align(8));
      if (sampler_records) {
        llvm::Value* samplers = field(sampler_records, offsetof(abi::ImageSamplerDescriptor, sampler), i64t);
        b_.CreateAlignedStore(samplers, at(a, offsetof(SampleArgs, sampler)), llvm::Align(8));
      }
      // Inactive lanes point at the null view too, so every lane's record is readable here.
      llvm::Value* all = llvm::Constant::getAllOnesValue(t_.lane_type(b_.getInt1Ty()));
      llvm::Value* fns = b_.CreateMaskedGather(
          t_.lane_type(i64t), b_.CreateIntToPtr(b_.CreateAdd(views, i64(offsetof(abi::ImageViewRecord, sample))), t_.lane_type(b_.getPtrTy())),
          llvm::Align(8), all, llvm::Constant::getNullValue(t_.lane_type(i64t)));
      lanes = b_.CreateAnd(t_.mask(), b_.CreateICmpNE(fns, i64(0)));
    }
    llvm::Value* pending0 = b_.CreateZExt(b_.CreateBitCast(lanes, b_.getIntNTy(w)), i32t);

    llvm::Function* fn = t_.function;
    llvm::BasicBlock* before = b_.GetInsertBlock();
    auto* loop = llvm::BasicBlock::Create(t_.ctx, "sample_loop", fn);
    auto* body = llvm::BasicBlock::Create(t_.ctx, "sample_call", fn);
    auto* done = llvm::BasicBlock::Create(t_.ctx, "sample_done", fn);
    b_.CreateBr(loop);
    b_.SetInsertPoint(loop);
    llvm::PHINode* pending = b_.CreatePHI(i32t, 2);
    pending->addIncoming(pending0, before);
    b_.CreateCondBr(b_.CreateICmpNE(pending, b_.getInt32(0)), body, done);
    b_.SetInsertPoint(body);
    llvm::Value* lane = b_.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, pending, b_.getTrue());
    // The routine of that lane's view, loaded from memory (an extractelement with a variable index
    // feeding an indirect call crashes LLVM 19's instruction selection).
    llvm::Value* slot = b_.CreateGEP(b_.getInt64Ty(), at(a, offsetof(SampleArgs, view)), b_.CreateZExt(lane, i64t));
    llvm::Value* view = b_.CreateAlignedLoad(b_.getPtrTy(), slot, llvm::Align(8));
    llvm::Value* target = b_.CreateAlignedLoad(b_.getPtrTy(), at(view, offsetof(abi::ImageViewRecord, sample)), llvm::Align(8));
    auto* type = llvm::FunctionType::get(i32t, {b_.getPtrTy(), i32t}, false);
    llvm::Value* served = b_.CreateCall(type, target, {a, pending});
    // The lane that chose the routine is always served, so the loop ends even if a routine
    // refuses it.
    served = b_.CreateOr(served, b_.CreateShl(b_.getInt32(1), lane));
    llvm::Value* rest = b_.CreateAnd(pending, b_.CreateNot(served));
    pending->addIncoming(rest, body);
    b_.CreateBr(loop);
    b_.SetInsertPoint(done);
    return load_out(a);
  }

 private:
  Translator& t_;
  llvm::IRBuilder<>& b_;
};

}  // namespace

bool Translator::sample_instruction(const spirv::Instruction& inst, bool* handled) {
  *handled = true;
  const auto& ops = inst.operands;
  SampleCodegen g(*this);
  uint32_t op = 0;
  bool dref = false, proj = false, fetch = false, gather = false;
  size_t operands_at = 2;  // index of the Image Operands mask
  switch (inst.opcode) {
    case spv::Op::OpSampledImage: {
      set(inst.result, Value{{get(ops[0]).leaves.at(0), get(ops[1]).leaves.at(0)}});
      return true;
    }
    case spv::Op::OpImageSampleImplicitLod: op = abi::kSampleOpSample; break;
    case spv::Op::OpImageSampleExplicitLod: op = abi::kSampleOpSample; break;
    case spv::Op::OpImageSampleDrefImplicitLod:
    case spv::Op::OpImageSampleDrefExplicitLod: op = abi::kSampleOpSample; dref = true; break;
    case spv::Op::OpImageSampleProjImplicitLod:
    case spv::Op::OpImageSampleProjExplicitLod: op = abi::kSampleOpSample; proj = true; break;
    case spv::Op::OpImageSampleProjDrefImplicitLod:
    case spv::Op::OpImageSampleProjDrefExplicitLod: op = abi::kSampleOpSample; proj = dref = true; break;
    case spv::Op::OpImageFetch: op = abi::kSampleOpFetch; fetch = true; break;
    case spv::Op::OpImageRead: op = abi::kSampleOpFetch; fetch = true; break;  // subpass inputs (image_instruction)
    case spv::Op::OpImageGather: op = abi::kSampleOpGather; gather = true; operands_at = 3; break;
    case spv::Op::OpImageDrefGather: op = abi::kSampleOpGather; gather = dref = true; break;
    case spv::Op::OpImageQueryLod: op = abi::kSampleOpQueryLod; break;
    default:
      *handled = false;
      return true;
  }
  if (dref) operands_at = 3;  // the Dref operand comes before the image operands
  const Value image = get(ops[0]);
  const spirv::Type& image_type = m.type(type_of(ops[0]));
  // subpassLoad: the input attachment's texel at the fragment's own pixel plus the (constant)
  // offset, in the fragment's layer (the view index under multiview), at level 0.
  const bool subpass = inst.opcode == spv::Op::OpImageRead;
  const std::optional<Value> coordinates = subpass ? stage_->subpass_coordinates(get(ops[1])) : get(ops[1]);
  if (!coordinates) return fail(inst, "subpass input outside a fragment shader");
  const Value& coord = *coordinates;
  const ImageOperands io = parse_image_operands(ops, operands_at);
  if (io.sample && !fetch) return fail(inst, "the Sample operand is only valid on fetches");

  llvm::Value* a = g.args();
  llvm::Type* i32 = builder_.getInt32Ty();
  if (io.lod) op |= abi::kSampleExplicitLod;
  if (io.grad_x) op |= abi::kSampleGrad;
  if (io.bias) op |= abi::kSampleBias;
  if (dref) op |= abi::kSampleDref;
  if (proj) op |= abi::kSampleProj;
  if (io.min_lod) op |= abi::kSampleMinLod;
  if (io.offset) op |= abi::kSampleOffset;
  if (io.offsets) op |= abi::kSampleOffsets4;
  if (io.sample) op |= abi::kSampleIndex;
  if (gather || inst.opcode == spv::Op::OpImageQueryLod) op &= ~abi::kSampleLodMask;

  const uint32_t coords = static_cast<uint32_t>(coord.leaves.size());
  if (coords == 0 || coords > 4) return fail(inst, "bad coordinate");
  auto scalar_store = [&](size_t offset, llvm::Value* v) { builder_.CreateAlignedStore(v, g.at(a, offset), llvm::Align(4)); };
  scalar_store(offsetof(SampleArgs, op), builder_.getInt32(op));
  scalar_store(offsetof(SampleArgs, width), builder_.getInt32(width()));
  // Proj: q follows the coordinates the image's dimensionality uses (glslang moves it there).
  const uint32_t spatial = image_type.dim == spv::Dim::Dim1D ? 1 : image_type.dim == spv::Dim::Dim3D ? 3 : 2;
  if (proj && coords <= spatial) return fail(inst, "projective coordinate without q");
  scalar_store(offsetof(SampleArgs, coord_count), builder_.getInt32(proj ? spatial : coords));
  for (uint32_t c = 0; c < coords; ++c)
    g.store_lanes(a, offsetof(SampleArgs, coord) + c * 4 * abi::kMaxSampleLanes, coord.leaves[c], !fetch);
  auto lane0 = [&](llvm::Value* v) { return builder_.CreateExtractElement(v, builder_.getInt32(0)); };
  if (gather) {
    llvm::Value* component = dref ? builder_.getInt32(0) : builder_.CreateZExtOrTrunc(lane0(get(ops[2]).leaves.at(0)), i32);
    scalar_store(offsetof(SampleArgs, gather_component), component);
  }
  if (dref) g.store_lanes(a, offsetof(SampleArgs, dref), get(ops[2]).leaves.at(0), true);
  if (io.lod) g.store_lanes(a, offsetof(SampleArgs, lod), get(io.lod).leaves.at(0), !fetch);
  else if (fetch) g.store_lanes(a, offsetof(SampleArgs, lod), splat(builder_.getInt32(0)), false);
  if (io.bias) g.store_lanes(a, offsetof(SampleArgs, lod), get(io.bias).leaves.at(0), true);
  if (io.sample) g.store_lanes(a, offsetof(SampleArgs, sample_index), get(io.sample).leaves.at(0), false);
  if (io.min_lod) g.store_lanes(a, offsetof(SampleArgs, min_lod), get(io.min_lod).leaves.at(0), true);
  if (io.grad_x) {
    const Value dx = get(io.grad_x), dy = get(io.grad_y);
    for (uint32_t d = 0; d < dx.leaves.size() && d < 3; ++d) {
      g.store_lanes(a, offsetof(SampleArgs, grad) + d * 4 * abi::kMaxSampleLanes, dx.leaves[d], true);
      g.store_lanes(a, offsetof(SampleArgs, grad) + (3 + d) * 4 * abi::kMaxSampleLanes, dy.leaves[d], true);
    }
  }
  if (io.offset) {
    const Value off = get(io.offset);
    for (uint32_t d = 0; d < 3; ++d)
      g.store_lanes(a, offsetof(SampleArgs, offset) + d * 4 * abi::kMaxSampleLanes,
                    d < off.leaves.size() ? off.leaves[d] : splat(builder_.getInt32(0)), false);
  }
  if (io.offsets) {
    // Four ivec2 offsets (constant by the spec): taken from the first lane.
    const Value offs = get(io.offsets);
    for (uint32_t i = 0; i < 8 && i < offs.leaves.size(); ++i)
      scalar_store(offsetof(SampleArgs, gather_offsets) + i * 4, builder_.CreateSExtOrTrunc(lane0(offs.leaves[i]), i32));
  }

  llvm::Value* image_records = image.leaves.at(0);
  llvm::Value* sampler_records = fetch ? nullptr : image.leaves.size() > 1 ? image.leaves[1] : image.leaves[0];
  const std::array<llvm::Value*, 4> texel = g.call(a, op, image_records, sampler_records);

  std::vector<Id> scalars;
  scalar_types(inst.result_type, &scalars);
  Value out;
  for (size_t c = 0; c < scalars.size() && c < 4; ++c) {
    llvm::Type* want = lane_type(leaf_type(scalars[c]));
    llvm::Value* v = texel[c];
    if (want->getScalarType()->isHalfTy()) {
      v = builder_.CreateFPTrunc(builder_.CreateBitCast(v, lane_type(builder_.getFloatTy())), want);
    } else if (want->getScalarSizeInBits() != 32) {
      return fail(inst, "sampled texels must be 16- or 32-bit");
    } else {
      v = builder_.CreateBitCast(v, want);
    }
    out.leaves.push_back(v);
  }
  set(inst.result, std::move(out));
  return true;
}

}  // namespace kiln::compiler
