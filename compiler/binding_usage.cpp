#include "compiler/binding_usage.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "compiler/spirv_words.h"

namespace kiln::compiler {
namespace {

using spv::Op;

// Instructions whose result is derived from (points into, or is loaded from) their operand at
// word `base` — the id that leads back to a descriptor variable.
int derived_operand(Op op) {
  switch (op) {
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
    case Op::OpCopyObject:
    case Op::OpLoad:
    case Op::OpSampledImage:
    case Op::OpImage:
    case Op::OpImageTexelPointer:
    case Op::OpBitcast:
      return 3;
    default:
      return 0;
  }
}

enum Use { kRead = 1, kWrite = 2, kAtomic = 4 };

// How `op` uses the id at word `*operand` (0: not at all). Image reads take the (sampled) image
// at word 3; buffer loads the pointer at word 3 (only for buffer variables: loading an image
// handle reads no texels).
int use_of(Op op, int* operand) {
  switch (op) {
    case Op::OpStore:
    case Op::OpCopyMemory:
    case Op::OpCopyMemorySized:
    case Op::OpImageWrite:
      *operand = 1;
      return kWrite;
    case Op::OpAtomicStore:
      *operand = 1;
      return kAtomic;
    case Op::OpAtomicLoad:
    case Op::OpAtomicExchange:
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak:
    case Op::OpAtomicIIncrement:
    case Op::OpAtomicIDecrement:
    case Op::OpAtomicIAdd:
    case Op::OpAtomicISub:
    case Op::OpAtomicSMin:
    case Op::OpAtomicUMin:
    case Op::OpAtomicSMax:
    case Op::OpAtomicUMax:
    case Op::OpAtomicAnd:
    case Op::OpAtomicOr:
    case Op::OpAtomicXor:
    case Op::OpAtomicFMinEXT:
    case Op::OpAtomicFMaxEXT:
    case Op::OpAtomicFAddEXT:
      *operand = 3;
      return kAtomic;
    default:
      break;
  }
  const uint32_t code = uint32_t(op);
  const bool image_read = (code >= uint32_t(Op::OpImageSampleImplicitLod) && code <= uint32_t(Op::OpImageRead)) ||
                          (code >= uint32_t(Op::OpImageSparseSampleImplicitLod) && code <= uint32_t(Op::OpImageSparseRead));
  if (image_read) {
    *operand = 3;
    return kRead;
  }
  return 0;
}

}  // namespace

std::vector<BindingUsage> binding_usage(std::span<const uint32_t> words) {
  std::unordered_map<uint32_t, uint32_t> set_of, binding_of;
  std::unordered_map<uint32_t, bool> is_buffer;  // variable -> in Uniform/StorageBuffer (not an image or sampler)
  std::unordered_map<uint32_t, std::vector<uint32_t>> params_of;  // function id -> parameter ids
  uint32_t current_function = 0;
  for_each_instruction(words, [&](const RawInstruction& in) {
    const auto& w = in.words;
    if (in.opcode == Op::OpDecorate && w.size() >= 4) {
      if (w[2] == uint32_t(spv::Decoration::DescriptorSet)) set_of[w[1]] = w[3];
      if (w[2] == uint32_t(spv::Decoration::Binding)) binding_of[w[1]] = w[3];
    } else if (in.opcode == Op::OpVariable && w.size() >= 4) {
      const auto storage = spv::StorageClass(w[3]);
      is_buffer[w[2]] = storage == spv::StorageClass::Uniform || storage == spv::StorageClass::StorageBuffer;
    } else if (in.opcode == Op::OpFunction && w.size() >= 3) {
      current_function = w[2];
    } else if (in.opcode == Op::OpFunctionParameter && w.size() >= 3) {
      params_of[current_function].push_back(w[2]);
    }
  });

  // roots[id]: the descriptor variables `id` may come from. Grown until nothing changes: calls may
  // come before the functions they call.
  std::unordered_map<uint32_t, std::vector<uint32_t>> roots;
  for (const auto& [id, binding] : binding_of)
    if (set_of.count(id)) roots[id] = {id};
  std::map<uint32_t, int> used;  // variable -> Use bits
  auto inherit = [&](uint32_t to, uint32_t from) {
    auto it = roots.find(from);
    if (it == roots.end()) return false;
    std::vector<uint32_t> add = it->second;  // copy: `roots[to]` may rehash
    std::vector<uint32_t>& dst = roots[to];
    bool changed = false;
    for (uint32_t r : add) {
      if (std::find(dst.begin(), dst.end(), r) == dst.end()) dst.push_back(r), changed = true;
      used.try_emplace(r, 0);
    }
    return changed;
  };
  for (int round = 0, changed = 1; changed && round < 8; ++round) {
    changed = 0;
    for_each_instruction(words, [&](const RawInstruction& in) {
      const auto& w = in.words;
      if (const int base = derived_operand(in.opcode); base && int(w.size()) > base) {
        changed |= inherit(w[2], w[base]);
      } else if ((in.opcode == Op::OpPhi || in.opcode == Op::OpSelect) && w.size() >= 4) {
        // Variable pointers: the result comes from any of the incoming values.
        const size_t first = in.opcode == Op::OpSelect ? 4 : 3;
        const size_t step = in.opcode == Op::OpSelect ? 1 : 2;
        for (size_t i = first; i < w.size(); i += step) changed |= inherit(w[2], w[i]);
      } else if (in.opcode == Op::OpFunctionCall && w.size() >= 4) {
        const auto params = params_of.find(w[3]);
        for (size_t i = 4; i < w.size(); ++i)
          if (params != params_of.end() && i - 4 < params->second.size()) changed |= inherit(params->second[i - 4], w[i]);
      }
      auto mark = [&](int operand, int use, bool buffers_only) {
        if (int(w.size()) <= operand) return;
        if (auto it = roots.find(w[operand]); it != roots.end())
          for (uint32_t r : it->second)
            if (!buffers_only || is_buffer[r]) used[r] |= use;
      };
      int operand = 0;
      if (const int use = use_of(in.opcode, &operand)) mark(operand, use, false);
      if (in.opcode == Op::OpLoad) mark(3, kRead, true);
      if (in.opcode == Op::OpCopyMemory || in.opcode == Op::OpCopyMemorySized) mark(2, kRead, true);
    });
  }
  std::vector<BindingUsage> out;
  for (const auto& [variable, use] : used)
    out.push_back({set_of[variable], binding_of[variable], bool(use & kRead), bool(use & kWrite), bool(use & kAtomic)});
  std::sort(out.begin(), out.end(), [](const BindingUsage& a, const BindingUsage& b) {
    return a.set != b.set ? a.set < b.set : a.binding < b.binding;
  });
  // Two variables may share a binding (aliasing): one entry, written if either is.
  std::vector<BindingUsage> merged;
  for (const BindingUsage& u : out) {
    if (!merged.empty() && merged.back().set == u.set && merged.back().binding == u.binding) {
      merged.back().read |= u.read;
      merged.back().written |= u.written;
      merged.back().atomic |= u.atomic;
    } else {
      merged.push_back(u);
    }
  }
  return merged;
}

}  // namespace kiln::compiler
