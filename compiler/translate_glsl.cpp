// GLSL.std.450 extended instructions, leaf by leaf (vector forms apply per component).
#include <spirv/unified1/GLSL.std.450.h>

#include <llvm/IR/Intrinsics.h>

#include <numbers>

#include "compiler/translator_internal.h"

namespace kiln::compiler {
namespace {

// Calls a libm function (float or double flavour) on every lane; for the functions LLVM 19 has
// no vector intrinsic for. Inactive lanes compute too: these functions have no side effects.
llvm::Value* libm_per_lane(Translator& t, const char* float_name, const char* double_name,
                           std::initializer_list<llvm::Value*> args) {
  auto& b = t.b();
  llvm::Value* first = *args.begin();
  auto* vec = llvm::cast<llvm::FixedVectorType>(first->getType());
  llvm::Type* scalar = vec->getElementType();
  llvm::Type* call_type = scalar->isHalfTy() ? b.getFloatTy() : scalar;
  const char* name = call_type->isDoubleTy() ? double_name : float_name;
  std::vector<llvm::Type*> params(args.size(), call_type);
  llvm::FunctionCallee fn = t.llvm_module->getOrInsertFunction(name, llvm::FunctionType::get(call_type, params, false));
  llvm::Value* out = llvm::UndefValue::get(vec);
  for (unsigned lane = 0; lane < vec->getNumElements(); ++lane) {
    std::vector<llvm::Value*> lane_args;
    for (llvm::Value* a : args) lane_args.push_back(b.CreateFPCast(b.CreateExtractElement(a, lane), call_type));
    out = b.CreateInsertElement(out, b.CreateFPCast(b.CreateCall(fn, lane_args), scalar), lane);
  }
  return out;
}

}  // namespace

bool Translator::glsl_instruction(const spirv::Instruction& inst) {
  auto& b = builder_;
  const auto& ops = inst.operands;
  const uint32_t op = ops[1];
  std::vector<Value> args;
  for (size_t i = 2; i < ops.size(); ++i) args.push_back(get(ops[i]));
  auto arg = [&](size_t i, size_t leaf) -> llvm::Value* {
    const Value& v = args.at(i);
    return v.leaves.size() == 1 ? v.leaves[0] : v.leaves.at(leaf);
  };
  const size_t leaves = args.empty() ? 0 : args[0].leaves.size();
  auto per_leaf = [&](auto fn) {
    Value r;
    for (size_t i = 0; i < leaves; ++i) r.leaves.push_back(fn(i));
    set(inst.result, std::move(r));
    return true;
  };
  auto intrinsic = [&](llvm::Intrinsic::ID id) {
    return per_leaf([&](size_t i) { return b.CreateUnaryIntrinsic(id, arg(0, i)); });
  };
  auto intrinsic2 = [&](llvm::Intrinsic::ID id) {
    return per_leaf([&](size_t i) { return b.CreateBinaryIntrinsic(id, arg(0, i), arg(1, i)); });
  };
  auto libm = [&](const char* f, const char* d) {
    return per_leaf([&](size_t i) { return libm_per_lane(*this, f, d, {arg(0, i)}); });
  };
  auto fconst = [&](llvm::Value* like, double v) { return llvm::ConstantFP::get(like->getType(), v); };
  auto dot = [&](size_t x, size_t y) {
    llvm::Value* acc = b.CreateFMul(args[x].leaves[0], args[y].leaves[0]);
    for (size_t i = 1; i < args[x].leaves.size(); ++i) acc = b.CreateFAdd(acc, b.CreateFMul(args[x].leaves[i], args[y].leaves[i]));
    return acc;
  };

  switch (op) {
    case GLSLstd450Round: return intrinsic(llvm::Intrinsic::round);
    case GLSLstd450RoundEven: return intrinsic(llvm::Intrinsic::roundeven);
    case GLSLstd450Trunc: return intrinsic(llvm::Intrinsic::trunc);
    case GLSLstd450FAbs: return intrinsic(llvm::Intrinsic::fabs);
    case GLSLstd450SAbs: return per_leaf([&](size_t i) { return b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, arg(0, i), b.getFalse()); });
    case GLSLstd450FSign:
      return per_leaf([&](size_t i) {
        llvm::Value* x = arg(0, i);
        llvm::Value* pos = b.CreateSelect(b.CreateFCmpOGT(x, fconst(x, 0)), fconst(x, 1), fconst(x, 0));
        return b.CreateSelect(b.CreateFCmpOLT(x, fconst(x, 0)), fconst(x, -1), pos);
      });
    case GLSLstd450SSign:
      return per_leaf([&](size_t i) {
        llvm::Value* x = arg(0, i);
        llvm::Value* zero = llvm::Constant::getNullValue(x->getType());
        llvm::Value* pos = b.CreateZExt(b.CreateICmpSGT(x, zero), x->getType());
        return b.CreateSelect(b.CreateICmpSLT(x, zero), llvm::Constant::getAllOnesValue(x->getType()), pos);
      });
    case GLSLstd450Floor: return intrinsic(llvm::Intrinsic::floor);
    case GLSLstd450Ceil: return intrinsic(llvm::Intrinsic::ceil);
    case GLSLstd450Fract:
      return per_leaf([&](size_t i) { return b.CreateFSub(arg(0, i), b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, arg(0, i))); });
    case GLSLstd450Radians:
      return per_leaf([&](size_t i) { return b.CreateFMul(arg(0, i), fconst(arg(0, i), std::numbers::pi / 180.0)); });
    case GLSLstd450Degrees:
      return per_leaf([&](size_t i) { return b.CreateFMul(arg(0, i), fconst(arg(0, i), 180.0 / std::numbers::pi)); });
    case GLSLstd450Sin: return intrinsic(llvm::Intrinsic::sin);
    case GLSLstd450Cos: return intrinsic(llvm::Intrinsic::cos);
    case GLSLstd450Tan: return libm("tanf", "tan");
    case GLSLstd450Asin: return libm("asinf", "asin");
    case GLSLstd450Acos: return libm("acosf", "acos");
    case GLSLstd450Atan: return libm("atanf", "atan");
    case GLSLstd450Sinh: return libm("sinhf", "sinh");
    case GLSLstd450Cosh: return libm("coshf", "cosh");
    case GLSLstd450Tanh: return libm("tanhf", "tanh");
    case GLSLstd450Asinh: return libm("asinhf", "asinh");
    case GLSLstd450Acosh: return libm("acoshf", "acosh");
    case GLSLstd450Atanh: return libm("atanhf", "atanh");
    case GLSLstd450Atan2: return per_leaf([&](size_t i) { return libm_per_lane(*this, "atan2f", "atan2", {arg(0, i), arg(1, i)}); });
    case GLSLstd450Pow: return intrinsic2(llvm::Intrinsic::pow);
    case GLSLstd450Exp: return intrinsic(llvm::Intrinsic::exp);
    case GLSLstd450Log: return intrinsic(llvm::Intrinsic::log);
    case GLSLstd450Exp2: return intrinsic(llvm::Intrinsic::exp2);
    case GLSLstd450Log2: return intrinsic(llvm::Intrinsic::log2);
    case GLSLstd450Sqrt: return intrinsic(llvm::Intrinsic::sqrt);
    case GLSLstd450InverseSqrt:
      return per_leaf([&](size_t i) { return b.CreateFDiv(fconst(arg(0, i), 1.0), b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, arg(0, i))); });
    case GLSLstd450FMin:
    case GLSLstd450NMin: return intrinsic2(llvm::Intrinsic::minnum);
    case GLSLstd450FMax:
    case GLSLstd450NMax: return intrinsic2(llvm::Intrinsic::maxnum);
    case GLSLstd450UMin: return intrinsic2(llvm::Intrinsic::umin);
    case GLSLstd450SMin: return intrinsic2(llvm::Intrinsic::smin);
    case GLSLstd450UMax: return intrinsic2(llvm::Intrinsic::umax);
    case GLSLstd450SMax: return intrinsic2(llvm::Intrinsic::smax);
    case GLSLstd450FClamp:
    case GLSLstd450NClamp:
      return per_leaf([&](size_t i) {
        return b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, arg(0, i), arg(1, i)), arg(2, i));
      });
    case GLSLstd450UClamp:
      return per_leaf([&](size_t i) {
        return b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, arg(0, i), arg(1, i)), arg(2, i));
      });
    case GLSLstd450SClamp:
      return per_leaf([&](size_t i) {
        return b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, arg(0, i), arg(1, i)), arg(2, i));
      });
    case GLSLstd450FMix:
      return per_leaf([&](size_t i) {
        llvm::Value *x = arg(0, i), *y = arg(1, i), *a = arg(2, i);
        return b.CreateFAdd(x, b.CreateFMul(b.CreateFSub(y, x), a));
      });
    case GLSLstd450Step:
      return per_leaf([&](size_t i) {
        llvm::Value *edge = arg(0, i), *x = arg(1, i);
        return b.CreateSelect(b.CreateFCmpOLT(x, edge), fconst(x, 0), fconst(x, 1));
      });
    case GLSLstd450SmoothStep:
      return per_leaf([&](size_t i) {
        llvm::Value *e0 = arg(0, i), *e1 = arg(1, i), *x = arg(2, i);
        llvm::Value* t = b.CreateFDiv(b.CreateFSub(x, e0), b.CreateFSub(e1, e0));
        t = b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, t, fconst(t, 0)), fconst(t, 1));
        return b.CreateFMul(b.CreateFMul(t, t), b.CreateFSub(fconst(t, 3), b.CreateFMul(fconst(t, 2), t)));
      });
    case GLSLstd450Fma:
      return per_leaf([&](size_t i) {
        return b.CreateIntrinsic(llvm::Intrinsic::fma, {arg(0, i)->getType()}, {arg(0, i), arg(1, i), arg(2, i)});
      });
    case GLSLstd450Ldexp:
      return per_leaf([&](size_t i) {
        return b.CreateIntrinsic(llvm::Intrinsic::ldexp, {arg(0, i)->getType(), arg(1, i)->getType()}, {arg(0, i), arg(1, i)});
      });
    case GLSLstd450Length:
      set(inst.result, Value{{b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, dot(0, 0))}});
      return true;
    case GLSLstd450Distance: {
      llvm::Value* acc = nullptr;
      for (size_t i = 0; i < args[0].leaves.size(); ++i) {
        llvm::Value* d = b.CreateFSub(args[0].leaves[i], args[1].leaves[i]);
        acc = acc ? b.CreateFAdd(acc, b.CreateFMul(d, d)) : b.CreateFMul(d, d);
      }
      set(inst.result, Value{{b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, acc)}});
      return true;
    }
    case GLSLstd450Normalize: {
      llvm::Value* inv = b.CreateFDiv(fconst(args[0].leaves[0], 1.0), b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, dot(0, 0)));
      return per_leaf([&](size_t i) { return b.CreateFMul(arg(0, i), inv); });
    }
    case GLSLstd450Cross: {
      auto x = args[0].leaves, y = args[1].leaves;
      auto cross = [&](int a, int c) { return b.CreateFSub(b.CreateFMul(x[a], y[c]), b.CreateFMul(y[a], x[c])); };
      set(inst.result, Value{{cross(1, 2), cross(2, 0), cross(0, 1)}});
      return true;
    }
    case GLSLstd450FaceForward: {
      llvm::Value* flip = b.CreateFCmpOLT(dot(2, 1), fconst(args[0].leaves[0], 0));
      return per_leaf([&](size_t i) { return b.CreateSelect(flip, arg(0, i), b.CreateFNeg(arg(0, i))); });
    }
    case GLSLstd450Reflect: {
      llvm::Value* d2 = b.CreateFMul(fconst(args[0].leaves[0], 2), dot(1, 0));
      return per_leaf([&](size_t i) { return b.CreateFSub(arg(0, i), b.CreateFMul(d2, arg(1, i))); });
    }
    case GLSLstd450Refract: {
      llvm::Value* eta = args[2].leaves[0];
      llvm::Value* d = dot(1, 0);
      llvm::Value* one = fconst(d, 1);
      llvm::Value* k = b.CreateFSub(one, b.CreateFMul(b.CreateFMul(eta, eta), b.CreateFSub(one, b.CreateFMul(d, d))));
      llvm::Value* total = b.CreateFCmpOLT(k, fconst(k, 0));
      llvm::Value* scale = b.CreateFAdd(b.CreateFMul(eta, d), b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, k));
      return per_leaf([&](size_t i) {
        llvm::Value* r = b.CreateFSub(b.CreateFMul(eta, arg(0, i)), b.CreateFMul(scale, arg(1, i)));
        return b.CreateSelect(total, fconst(r, 0), r);
      });
    }
    case GLSLstd450FindILsb:
      return per_leaf([&](size_t i) {
        llvm::Value* x = arg(0, i);
        llvm::Value* tz = b.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, x, b.getTrue());
        return b.CreateSelect(b.CreateICmpEQ(x, llvm::Constant::getNullValue(x->getType())), llvm::Constant::getAllOnesValue(x->getType()), tz);
      });
    case GLSLstd450FindUMsb:
    case GLSLstd450FindSMsb:
      return per_leaf([&](size_t i) {
        llvm::Value* x = arg(0, i);
        llvm::Type* t = x->getType();
        // For signed values the most significant bit that differs from the sign bit.
        if (op == GLSLstd450FindSMsb)
          x = b.CreateSelect(b.CreateICmpSLT(x, llvm::Constant::getNullValue(t)), b.CreateNot(x), x);
        llvm::Value* lz = b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, x, b.getFalse());
        return b.CreateSub(llvm::ConstantInt::get(t, t->getScalarSizeInBits() - 1), lz);  // 0 → -1
      });
    case GLSLstd450Modf:
    case GLSLstd450ModfStruct: {
      Value fract, whole;
      for (size_t i = 0; i < leaves; ++i) {
        llvm::Value* w = b.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, arg(0, i));
        whole.leaves.push_back(w);
        fract.leaves.push_back(b.CreateFSub(arg(0, i), w));
      }
      if (op == GLSLstd450Modf) {
        store(get_pointer(ops[3]), composite_type(ops[2]), whole);
        set(inst.result, std::move(fract));
      } else {
        fract.leaves.insert(fract.leaves.end(), whole.leaves.begin(), whole.leaves.end());
        set(inst.result, std::move(fract));
      }
      return true;
    }
    case GLSLstd450PackHalf2x16: {
      llvm::Type* i32 = lane_type(b.getInt32Ty());
      auto half_bits = [&](llvm::Value* f) {
        return b.CreateZExt(b.CreateBitCast(b.CreateFPTrunc(f, lane_type(b.getHalfTy())), lane_type(b.getInt16Ty())), i32);
      };
      llvm::Value* r = b.CreateOr(half_bits(args[0].leaves[0]), b.CreateShl(half_bits(args[0].leaves[1]), llvm::ConstantInt::get(i32, 16)));
      set(inst.result, Value{{r}});
      return true;
    }
    case GLSLstd450UnpackHalf2x16: {
      llvm::Value* x = args[0].leaves[0];
      auto from_half = [&](llvm::Value* bits16) {
        return b.CreateFPExt(b.CreateBitCast(b.CreateTrunc(bits16, lane_type(b.getInt16Ty())), lane_type(b.getHalfTy())),
                             lane_type(b.getFloatTy()));
      };
      set(inst.result, Value{{from_half(x), from_half(b.CreateLShr(x, llvm::ConstantInt::get(x->getType(), 16)))}});
      return true;
    }
    case GLSLstd450PackUnorm4x8:
    case GLSLstd450PackSnorm4x8:
    case GLSLstd450PackUnorm2x16:
    case GLSLstd450PackSnorm2x16: {
      const bool snorm = op == GLSLstd450PackSnorm4x8 || op == GLSLstd450PackSnorm2x16;
      const unsigned bits = (op == GLSLstd450PackUnorm4x8 || op == GLSLstd450PackSnorm4x8) ? 8 : 16;
      llvm::Type* i32 = lane_type(b.getInt32Ty());
      llvm::Value* acc = llvm::Constant::getNullValue(i32);
      const double scale = snorm ? (1 << (bits - 1)) - 1 : (1u << bits) - 1;
      for (size_t c = 0; c < args[0].leaves.size(); ++c) {
        llvm::Value* f = args[0].leaves[c];
        f = b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, f, fconst(f, snorm ? -1 : 0)), fconst(f, 1));
        llvm::Value* q = b.CreateFPToSI(b.CreateUnaryIntrinsic(llvm::Intrinsic::round, b.CreateFMul(f, fconst(f, scale))), i32);
        q = b.CreateAnd(q, llvm::ConstantInt::get(i32, (1u << bits) - 1));
        acc = b.CreateOr(acc, b.CreateShl(q, llvm::ConstantInt::get(i32, c * bits)));
      }
      set(inst.result, Value{{acc}});
      return true;
    }
    case GLSLstd450UnpackUnorm4x8:
    case GLSLstd450UnpackSnorm4x8:
    case GLSLstd450UnpackUnorm2x16:
    case GLSLstd450UnpackSnorm2x16: {
      const bool snorm = op == GLSLstd450UnpackSnorm4x8 || op == GLSLstd450UnpackSnorm2x16;
      const unsigned bits = (op == GLSLstd450UnpackUnorm4x8 || op == GLSLstd450UnpackSnorm4x8) ? 8 : 16;
      llvm::Value* x = args[0].leaves[0];
      llvm::Type* f32 = lane_type(b.getFloatTy());
      Value r;
      for (unsigned c = 0; c < 32 / bits; ++c) {
        llvm::Value* field = b.CreateTrunc(b.CreateLShr(x, llvm::ConstantInt::get(x->getType(), c * bits)), lane_type(b.getIntNTy(bits)));
        if (snorm) {
          llvm::Value* f = b.CreateFDiv(b.CreateSIToFP(field, f32), llvm::ConstantFP::get(f32, (1 << (bits - 1)) - 1));
          r.leaves.push_back(b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, f, llvm::ConstantFP::get(f32, -1.0)));
        } else {
          r.leaves.push_back(b.CreateFDiv(b.CreateUIToFP(field, f32), llvm::ConstantFP::get(f32, (1u << bits) - 1)));
        }
      }
      set(inst.result, std::move(r));
      return true;
    }
    case GLSLstd450Determinant: {
      const auto& v = args[0].leaves;
      const size_t n = v.size() == 4 ? 2 : v.size() == 9 ? 3 : 4;
      auto e = [&](size_t c, size_t r) { return v[c * n + r]; };
      auto det2 = [&](llvm::Value* a, llvm::Value* bb, llvm::Value* c, llvm::Value* d) {
        return b.CreateFSub(b.CreateFMul(a, d), b.CreateFMul(bb, c));
      };
      llvm::Value* r;
      if (n == 2) {
        r = det2(e(0, 0), e(1, 0), e(0, 1), e(1, 1));
      } else if (n == 3) {
        r = b.CreateFAdd(b.CreateFSub(b.CreateFMul(e(0, 0), det2(e(1, 1), e(2, 1), e(1, 2), e(2, 2))),
                                      b.CreateFMul(e(1, 0), det2(e(0, 1), e(2, 1), e(0, 2), e(2, 2)))),
                         b.CreateFMul(e(2, 0), det2(e(0, 1), e(1, 1), e(0, 2), e(1, 2))));
      } else {
        // Laplace expansion along the first row using 3x3 minors.
        auto det3 = [&](size_t skip) {
          std::vector<size_t> cols;
          for (size_t c = 0; c < 4; ++c) if (c != skip) cols.push_back(c);
          auto m3 = [&](size_t c, size_t row) { return e(cols[c], row); };
          return b.CreateFAdd(b.CreateFSub(b.CreateFMul(m3(0, 1), det2(m3(1, 2), m3(2, 2), m3(1, 3), m3(2, 3))),
                                           b.CreateFMul(m3(1, 1), det2(m3(0, 2), m3(2, 2), m3(0, 3), m3(2, 3)))),
                              b.CreateFMul(m3(2, 1), det2(m3(0, 2), m3(1, 2), m3(0, 3), m3(1, 3))));
        };
        r = nullptr;
        for (size_t c = 0; c < 4; ++c) {
          llvm::Value* term = b.CreateFMul(e(c, 0), det3(c));
          r = !r ? term : (c % 2 ? b.CreateFSub(r, term) : b.CreateFAdd(r, term));
        }
      }
      set(inst.result, Value{{r}});
      return true;
    }
    default:
      return fail(inst, "unsupported GLSL.std.450 instruction " + std::to_string(op));
  }
}

}  // namespace kiln::compiler
