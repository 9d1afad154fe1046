// order_blocks_structured (compiler/spirv_module.h): a switch's targets are its successors whatever
// the width of its literals (one word, or two for a 64-bit selector: CTS
// spirv_assembly.type.scalar.{i64,u64}.switch_* read the literals' high words as labels, dropped
// the case blocks as unreachable and computed wrong results).
#include "compiler/spirv_module.h"

#include <gtest/gtest.h>

#include <vector>

namespace kiln::spirv {
namespace {

// Labels 10 (the switch) -> 11, 12 (cases), 13 (default and merge).
std::vector<Id> order_after_switch(const std::vector<uint32_t>& operands) {
  Function f;
  auto block = [](Id label, spv::Op op, std::span<const uint32_t> operands) {
    Block b;
    b.label = label;
    b.terminator.opcode = op;
    b.terminator.operands = operands;
    return b;
  };
  static const uint32_t to_merge[] = {13};
  f.blocks.push_back(block(10, spv::Op::OpSwitch, operands));
  f.blocks.back().merge_block = 13;
  f.blocks.push_back(block(13, spv::Op::OpReturn, {}));
  f.blocks.push_back(block(12, spv::Op::OpBranch, to_merge));
  f.blocks.push_back(block(11, spv::Op::OpBranch, to_merge));
  order_blocks_structured(f);
  std::vector<Id> order;
  for (const Block& b : f.blocks) order.push_back(b.label);
  return order;
}

TEST(SpirvBlockOrder, SwitchTargetsWithOneAndTwoWordLiterals) {
  // selector 5, default 13, case 1 -> 11, case 2 -> 12.
  const std::vector<uint32_t> narrow = {5, 13, 1, 11, 2, 12};
  EXPECT_EQ(order_after_switch(narrow), (std::vector<Id>{10, 11, 12, 13}));
  // 64-bit literals: (1, 0) -> 11, (0x7, 0xFFFFFFFF) -> 12.
  const std::vector<uint32_t> wide = {5, 13, 1, 0, 11, 7, 0xFFFFFFFFu, 12};
  EXPECT_EQ(order_after_switch(wide), (std::vector<Id>{10, 11, 12, 13}));
}

}  // namespace
}  // namespace kiln::spirv
