// Building the expressions that cooperative-group operations lower to (front-end private).
//
// Each builder makes unchecked AST nodes spanning the source range of the operation they stand
// for, so that every event they cause is reported at the user's call; sema checks the result.
#pragma once

#include "fencelab/frontend/ast.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fencelab {

class LoweringBuilder {
public:
  explicit LoweringBuilder(SourceRange range) : m_range(range) {}

  ExprPtr unsigned_constant(uint64_t value) const {
    return std::make_unique<Literal>(ExprKind::IntegerLiteral, m_range, value & 0xffffffffu,
                                     Type::of(ScalarType::UInt));
  }
  ExprPtr builtin(BuiltinVariableKind variable, uint8_t component) const {
    return std::make_unique<BuiltinVariable>(m_range, variable, component);
  }
  ExprPtr binary(BinaryOp op, ExprPtr lhs, ExprPtr rhs) const {
    return std::make_unique<Binary>(m_range, op, std::move(lhs), std::move(rhs));
  }
  ExprPtr name(const std::string& name) const { return std::make_unique<NameRef>(m_range, name); }
  ExprPtr assign(ExprPtr lhs, ExprPtr rhs) const {
    return std::make_unique<Assign>(m_range, std::nullopt, std::move(lhs), std::move(rhs));
  }
  template <typename... Args> ExprPtr call(const std::string& callee, Args&&... args) const {
    std::vector<ExprPtr> list;
    (list.push_back(std::forward<Args>(args)), ...);
    return std::make_unique<Call>(m_range, callee, m_range, std::move(list));
  }

  /** The thread's rank in its block: x + y * Dx + z * Dx * Dy (Programming Guide 2.2 "Thread
   *  Hierarchy"; thread_block::thread_rank()). */
  ExprPtr block_thread_rank() const { return linear_rank(BuiltinVariableKind::ThreadIdx, BuiltinVariableKind::BlockDim); }
  /** Threads in a block: Dx * Dy * Dz. */
  ExprPtr block_size() const { return product(BuiltinVariableKind::BlockDim); }
  /** Blocks in the grid. */
  ExprPtr grid_blocks() const { return product(BuiltinVariableKind::GridDim); }
  /** The block's rank in the grid, numbered as threads in a block are. */
  ExprPtr block_rank() const { return linear_rank(BuiltinVariableKind::BlockIdx, BuiltinVariableKind::GridDim); }
  /** index.x + index.y * dims.x + index.z * dims.x * dims.y: a position numbered row-major. */
  ExprPtr linear_rank(BuiltinVariableKind index, BuiltinVariableKind dims) const {
    return binary(BinaryOp::Add,
                  binary(BinaryOp::Add, builtin(index, 0),
                         binary(BinaryOp::Multiply, builtin(index, 1), builtin(dims, 0))),
                  binary(BinaryOp::Multiply, builtin(index, 2),
                         binary(BinaryOp::Multiply, builtin(dims, 0), builtin(dims, 1))));
  }
  /** The lane in the warp: a block's threads fill its warps in rank order, 32 each
   *  (Programming Guide 4.1 "SIMT Architecture"). */
  ExprPtr lane() const { return binary(BinaryOp::Remainder, block_thread_rank(), unsigned_constant(32)); }
  /** The first lane of this thread's tile of `size` lanes: lane / size * size. */
  ExprPtr tile_base(uint32_t size) const {
    return binary(BinaryOp::Multiply, binary(BinaryOp::Divide, lane(), unsigned_constant(size)), unsigned_constant(size));
  }
  /** The lanes of this thread's tile of `size` lanes: (0xffffffff >> (32 - size)) << base. */
  ExprPtr tile_mask(uint32_t size) const {
    return binary(BinaryOp::ShiftLeft, unsigned_constant(0xffffffffu >> (32 - size)), tile_base(size));
  }

  SourceRange range() const { return m_range; }

private:
  ExprPtr product(BuiltinVariableKind variable) const {
    return binary(BinaryOp::Multiply, binary(BinaryOp::Multiply, builtin(variable, 0), builtin(variable, 1)),
                  builtin(variable, 2));
  }

  SourceRange m_range;
};

} // namespace fencelab
