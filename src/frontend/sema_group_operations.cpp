// Semantic analysis: the operations of cooperative groups, lowered onto the barriers and warp
// operations the Machine already runs, so that they have the same events and diagnostics
// (barrier divergence, a lane that never arrives, an invalid mask).
//
// The rules (CUDA Programming Guide, "Cooperative Groups"; a block's threads fill its warps in
// rank order, 32 lanes each, 4.1 "SIMT Architecture"; a tile of N holds N consecutive ranks, so
// it lies within one warp, at lanes lane / N * N onwards):
//   thread_block  sync() -> __syncthreads(); thread_rank() -> x + y*Dx + z*Dx*Dy; size(),
//                 num_threads() -> Dx*Dy*Dz; group_index() -> blockIdx; thread_index() ->
//                 threadIdx; group_dim(), dim_threads() -> blockDim
//   tile of N     sync() -> __syncwarp(MASK), MASK the tile's lanes; thread_rank() -> rank % N;
//                 size(), num_threads() -> N; meta_group_rank() -> rank / N (of a tile of P:
//                 rank % P / N); meta_group_size() -> ceil(block size / N) (P / N);
//                 shfl/shfl_up/shfl_down/shfl_xor(v, k) -> __shfl*_sync(MASK, v, k, N);
//                 any/all(p) -> __any_sync/__all_sync(MASK, p); ballot(p) ->
//                 __ballot_sync(MASK, p) >> the tile's first lane (bit i is the tile's rank i)
//   coalesced     LANES = __activemask() where made; sync() -> __syncwarp(LANES);
//                 thread_rank() -> __popc(LANES & ((1 << lane) - 1)); size() -> __popc(LANES);
//                 any/all as a tile's; shfl(v, 0) -> __shfl_sync(LANES, v, __ffs(LANES) - 1)
//   grid          sync() -> a grid barrier (below); thread_rank(), size(), num_threads(),
//                 block_rank(), num_blocks(), block_index(), thread_index(), dim_blocks(),
//                 dim_threads()
//   every group   is_valid() -> true
//   cg::sync(g) is g.sync(); cg::reduce(tile, v, op) is a shfl_xor butterfly (lower_reduce).
#include "fencelab/frontend/sema.h"

#include "group_lowering.h"

#include <fmt/format.h>

namespace fencelab {

namespace {

constexpr std::string_view kNamespace = "cooperative_groups::";
using Kind = CooperativeGroup::Kind;

/** The lanes of a tile or coalesced group, as an unsigned mask. */
ExprPtr group_lanes(const CooperativeGroup& group, const LoweringBuilder& b) {
  if (group.kind == Kind::Tile) return b.tile_mask(group.tile_size);
  return group.lanes ? b.name(group.lanes->name) : b.call("__activemask");
}

/** The operation `method` of `group` with `args`, or null with `problem` set. */
ExprPtr lower_member(const CooperativeGroup& group, const std::string& method, std::vector<ExprPtr>& args,
                     const LoweringBuilder& b, std::string& problem) {
  auto take = [&](size_t n) {
    if (args.size() == n) return true;
    problem = fmt::format("'{}::{}' takes {} argument{}", group.type_name(), method, n, n == 1 ? "" : "s");
    return false;
  };
  const bool warp_group = group.kind == Kind::Tile || group.kind == Kind::Coalesced;
  if (method == "sync") {
    if (!take(0)) return nullptr;
    if (group.kind == Kind::Block) return b.call("__syncthreads");
    if (warp_group) return b.call("__syncwarp", group_lanes(group, b));
    return nullptr; // the grid: Sema::check_cooperative_groups_call
  }
  if (method == "thread_rank") {
    if (!take(0)) return nullptr;
    switch (group.kind) {
    case Kind::Block: return b.block_thread_rank();
    case Kind::Tile: return b.binary(BinaryOp::Remainder, b.block_thread_rank(), b.unsigned_constant(group.tile_size));
    case Kind::Coalesced: {
      ExprPtr below = b.binary(BinaryOp::Subtract, b.binary(BinaryOp::ShiftLeft, b.unsigned_constant(1), b.lane()),
                               b.unsigned_constant(1));
      return b.call("__popc", b.binary(BinaryOp::BitAnd, group_lanes(group, b), std::move(below)));
    }
    case Kind::Grid:
      return b.binary(BinaryOp::Add, b.binary(BinaryOp::Multiply, b.block_rank(), b.block_size()), b.block_thread_rank());
    }
  }
  if (method == "size" || method == "num_threads") {
    if (!take(0)) return nullptr;
    switch (group.kind) {
    case Kind::Block: return b.block_size();
    case Kind::Tile: return b.unsigned_constant(group.tile_size);
    case Kind::Coalesced: return b.call("__popc", group_lanes(group, b));
    case Kind::Grid: return b.binary(BinaryOp::Multiply, b.grid_blocks(), b.block_size());
    }
  }
  if (method == "is_valid") {
    if (!take(0)) return nullptr;
    return b.unsigned_constant(1); // every group made here is valid (a grid's: see grid sync)
  }
  if (group.kind == Kind::Grid && (method == "block_rank" || method == "num_blocks")) {
    // grid_group::block_rank(), num_blocks() (CUDA 12): the block's rank, the number of blocks.
    if (!take(0)) return nullptr;
    return method == "block_rank" ? b.block_rank() : b.grid_blocks();
  }
  if ((method == "meta_group_rank" || method == "meta_group_size") && warp_group) {
    if (!take(0)) return nullptr;
    if (group.kind == Kind::Coalesced) return b.unsigned_constant(method == "meta_group_rank" ? 0 : 1);
    const uint32_t n = group.tile_size;
    if (method == "meta_group_rank") {
      ExprPtr rank = b.block_thread_rank();
      if (group.parent_size) rank = b.binary(BinaryOp::Remainder, std::move(rank), b.unsigned_constant(group.parent_size));
      return b.binary(BinaryOp::Divide, std::move(rank), b.unsigned_constant(n));
    }
    if (group.parent_size) return b.unsigned_constant(group.parent_size / n);
    return b.binary(BinaryOp::Divide, b.binary(BinaryOp::Add, b.block_size(), b.unsigned_constant(n - 1)),
                    b.unsigned_constant(n));
  }
  if ((group.kind == Kind::Block || group.kind == Kind::Grid) && method.find('.') != std::string::npos &&
      method.size() == 2 + method.find('.')) {
    // thread_block: group_index().x, thread_index().y, group_dim().z, dim_threads().x;
    // grid_group: block_index(), thread_index(), dim_blocks(), dim_threads() (CUDA 12)
    const std::string base = method.substr(0, method.find('.'));
    const auto component = uint8_t(method.back() - 'x');
    if (!take(0)) return nullptr;
    const bool block = group.kind == Kind::Block;
    if (block && base == "group_index") return b.builtin(BuiltinVariableKind::BlockIdx, component);
    if (base == "thread_index") return b.builtin(BuiltinVariableKind::ThreadIdx, component);
    if (block && (base == "group_dim" || base == "dim_threads")) return b.builtin(BuiltinVariableKind::BlockDim, component);
    if (!block && base == "block_index") return b.builtin(BuiltinVariableKind::BlockIdx, component);
    if (!block && base == "dim_blocks") return b.builtin(BuiltinVariableKind::GridDim, component);
    if (!block && base == "dim_threads") return b.builtin(BuiltinVariableKind::BlockDim, component);
  }
  if (warp_group && (method == "any" || method == "all")) {
    if (!take(1)) return nullptr;
    return b.call(method == "any" ? "__any_sync" : "__all_sync", group_lanes(group, b), std::move(args[0]));
  }
  if (group.kind == Kind::Tile) {
    const uint32_t n = group.tile_size;
    if (method == "ballot") {
      if (!take(1)) return nullptr;
      return b.binary(BinaryOp::ShiftRight, b.call("__ballot_sync", group_lanes(group, b), std::move(args[0])),
                      b.tile_base(n));
    }
    const char* shuffle = method == "shfl"        ? "__shfl_sync"
                          : method == "shfl_up"   ? "__shfl_up_sync"
                          : method == "shfl_down" ? "__shfl_down_sync"
                          : method == "shfl_xor"  ? "__shfl_xor_sync"
                                                  : nullptr;
    if (shuffle) {
      if (!take(2)) return nullptr;
      return b.call(shuffle, group_lanes(group, b), std::move(args[0]), std::move(args[1]), b.unsigned_constant(n));
    }
  }
  if (group.kind == Kind::Coalesced && method == "shfl") {
    // Only from rank 0, the group's lowest lane: the lane of another rank would need the
    // n-th set bit of the lanes.
    if (!take(2)) return nullptr;
    if (!group.lanes) {
      // The lanes are needed twice; a second __activemask() could see other lanes.
      problem = "not supported: shfl on coalesced_threads() itself (declare the group first: "
                "cg::coalesced_group g = cg::coalesced_threads();)";
      return nullptr;
    }
    const bool from_leader = args[1]->kind == ExprKind::IntegerLiteral && as<Literal>(*args[1]).bits == 0;
    if (!from_leader) {
      problem = "not supported: coalesced_group::shfl from a rank other than a literal 0";
      return nullptr;
    }
    ExprPtr leader = b.binary(BinaryOp::Subtract, b.call("__ffs", group_lanes(group, b)), b.unsigned_constant(1));
    return b.call("__shfl_sync", group_lanes(group, b), std::move(args[0]), std::move(leader));
  }
  problem = "not supported: cooperative_groups::" + group.type_name() + "::" + method;
  return nullptr;
}

} // namespace

void Sema::check_cooperative_groups_call(ExprPtr& expr) {
  auto& call = as<Call>(*expr);
  call.type = Type::of(ScalarType::Int);
  if (m_in_predicate || m_in_constant || !m_function) {
    error(call.range, "cooperative groups can be used in device code only");
    return;
  }
  std::string method;
  ExprPtr* group_expr = nullptr;
  std::vector<ExprPtr> args;
  if (call.object) {
    method = call.callee;
    group_expr = &call.object;
    args = std::move(call.args);
  } else {
    const std::string name = call.callee.substr(kNamespace.size());
    if (name == "sync" && call.args.size() == 1) {
      // cg::sync(g) is g.sync() (Programming Guide, "Group Collectives": sync).
      method = "sync";
      group_expr = &call.args[0];
    } else if (name == "reduce") {
      ExprPtr lowered = lower_reduce(call);
      if (!lowered) return;
      expr = std::move(lowered);
      return check_expr(expr);
    } else if (name == "this_thread_block" || name == "this_grid" || name == "tiled_partition" ||
               name == "coalesced_threads") {
      error(call.range, "not supported: cooperative_groups::" + name +
                            " as a value (declare a group with it, or call one of its member functions)");
      return;
    } else {
      error(call.callee_range, "not supported: cooperative_groups::" + name);
      return;
    }
  }
  const std::optional<CooperativeGroup> group = group_of(*group_expr);
  if (!group) return;
  if (group->kind == Kind::Grid && method == "sync") {
    if (!args.empty()) return error(call.range, "'grid_group::sync' takes no arguments");
    expr = grid_sync_call(call.range);
    return check_expr(expr);
  }
  std::string problem;
  ExprPtr lowered = lower_member(*group, method, args, LoweringBuilder(call.range), problem);
  if (!lowered) {
    error(call.callee_range, problem.empty() ? "internal: cooperative group operation '" + method + "' not lowered" : problem);
    return;
  }
  expr = std::move(lowered);
  check_expr(expr);
}

VarDecl& Sema::lowering_temporary(const std::string& name, Type type, SourceRange range) {
  auto var = std::make_unique<VarDecl>();
  var->name = name;
  var->range = var->name_range = range;
  var->type = type;
  var->implicit = true;
  var->storage = StorageKind::Local;
  var->slot = m_next_slot++;
  VarDecl& result = *var;
  m_scopes.back()[name] = Symbol{&result, std::nullopt, type, false};
  m_lowered_locals.push_back(std::move(var));
  return result;
}

void Sema::declare_lowered_locals(FunctionDecl& function) {
  if (m_lowered_locals.empty()) return;
  const SourceRange start{function.body->range.begin, function.body->range.begin};
  auto declaration = std::make_unique<Declaration>(start, std::move(m_lowered_locals));
  m_lowered_locals.clear();
  function.body->body.insert(function.body->body.begin(), std::move(declaration));
}

// cg::reduce(group, value, op) (<cooperative_groups/reduce.h>; Programming Guide, "reduce"):
// every thread of the tile gets op over all the tile's values. Lowered to the butterfly the
// hardware's shuffles allow: for m = N/2, N/4, ..., 1, t = op(t, __shfl_xor_sync(MASK, t, m, N));
// after it each lane holds the whole tile's result. The operators: plus (+), less (the smaller:
// min), greater (max), bit_and, bit_or, bit_xor; their template argument is taken to be the
// value's type.
ExprPtr Sema::lower_reduce(Call& call) {
  if (call.args.size() != 3) {
    error(call.range, "'cooperative_groups::reduce' takes 3 arguments (the group, the value, the operator)");
    return nullptr;
  }
  const std::optional<CooperativeGroup> group = group_of(call.args[0]);
  if (!group) return nullptr;
  if (group->kind != Kind::Tile) {
    error(call.args[0]->range, "not supported: cooperative_groups::reduce over a " + group->type_name() +
                                   " (over a thread_block_tile only)");
    return nullptr;
  }
  const Expr& op = *call.args[2];
  const std::string op_name = op.kind == ExprKind::Call && as<Call>(op).callee.rfind(kNamespace, 0) == 0
                                  ? as<Call>(op).callee.substr(kNamespace.size())
                                  : std::string();
  if (op_name != "plus" && op_name != "less" && op_name != "greater" && op_name != "bit_and" &&
      op_name != "bit_or" && op_name != "bit_xor") {
    error(op.range, "not supported: this operator of cooperative_groups::reduce (cooperative_groups::plus, less, "
                    "greater, bit_and, bit_or and bit_xor are)");
    return nullptr;
  }
  check_expr(call.args[1]);
  Type value = call.args[1]->type;
  value.is_const = value.is_volatile = false;
  if (!value.is_arithmetic() || value.is_pointer()) {
    error(call.args[1]->range, "cooperative_groups::reduce needs a number, not '" + value.to_string() + "'");
    return nullptr;
  }
  if (value.is_integer() && scalar_size(value.scalar) < 4) value = promoted_type(value);
  if (op_name.rfind("bit_", 0) == 0 && !value.is_integer()) {
    error(call.args[1]->range, "cooperative_groups::" + op_name + " needs an integer, not '" + value.to_string() + "'");
    return nullptr;
  }
  const LoweringBuilder b(call.range);
  const VarDecl& total = lowering_temporary(fmt::format("__cg_reduce_{}", m_lowered_locals.size() + m_program.unit.lowered_variables.size()),
                                            value, call.range);
  ExprPtr sequence = b.assign(b.name(total.name), std::move(call.args[1]));
  for (uint32_t distance = group->tile_size / 2; distance >= 1; distance /= 2) {
    ExprPtr other = b.call("__shfl_xor_sync", group_lanes(*group, b), b.name(total.name),
                           b.unsigned_constant(distance), b.unsigned_constant(group->tile_size));
    ExprPtr combined = op_name == "plus"      ? b.binary(BinaryOp::Add, b.name(total.name), std::move(other))
                       : op_name == "less"    ? b.call("min", b.name(total.name), std::move(other))
                       : op_name == "greater" ? b.call("max", b.name(total.name), std::move(other))
                       : op_name == "bit_and" ? b.binary(BinaryOp::BitAnd, b.name(total.name), std::move(other))
                       : op_name == "bit_or"  ? b.binary(BinaryOp::BitOr, b.name(total.name), std::move(other))
                                              : b.binary(BinaryOp::BitXor, b.name(total.name), std::move(other));
    sequence = b.binary(BinaryOp::Comma, std::move(sequence), b.assign(b.name(total.name), std::move(combined)));
  }
  return b.binary(BinaryOp::Comma, std::move(sequence), b.name(total.name));
}

// this_grid().sync(): "all threads in the grid ... wait until every thread has arrived", and
// memory operations before it are visible after it to the whole grid (Programming Guide,
// "Grid Synchronization"). It requires a cooperative launch, which cudaLaunchCooperativeKernel
// refuses unless every block can be resident at once. Lowered as the runtime implements it, a
// barrier in global memory, so that the Machine's residency rule decides whether it can finish
// (a grid larger than what is resident deadlocks: machine.cpp and checkers.cpp say why), and so
// that it orders memory as its parts do: a grid barrier is a device-scope fence and a barrier.
//   __device__ void __cg_grid_sync() {
//     __syncthreads();                       // the block's threads, before its leader arrives
//     if (thread_rank == 0) {
//       __threadfence();                     // releases the block's writes
//       unsigned seen = 0, old;              // arrive: count one more than the count seen
//       while ((old = atomicCAS(&__cg_grid_arrivals, seen, seen + 1)) != seen) {
//         seen = old;
//         __threadfence();                   // acquires the arrivals counted so far
//       }
//       unsigned target = (seen / BLOCKS + 1) * BLOCKS;
//       while (__cg_grid_arrivals < target) {} // depart when every block has arrived
//       __threadfence();                     // acquires every block's arrival
//     }
//     __syncthreads();                       // the block's threads, after its leader departs
//   }
// The arrivals form one chain of atomics, each made after a fence that acquired the one before
// it, so the last arrival carries every block's writes (a plain atomicAdd would carry only its
// own block's: the race detector, like PTX, orders through reads-from, not through a chain of
// read-modify-writes). The counter only grows: round k ends when it reaches k * BLOCKS.
ExprPtr Sema::grid_sync_call(SourceRange range) {
  m_program.unit.uses_grid_sync = true;
  const LoweringBuilder b(range);
  if (!m_grid_sync_function && !m_functions.count("__cg_grid_sync")) {
    auto counter = std::make_unique<VarDecl>();
    counter->name = "__cg_grid_arrivals";
    counter->range = counter->name_range = range;
    counter->storage = StorageKind::Global;
    counter->type = Type::of(ScalarType::UInt);
    counter->type.is_volatile = true;
    counter->implicit = true;
    check_variable(*counter);
    m_scopes.front()[counter->name] = Symbol{counter.get(), std::nullopt, counter->type, false};
    m_program.unit.lowered_variables.push_back(std::move(counter));

    auto statement = [&](ExprPtr e) -> StmtPtr { return std::make_unique<ExprStmt>(range, std::move(e)); };
    auto local = [&](const char* name, ExprPtr initializer) -> StmtPtr {
      auto var = std::make_unique<VarDecl>();
      var->name = name;
      var->range = var->name_range = range;
      var->type = Type::of(ScalarType::UInt);
      var->initializer = std::move(initializer);
      std::vector<VarDeclPtr> declared;
      declared.push_back(std::move(var));
      return std::make_unique<Declaration>(range, std::move(declared));
    };
    auto counter_address = [&] { return std::make_unique<Unary>(range, UnaryOp::AddressOf, b.name("__cg_grid_arrivals")); };

    std::vector<StmtPtr> retry;
    retry.push_back(statement(b.assign(b.name("__cg_grid_seen"), b.name("__cg_grid_old"))));
    retry.push_back(statement(b.call("__threadfence")));
    ExprPtr counted = b.call("atomicCAS", counter_address(), b.name("__cg_grid_seen"),
                             b.binary(BinaryOp::Add, b.name("__cg_grid_seen"), b.unsigned_constant(1)));

    std::vector<StmtPtr> leader;
    leader.push_back(statement(b.call("__threadfence")));
    leader.push_back(local("__cg_grid_seen", b.unsigned_constant(0)));
    leader.push_back(local("__cg_grid_old", b.unsigned_constant(0)));
    leader.push_back(std::make_unique<While>(
        range, b.binary(BinaryOp::NotEqual, b.assign(b.name("__cg_grid_old"), std::move(counted)), b.name("__cg_grid_seen")),
        std::make_unique<Compound>(range, std::move(retry))));
    leader.push_back(local("__cg_grid_target",
                           b.binary(BinaryOp::Multiply,
                                    b.binary(BinaryOp::Add,
                                             b.binary(BinaryOp::Divide, b.name("__cg_grid_seen"), b.grid_blocks()),
                                             b.unsigned_constant(1)),
                                    b.grid_blocks())));
    leader.push_back(std::make_unique<While>(
        range, b.binary(BinaryOp::Less, b.name("__cg_grid_arrivals"), b.name("__cg_grid_target")),
        std::make_unique<SimpleStmt>(StmtKind::Null, range)));
    leader.push_back(statement(b.call("__threadfence")));

    std::vector<StmtPtr> body;
    body.push_back(statement(b.call("__syncthreads")));
    body.push_back(std::make_unique<If>(range,
                                        b.binary(BinaryOp::Equal, b.block_thread_rank(), b.unsigned_constant(0)),
                                        std::make_unique<Compound>(range, std::move(leader)), nullptr));
    body.push_back(statement(b.call("__syncthreads")));

    auto function = std::make_unique<FunctionDecl>();
    function->name = "__cg_grid_sync";
    function->range = function->name_range = range;
    function->space = FunctionSpace::Device;
    function->return_type = Type::of(ScalarType::Void);
    function->body = std::make_unique<Compound>(range, std::move(body));
    m_functions[function->name] = function.get();
    m_grid_sync_function = std::move(function); // checked after the others (check_functions_taking_groups)
  }
  return b.call("__cg_grid_sync");
}

} // namespace fencelab
