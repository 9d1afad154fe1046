// Storage images and texel buffers: image variables, OpImageRead/Write, OpImageFetch on texel
// buffers, OpImageQuerySize, OpImageTexelPointer (image atomics).
//
// An image's value is the address of its descriptor record. Every access resolves the record into
// a grid (base address, per-coordinate size and pitch, format; abi::ImageViewRecord and
// abi::TexelBufferDescriptor), checks each lane's coordinate against the grid and the texel size
// against the format the code was generated for, and touches memory only for lanes that pass:
// out-of-bounds reads return zero (alpha one for formats without alpha), writes are dropped
// (robustImageAccess). Format conversion is generated inline; a module without an Image Format
// (Unknown) gets code for every format of the image's sampled type, chosen per lane at run time.
#include <llvm/IR/Intrinsics.h>
#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <map>
#include <optional>
#include <span>

#include "common/abi/kernel_abi.h"
#include "compiler/image_operands.h"
#include "compiler/shader_image_formats.h"
#include "compiler/stage_emitter.h"
#include "compiler/translator_internal.h"

namespace kiln::compiler {
namespace {

using abi::Numeric;
using abi::TexelFormat;
using abi::kTexelFormats;

// Per lane: where the image's texels are and how many there are (see abi::ImageViewRecord).
struct Grid {
  llvm::Value* base;      // <W x i64>
  llvm::Value* size[3];   // <W x i64>
  llvm::Value* pitch[3];  // <W x i64>; pitch[0] is the texel size (all its samples)
  llvm::Value* format;    // <W x i32> VkFormat
  llvm::Value* samples = nullptr;  // <W x i64>, multisampled images only (at least 1)
};

// Coordinates an image instruction takes: one per dimension, plus the layer for arrays (cube
// faces and cube-array layer-faces are the third coordinate of a 2D grid).
uint32_t coordinate_count(const spirv::Type& image) {
  switch (image.dim) {
    case spv::Dim::Dim1D: return image.arrayed ? 2 : 1;
    case spv::Dim::Buffer: return 1;
    case spv::Dim::Dim2D:
    case spv::Dim::Rect: return image.arrayed ? 3 : 2;
    default: return 3;  // 3D, Cube
  }
}

class ImageCodegen {
 public:
  explicit ImageCodegen(Translator& t) : t_(t), b_(t.b()) {}

  llvm::Value* i64(uint64_t v) { return t_.splat(b_.getInt64(v)); }

  // Loads a field of `type` at `offset` of each lane's record (records are always readable).
  llvm::Value* field(llvm::Value* record, uint32_t offset, llvm::Type* type) {
    llvm::Value* addr = b_.CreateAdd(record, i64(offset));
    llvm::Value* all = llvm::Constant::getAllOnesValue(t_.lane_type(b_.getInt1Ty()));
    return b_.CreateMaskedGather(t_.lane_type(type), b_.CreateIntToPtr(addr, t_.lane_type(b_.getPtrTy())),
                                 llvm::Align(4), all, llvm::Constant::getNullValue(t_.lane_type(type)));
  }

  // Descriptor records are read in every lane (field), and a lane that is not active may hold any
  // record address (an undefined value carried through a loop or a phi): those read the zero
  // record, a null descriptor, instead.
  llvm::Value* active_record(llvm::Value* record) {
    return b_.CreateSelect(t_.mask(), record, t_.splat(b_.CreatePtrToInt(t_.zero_record(), b_.getInt64Ty())));
  }

  Grid grid(const spirv::Type& image, llvm::Value* record) {
    Grid g;
    record = active_record(record);
    llvm::Type* i32 = b_.getInt32Ty();
    llvm::Type* i64t = b_.getInt64Ty();
    auto wide = [&](llvm::Value* v) { return b_.CreateZExt(v, t_.lane_type(i64t)); };
    if (image.dim == spv::Dim::Buffer) {
      using D = abi::TexelBufferDescriptor;
      g.base = field(record, offsetof(D, address), i64t);
      g.size[0] = wide(field(record, offsetof(D, element_count), i32));
      g.size[1] = g.size[2] = i64(1);
      g.pitch[0] = wide(field(record, offsetof(D, texel_bytes), i32));
      g.pitch[1] = g.pitch[2] = i64(0);
      g.format = field(record, offsetof(D, format), i32);
      return g;
    }
    using R = abi::ImageViewRecord;
    llvm::Value* view = field(record, offsetof(abi::ImageSamplerDescriptor, image_view), i64t);
    view = b_.CreateSelect(b_.CreateICmpEQ(view, i64(0)), t_.splat(null_view()), view);
    g.base = field(view, offsetof(R, address), i64t);
    for (uint32_t i = 0; i < 3; ++i) {
      g.pitch[i] = field(view, offsetof(R, pitch) + 8 * i, i64t);
      g.size[i] = wide(field(view, offsetof(R, size) + 4 * i, i32));
    }
    g.format = field(view, offsetof(R, format), i32);
    if (image.multisampled) {
      // A null view has 0 samples: 1 keeps the division below defined (its size is 0 anyway).
      llvm::Value* samples = wide(field(view, offsetof(R, samples), i32));
      g.samples = b_.CreateSelect(b_.CreateICmpEQ(samples, i64(0)), i64(1), samples);
    }
    return g;
  }

  // Bytes of one sample of a texel: the texel's own size unless the image is multisampled (a
  // texel's samples are adjacent, memory/image_layout.h).
  llvm::Value* sample_bytes(const Grid& g) { return g.samples ? b_.CreateUDiv(g.pitch[0], g.samples) : g.pitch[0]; }

  // Lanes of the current mask whose coordinate lies inside the grid, and their texel addresses.
  // `sample` (multisampled images: the Sample operand, 0 when absent) selects one of the texel's
  // samples; one past the image's count is outside like a coordinate.
  llvm::Value* texel_address(const spirv::Type& image, const Grid& g, const Value& coord, llvm::Value** inside,
                             const Value* sample = nullptr) {
    llvm::Type* i64t = b_.getInt64Ty();
    llvm::Value* addr = g.base;
    llvm::Value* ok = t_.mask();
    if (g.samples && sample) {
      llvm::Value* s =
          b_.CreateZExt(b_.CreateZExtOrTrunc(sample->leaves.at(0), t_.lane_type(b_.getInt32Ty())), t_.lane_type(i64t));
      ok = b_.CreateAnd(ok, b_.CreateICmpULT(s, g.samples));
      addr = b_.CreateAdd(addr, b_.CreateMul(s, sample_bytes(g)));
    }
    const uint32_t n = std::min<uint32_t>(coordinate_count(image), static_cast<uint32_t>(coord.leaves.size()));
    for (uint32_t i = 0; i < n; ++i) {
      // Negative coordinates become huge unsigned ones: out of bounds like any other.
      llvm::Value* c = b_.CreateZExt(b_.CreateZExtOrTrunc(coord.leaves[i], t_.lane_type(b_.getInt32Ty())), t_.lane_type(i64t));
      ok = b_.CreateAnd(ok, b_.CreateICmpULT(c, g.size[i]));
      addr = b_.CreateAdd(addr, b_.CreateMul(c, g.pitch[i]));
    }
    *inside = ok;
    // Strict mode: the lanes outside, unless the view is a null descriptor (every size 0). Texel
    // buffers are buffers for robustness (robustBufferAccess covers them), images are images.
    const uint32_t kind = image.dim == spv::Dim::Buffer ? abi::kShaderFaultBufferBounds : abi::kShaderFaultImageBounds;
    if (t_.reports(kind))
      t_.note_shader_fault(kind, b_.CreateAnd(b_.CreateAnd(t_.mask(), b_.CreateNot(ok)),
                                              b_.CreateICmpNE(g.size[0], t_.splat(b_.getInt64(0)))));
    return addr;
  }

  // The code generated for one image access: one piece per code shape (TexelFormat::same_code),
  // run for the lanes whose view has one of `views` formats — or, when the module's format
  // decides, whose texel size matches.
  struct FormatCode {
    const TexelFormat* format;
    std::vector<uint32_t> views;  // VkFormat
  };

  // Sampled images (uniform texel buffers) are read as the view's format whatever the module
  // declares; storage images as the module's format unless it is Unknown.
  static bool format_from_view(const spirv::Type& image) {
    return image.image_format == spv::ImageFormat::Unknown || image.sampled == 1;
  }

  // The formats code is generated for: the module's, or every one of the sampled type's class
  // that the access can meet (storage images only meet formats with TexelFormat::storage).
  std::vector<FormatCode> formats(const spirv::Type& image) {
    std::vector<FormatCode> out;
    const bool integer = t_.m.type(image.element).kind == spirv::TypeKind::Int;
    const bool storage = image.sampled != 1;
    for (const TexelFormat& f : kTexelFormats) {
      if (storage && !f.storage) continue;
      if (!format_from_view(image)) {
        if (f.spv != image.image_format) continue;
        out.push_back({&f, {static_cast<uint32_t>(f.vk)}});
        break;  // later entries with the same SPIR-V format share its layout
      }
      if (f.integer() != integer) continue;
      auto same = std::find_if(out.begin(), out.end(), [&](const FormatCode& c) { return c.format->same_code(f); });
      if (same != out.end()) same->views.push_back(static_cast<uint32_t>(f.vk));
      else out.push_back({&f, {static_cast<uint32_t>(f.vk)}});
    }
    return out;
  }

  // Lanes whose view `code` serves: with a module format the texel size must match the view's (so
  // a mismatched view can never be read past its end); otherwise the view's format.
  llvm::Value* format_match(const spirv::Type& image, const Grid& g, const FormatCode& code) {
    if (!format_from_view(image)) return b_.CreateICmpEQ(sample_bytes(g), i64(code.format->bytes()));
    return view_format_match(g.format, code);
  }
  // Lanes whose view `format` (<W x i32> VkFormat) is one `code` serves.
  llvm::Value* view_format_match(llvm::Value* format, const FormatCode& code) {
    llvm::Value* match = nullptr;
    for (uint32_t vk : code.views) {
      llvm::Value* is = b_.CreateICmpEQ(format, t_.splat(b_.getInt32(vk)));
      match = match ? b_.CreateOr(match, is) : is;
    }
    return match;
  }
  // Lanes for which `code` accesses memory: in bounds and of its format.
  llvm::Value* format_lanes(const spirv::Type& image, const Grid& g, const FormatCode& code, llvm::Value* inside) {
    return b_.CreateAnd(inside, format_match(image, g, code));
  }

  // Loads the `bits`-wide integer at byte `offset` of each lane's texel (zero for other lanes).
  llvm::Value* load_unit(llvm::Value* addr, uint32_t offset, uint32_t bits, llvm::Value* lanes, bool gather) {
    llvm::Type* raw = b_.getIntNTy(bits);
    llvm::Value* a = b_.CreateAdd(addr, i64(offset));
    if (!gather) return access_lanes(t_, a, lanes, raw, bits / 8, nullptr);
    return b_.CreateMaskedGather(t_.lane_type(raw), b_.CreateIntToPtr(a, t_.lane_type(b_.getPtrTy())), llvm::Align(bits / 8),
                                 lanes, llvm::Constant::getNullValue(t_.lane_type(raw)));
  }

  // Four 32-bit values (float or int as the format's class) of the texels at `addr` for `lanes`;
  // zero for other lanes, missing components (0, 0, 1).
  std::array<llvm::Value*, 4> read(const TexelFormat& f, llvm::Value* addr, llvm::Value* lanes, bool gather) {
    std::array<llvm::Value*, 4> out{};
    const uint32_t unit = abi::unit_bits(f.layout, f.bits);
    std::map<uint32_t, llvm::Value*> units;  // by byte offset: a packed word is loaded once
    for (uint32_t c = 0; c < 4; ++c) {
      if (c >= f.components) {
        const bool one = c == 3;
        out[c] = f.integer() ? t_.splat(b_.getInt32(one ? 1 : 0)) : t_.splat(llvm::ConstantFP::get(b_.getFloatTy(), one ? 1.0 : 0.0));
        continue;
      }
      const abi::ChannelField field = abi::channel_field(f.layout, f.bits, c);
      llvm::Value*& loaded = units[field.byte];
      if (!loaded) loaded = load_unit(addr, field.byte, unit, lanes, gather);
      out[c] = component_to_value(t_, f.numeric, field.bits, extract_field(t_, loaded, field));
    }
    return out;
  }

  // read() of every format in `formats`, each lane as its view's `format` says (zero and the first
  // format's expansion for lanes none matches). With several formats the code lives in one
  // function per module and format set, called from every access: inline, a shader's every texel
  // fetch grew by every format's conversion (a CTS geometry shader with 32 texel buffer fetches
  // took 100 s of code generation).
  std::array<llvm::Value*, 4> read_view_format(const std::vector<FormatCode>& formats, llvm::Value* addr,
                                               llvm::Value* format, llvm::Value* inside) {
    auto read_all = [&](llvm::Value* a, llvm::Value* f, llvm::Value* in) {
      std::array<llvm::Value*, 4> texel{};
      for (const FormatCode& code : formats) {
        llvm::Value* match = view_format_match(f, code);
        std::array<llvm::Value*, 4> v = read(*code.format, a, b_.CreateAnd(in, match), formats.size() > 1);
        for (uint32_t c = 0; c < 4; ++c) texel[c] = texel[c] ? b_.CreateSelect(match, v[c], texel[c]) : v[c];
      }
      return texel;
    };
    if (formats.size() <= 1) return read_all(addr, format, inside);
    llvm::Module& module = *t_.llvm_module;
    const bool integer = formats.front().format->integer();
    std::string name = integer ? "kiln_read_view_format_int" : "kiln_read_view_format_float";
    for (const FormatCode& code : formats) name += "_" + std::to_string(code.format->vk);
    llvm::Type* value = t_.lane_type(integer ? b_.getInt32Ty() : b_.getFloatTy());
    llvm::StructType* result = llvm::StructType::get(b_.getContext(), {value, value, value, value});
    llvm::Function* fn = module.getFunction(name);
    if (!fn) {
      auto* type = llvm::FunctionType::get(result, {addr->getType(), format->getType(), inside->getType()}, false);
      fn = llvm::Function::Create(type, llvm::Function::InternalLinkage, name, module);
      fn->addFnAttr(llvm::Attribute::NoInline);
      const llvm::IRBuilderBase::InsertPointGuard keep(b_);
      b_.SetInsertPoint(llvm::BasicBlock::Create(b_.getContext(), "entry", fn));
      const std::array<llvm::Value*, 4> texel = read_all(fn->getArg(0), fn->getArg(1), fn->getArg(2));
      llvm::Value* out = llvm::UndefValue::get(result);
      for (uint32_t c = 0; c < 4; ++c) out = b_.CreateInsertValue(out, b_.CreateBitCast(texel[c], value), {c});
      b_.CreateRet(out);
    }
    llvm::Value* called = b_.CreateCall(fn, {addr, format, inside});
    std::array<llvm::Value*, 4> texel{};
    for (uint32_t c = 0; c < 4; ++c) texel[c] = b_.CreateExtractValue(called, {c});
    return texel;
  }

  // A 32-bit shader value (float or int) as a raw component of `bits` bits (an <W x iN>), with
  // format_pack's conversions: integers truncated, normalized values clamped (NaN -> 0) and
  // rounded to nearest even from the exact product, floats rounded by the FP conversion.
  llvm::Value* to_raw(Numeric numeric, uint32_t bits, llvm::Value* v) {
    llvm::Type* raw = t_.lane_type(b_.getIntNTy(bits));
    llvm::Type* f32 = t_.lane_type(b_.getFloatTy());
    auto constant = [&](double x) { return t_.splat(llvm::ConstantFP::get(b_.getFloatTy(), x)); };
    if (numeric == Numeric::Uint || numeric == Numeric::Sint) {
      if (v->getType()->getScalarType()->isFloatingPointTy()) v = b_.CreateBitCast(v, t_.lane_type(b_.getIntNTy(v->getType()->getScalarSizeInBits())));
      return b_.CreateTrunc(b_.CreateZExtOrTrunc(v, t_.lane_type(b_.getInt32Ty())), raw);
    }
    if (!v->getType()->getScalarType()->isFloatingPointTy()) v = b_.CreateBitCast(v, f32);
    if (!v->getType()->getScalarType()->isFloatTy()) v = b_.CreateFPCast(v, f32);
    if (numeric == Numeric::Float) {
      if (bits == 16) return b_.CreateBitCast(b_.CreateFPTrunc(v, t_.lane_type(b_.getHalfTy())), raw);
      return b_.CreateBitCast(v, raw);
    }
    if (numeric == Numeric::Ufloat) return b_.CreateTrunc(to_ufloat(v, bits), raw);
    // Normalized: clamp (NaN becomes 0), scale in double (exact for a float times a value below
    // 2^16, so no rounding happens before the one to an integer), round to nearest even.
    const bool snorm = numeric == Numeric::Snorm;
    const double max = static_cast<double>((uint64_t{1} << (snorm ? bits - 1 : bits)) - 1);
    v = b_.CreateSelect(b_.CreateFCmpUNO(v, v), constant(0.0), v);  // before maxnum, which would make NaN -1
    v = float_min_max(b_, llvm::Intrinsic::maxnum, v, constant(snorm ? -1.0 : 0.0));
    v = float_min_max(b_, llvm::Intrinsic::minnum, v, constant(1.0));
    llvm::Type* f64 = t_.lane_type(b_.getDoubleTy());
    llvm::Value* scaled = b_.CreateFMul(b_.CreateFPExt(v, f64), t_.splat(llvm::ConstantFP::get(b_.getDoubleTy(), max)));
    scaled = b_.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, scaled);
    return snorm ? b_.CreateFPToSI(scaled, raw) : b_.CreateFPToUI(scaled, raw);
  }

  // format_pack's encoding of an unsigned 11- or 10-bit float (5-bit exponent with bias 15,
  // bits - 5 mantissa bits) as an <W x i32>: NaN stays NaN, negatives and -Inf become 0, round to
  // nearest even with denormals, overflow to Inf. Integer arithmetic on the float's bits: going
  // through a half would round twice.
  llvm::Value* to_ufloat(llvm::Value* v, uint32_t bits) {
    const uint32_t m = bits - 5;
    const uint32_t infinity = 31u << m;
    auto k = [&](uint32_t x) { return t_.splat(b_.getInt32(x)); };
    auto umin = [&](llvm::Value* a, llvm::Value* c) { return b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, a, c); };
    llvm::Value* word = b_.CreateBitCast(v, t_.lane_type(b_.getInt32Ty()));
    llvm::Value* magnitude = b_.CreateAnd(word, k(0x7fffffffu));
    llvm::Value* exponent_field = b_.CreateLShr(magnitude, k(23));
    llvm::Value* float_denormal = b_.CreateICmpEQ(exponent_field, k(0));
    // value = significand * 2^(exponent - 23), the implicit bit included for normal floats.
    llvm::Value* exponent = b_.CreateSelect(float_denormal, k(static_cast<uint32_t>(-126)), b_.CreateSub(exponent_field, k(127)));
    llvm::Value* significand = b_.CreateOr(b_.CreateAnd(magnitude, k(0x7fffffu)), b_.CreateSelect(float_denormal, k(0), k(0x800000u)));
    // Results below the smallest normal (2^-14) are denormals: shift further right. A shift of 31
    // rounds every significand (< 2^24) to 0, like any larger one.
    llvm::Value* extra = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, b_.CreateSub(k(static_cast<uint32_t>(-14)), exponent), k(0));
    llvm::Value* shift = umin(b_.CreateAdd(k(23 - m), extra), k(31));
    llvm::Value* rounded = b_.CreateLShr(significand, shift);
    llvm::Value* dropped = b_.CreateAnd(significand, b_.CreateSub(b_.CreateShl(k(1), shift), k(1)));
    llvm::Value* half = b_.CreateShl(k(1), b_.CreateSub(shift, k(1)));
    llvm::Value* odd = b_.CreateICmpNE(b_.CreateAnd(rounded, k(1)), k(0));
    llvm::Value* up = b_.CreateOr(b_.CreateICmpUGT(dropped, half), b_.CreateAnd(b_.CreateICmpEQ(dropped, half), odd));
    rounded = b_.CreateAdd(rounded, b_.CreateZExt(up, rounded->getType()));
    // Normal results: the exponent field minus one plus the rounded significand, whose implicit
    // bit adds the one back (and whose rounding carry moves into the exponent, up to Inf).
    llvm::Value* base = b_.CreateSelect(b_.CreateICmpSGT(extra, k(0)), k(0), b_.CreateShl(b_.CreateAdd(exponent, k(14)), k(m)));
    llvm::Value* encoded = umin(b_.CreateAdd(base, rounded), k(infinity));  // +Inf lands here too
    encoded = b_.CreateSelect(b_.CreateICmpSLT(word, k(0)), k(0), encoded);
    return b_.CreateSelect(b_.CreateICmpUGT(magnitude, k(0x7f800000u)), k(infinity | (1u << (m - 1))), encoded);
  }

  // Writes the texel's components; the components of one memory unit (a packed word) are
  // combined and stored together.
  void write(const TexelFormat& f, llvm::Value* addr, llvm::Value* lanes, const Value& texel, bool scatter) {
    const uint32_t unit = abi::unit_bits(f.layout, f.bits);
    llvm::Type* unit_type = t_.lane_type(b_.getIntNTy(unit));
    std::map<uint32_t, llvm::Value*> units;
    for (uint32_t c = 0; c < f.components && c < texel.leaves.size(); ++c) {
      const abi::ChannelField field = abi::channel_field(f.layout, f.bits, c);
      llvm::Value* raw = b_.CreateZExt(to_raw(f.numeric, field.bits, texel.leaves[c]), unit_type);
      if (field.shift) raw = b_.CreateShl(raw, t_.splat(b_.getIntN(unit, field.shift)));
      llvm::Value*& combined = units[field.byte];
      combined = combined ? b_.CreateOr(combined, raw) : raw;
    }
    for (const auto& [byte, value] : units) {
      llvm::Value* a = b_.CreateAdd(addr, i64(byte));
      if (scatter) {
        b_.CreateMaskedScatter(value, b_.CreateIntToPtr(a, t_.lane_type(b_.getPtrTy())), llvm::Align(unit / 8), lanes);
      } else {
        access_lanes(t_, a, lanes, b_.getIntNTy(unit), unit / 8, value);
      }
    }
  }

  llvm::Value* null_view() { return null_image_view(t_); }

 private:
  Translator& t_;
  llvm::IRBuilder<>& b_;
};

}  // namespace

llvm::Value* component_to_value(Translator& t, Numeric numeric, uint32_t bits, llvm::Value* v) {
  auto& b = t.b();
  llvm::Type* i32 = t.lane_type(b.getInt32Ty());
  llvm::Type* f32 = t.lane_type(b.getFloatTy());
  const double max = static_cast<double>((uint64_t{1} << (numeric == Numeric::Snorm ? bits - 1 : bits)) - 1);
  switch (numeric) {
    case Numeric::Uint: return b.CreateZExtOrTrunc(v, i32);
    case Numeric::Sint: return b.CreateSExtOrTrunc(v, i32);
    case Numeric::Uscaled: return b.CreateUIToFP(v, f32);
    case Numeric::Sscaled: return b.CreateSIToFP(v, f32);
    case Numeric::Unorm: return b.CreateFDiv(b.CreateUIToFP(v, f32), t.splat(llvm::ConstantFP::get(b.getFloatTy(), max)));
    case Numeric::Snorm: {
      llvm::Value* x = b.CreateFDiv(b.CreateSIToFP(v, f32), t.splat(llvm::ConstantFP::get(b.getFloatTy(), max)));
      return float_min_max(b, llvm::Intrinsic::maxnum, x, t.splat(llvm::ConstantFP::get(b.getFloatTy(), -1.0)));
    }
    case Numeric::Float:
      if (bits == 16) return b.CreateFPExt(b.CreateBitCast(v, t.lane_type(b.getHalfTy())), f32);
      return b.CreateBitCast(v, f32);
    case Numeric::Ufloat: {
      // An unsigned 11/10-bit float is a half (same 5-bit exponent and bias) without the sign and
      // with the mantissa's low bits cut: shifted into place it converts exactly, denormals,
      // infinity and NaN included.
      llvm::Type* i16 = t.lane_type(b.getInt16Ty());
      llvm::Value* half = b.CreateShl(b.CreateZExt(v, i16), t.splat(b.getInt16(15 - bits)));
      return b.CreateFPExt(b.CreateBitCast(half, t.lane_type(b.getHalfTy())), f32);
    }
  }
  return v;
}

llvm::Value* extract_field(Translator& t, llvm::Value* unit, const abi::ChannelField& field) {
  auto& b = t.b();
  const uint32_t unit_bits = unit->getType()->getScalarSizeInBits();
  if (field.shift) unit = b.CreateLShr(unit, t.splat(b.getIntN(unit_bits, field.shift)));
  if (field.bits != unit_bits) unit = b.CreateTrunc(unit, t.lane_type(b.getIntNTy(field.bits)));
  return unit;
}

// A zero ImageViewRecord for null descriptors: every size 0, so every access is out of bounds.
llvm::Value* null_image_view(Translator& t) {
  llvm::GlobalVariable* view = t.llvm_module->getGlobalVariable("kiln_null_image_view", true);
  if (!view) {
    auto* type = llvm::ArrayType::get(t.b().getInt8Ty(), sizeof(abi::ImageViewRecord));
    view = new llvm::GlobalVariable(*t.llvm_module, type, true, llvm::GlobalValue::PrivateLinkage,
                                    llvm::ConstantAggregateZero::get(type), "kiln_null_image_view");
    view->setAlignment(llvm::Align(16));
  }
  return t.b().CreatePtrToInt(view, t.b().getInt64Ty());
}

bool Translator::image_variable(Id id, Id pointee, uint32_t set, uint32_t binding) {
  const spirv::Type& pt = m.type(pointee);
  const bool array = pt.kind == spirv::TypeKind::Array || pt.kind == spirv::TypeKind::RuntimeArray;
  const spirv::Type& element = m.type(array ? pt.element : pointee);
  // Images, sampled images and samplers are all descriptor records.
  if (element.kind != spirv::TypeKind::Image && element.kind != spirv::TypeKind::Sampler) return true;
  auto loc = options_.bindings ? options_.bindings(set, binding) : std::nullopt;
  if (!loc) {
    error_ = "descriptor set " + std::to_string(set) + " binding " + std::to_string(binding) + " is not in the pipeline layout";
    return false;
  }
  Pointer p;
  p.pointee = pointee;
  p.set = set;
  p.binding = binding;
  p.variable = id;
  if (array) {
    p.kind = PointerKind::DescriptorArray;  // access chains pick the element (translate_memory.cpp)
  } else {
    p.kind = PointerKind::Image;
    p.addr = descriptor_record(set, *loc, splat(builder_.getInt32(0)));
  }
  pointers_[id] = p;
  return true;
}

bool Translator::image_instruction(const spirv::Instruction& inst, bool* handled) {
  *handled = true;
  const auto& ops = inst.operands;
  ImageCodegen g(*this);
  auto image_type = [&](Id image) -> const spirv::Type* {
    const spirv::Type& t = m.type(type_of(image));
    return t.kind == spirv::TypeKind::Image ? &t : nullptr;
  };
  // A multisampled storage image access's Sample operand (its image operands start at
  // ops[first]; sample 0 when there is none); nothing for other images.
  auto sample_of = [&](const spirv::Type& image, size_t first) -> std::optional<Value> {
    if (!image.multisampled) return std::nullopt;
    const Id id = parse_image_operands(ops, first).sample;
    return id ? get(id) : Value{{splat(builder_.getInt32(0))}};
  };
  switch (inst.opcode) {
    case spv::Op::OpImageRead:
    case spv::Op::OpImageFetch: {
      const spirv::Type* image = image_type(ops[0]);
      if (!image) return fail(inst, "image operand is not an image (sampled images are not supported yet)");
      if (inst.opcode == spv::Op::OpImageFetch && image->dim != spv::Dim::Buffer)
        return sample_instruction(inst, handled);  // sampled images: every level and sample (translate_sample.cpp)
      // Input attachments (subpassLoad) are fetched like sampled images, at the fragment's pixel.
      if (image->dim == spv::Dim::SubpassData) return sample_instruction(inst, handled);
      const Grid grid = g.grid(*image, get(ops[0]).leaves.at(0));
      llvm::Value* inside;
      const std::optional<Value> sample = sample_of(*image, 2);
      llvm::Value* addr = g.texel_address(*image, grid, get(ops[1]), &inside, sample ? &*sample : nullptr);
      const auto formats = g.formats(*image);
      if (formats.empty()) return fail(inst, "image format not supported");
      std::array<llvm::Value*, 4> texel{};
      if (ImageCodegen::format_from_view(*image)) {
        texel = g.read_view_format(formats, addr, grid.format, inside);
      } else {
        for (const auto& code : formats) {
          llvm::Value* match = g.format_match(*image, grid, code);
          std::array<llvm::Value*, 4> v = g.read(*code.format, addr, builder_.CreateAnd(inside, match), formats.size() > 1);
          for (uint32_t c = 0; c < 4; ++c) texel[c] = texel[c] ? builder_.CreateSelect(match, v[c], texel[c]) : v[c];
        }
      }
      // Out-of-bounds lanes of a view read its format's expansion of zero: (0, 0, 0, 1) when the
      // format has no alpha, else (0, 0, 0, 0) (robustImageAccess2 / robustBufferAccess2 texel
      // buffers): the code's masked loads returned zero for them. Lanes no format matched (null
      // or mismatched views) read the first format's.
      std::vector<Id> scalars;
      scalar_types(inst.result_type, &scalars);
      Value out;
      for (size_t c = 0; c < scalars.size() && c < 4; ++c) {
        llvm::Type* want = lane_type(leaf_type(scalars[c]));
        if (!want->getScalarType()->isIntegerTy(32) && !want->getScalarType()->isFloatTy())
          return fail(inst, "image texels must be 32-bit");
        out.leaves.push_back(builder_.CreateBitCast(texel[c], want));
      }
      set(inst.result, std::move(out));
      return true;
    }
    case spv::Op::OpImageWrite: {
      const spirv::Type* image = image_type(ops[0]);
      if (!image) return fail(inst, "image operand is not an image");
      const Grid grid = g.grid(*image, get(ops[0]).leaves.at(0));
      llvm::Value* inside;
      const std::optional<Value> sample = sample_of(*image, 3);
      llvm::Value* addr = g.texel_address(*image, grid, get(ops[1]), &inside, sample ? &*sample : nullptr);
      const Value texel = get(ops[2]);
      const auto formats = g.formats(*image);
      if (formats.empty()) return fail(inst, "image format not supported");
      inside = stage_->without_helpers(inside);  // fragment helper lanes never write memory
      for (const auto& code : formats)
        g.write(*code.format, addr, g.format_lanes(*image, grid, code, inside), texel, formats.size() > 1);
      return true;
    }
    case spv::Op::OpImageQuerySize:
    case spv::Op::OpImageQuerySizeLod: {
      const spirv::Type* image = image_type(ops[0]);
      if (!image) return fail(inst, "image operand is not an image");
      const Grid grid = g.grid(*image, get(ops[0]).leaves.at(0));
      // Coordinates that shrink with the mip level (the rest are layers).
      const uint32_t spatial = image->dim == spv::Dim::Dim1D ? 1 : image->dim == spv::Dim::Dim3D ? 3
                             : image->dim == spv::Dim::Buffer ? 1 : 2;
      llvm::Value* lod = nullptr;
      if (inst.opcode == spv::Op::OpImageQuerySizeLod)
        lod = builder_.CreateZExt(builder_.CreateZExtOrTrunc(get(ops[1]).leaves.at(0), lane_type(builder_.getInt32Ty())),
                                  lane_type(builder_.getInt64Ty()));
      std::vector<Id> scalars;
      scalar_types(inst.result_type, &scalars);
      Value out;
      for (size_t c = 0; c < scalars.size() && c < 3; ++c) {
        llvm::Value* size = grid.size[c];
        if (lod && c < spatial) {
          // max(1, size >> lod); a lod of 64 or more would be poison for the shift. A null view
          // (size 0) stays 0 at every level (nullDescriptor).
          llvm::Value* shift = builder_.CreateSelect(builder_.CreateICmpULT(lod, g.i64(63)), lod, g.i64(63));
          llvm::Value* shifted = builder_.CreateLShr(size, shift);
          shifted = builder_.CreateSelect(builder_.CreateICmpEQ(shifted, g.i64(0)), g.i64(1), shifted);
          size = builder_.CreateSelect(builder_.CreateICmpEQ(size, g.i64(0)), size, shifted);
        }
        if (c == 2 && image->dim == spv::Dim::Cube)
          size = builder_.CreateUDiv(size, g.i64(6));  // cube arrays report cubes, not layer-faces
        out.leaves.push_back(builder_.CreateTrunc(size, lane_type(leaf_type(scalars[c]))));
      }
      set(inst.result, std::move(out));
      return true;
    }
    case spv::Op::OpImageQueryLevels:
    case spv::Op::OpImageQuerySamples: {
      const spirv::Type* image = image_type(ops[0]);
      if (!image) return fail(inst, "image operand is not an image");
      llvm::Value* view = g.field(g.active_record(get(ops[0]).leaves.at(0)), offsetof(abi::ImageSamplerDescriptor, image_view),
                                  builder_.getInt64Ty());
      view = builder_.CreateSelect(builder_.CreateICmpEQ(view, g.i64(0)), splat(null_image_view(*this)), view);
      const uint32_t offset = inst.opcode == spv::Op::OpImageQueryLevels ? offsetof(abi::ImageViewRecord, level_count)
                                                                        : offsetof(abi::ImageViewRecord, samples);
      llvm::Value* v = g.field(view, offset, builder_.getInt32Ty());
      set(inst.result, Value{{builder_.CreateZExtOrTrunc(v, lane_type(leaf_type(inst.result_type)))}});
      return true;
    }
    case spv::Op::OpImage: {
      // The image of a sampled image: the same descriptor record (texel buffers and combined
      // image samplers both start with what the image needs).
      set(inst.result, Value{{get(ops[0]).leaves.at(0)}});
      return true;
    }
    case spv::Op::OpImageTexelPointer: {
      // A pointer to one 32-bit texel for atomics: lanes outside the image (or whose view is not
      // a 4-byte format) get an empty range, so the atomic touches nothing for them.
      const Pointer image_ptr = get_pointer(ops[0]);
      if (image_ptr.kind != PointerKind::Image) return fail(inst, "OpImageTexelPointer needs an image variable");
      const spirv::Type& image = m.type(image_ptr.pointee);
      const Grid grid = g.grid(image, image_ptr.addr);
      llvm::Value* inside;
      std::optional<Value> sample;
      if (image.multisampled) sample = get(ops[2]);  // the instruction's Sample operand
      llvm::Value* addr = g.texel_address(image, grid, get(ops[1]), &inside, sample ? &*sample : nullptr);
      // texel_address limits `inside` to the current mask; a pointer must be valid for every lane.
      inside = builder_.CreateAnd(inside, builder_.CreateICmpEQ(g.sample_bytes(grid), g.i64(4)));
      Pointer p;
      p.kind = PointerKind::Memory;
      p.pointee = m.type(inst.result_type).element;
      p.explicit_layout = true;
      p.addr = p.lo = builder_.CreateSelect(inside, addr, g.i64(0));
      p.hi = builder_.CreateSelect(inside, builder_.CreateAdd(addr, g.i64(4)), g.i64(0));
      set_pointer(inst.result, p);
      return true;
    }
    default:
      return sample_instruction(inst, handled);
  }
}

}  // namespace kiln::compiler
