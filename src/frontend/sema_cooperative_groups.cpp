// Semantic analysis: cooperative groups as compile-time descriptions (CUDA Programming Guide,
// "Cooperative Groups"; the common subset: thread_block, thread_block_tile<N>, coalesced_group,
// grid_group).
//
// A group is not a runtime value here: which threads it holds follows from its kind and tile
// size, and from the thread asking (its rank in the block). So a group variable is resolved
// once, when declared, to a CooperativeGroup; its uses are lowered by sema_group_operations.cpp.
// The one exception is a coalesced group, whose lanes are those active where it was made
// (`coalesced_threads()`: "the set of active threads", __activemask()): they are kept in a
// hidden unsigned local. Group parameters of __device__ functions are taken out of the
// parameter list; a typed one (`thread_block`, `thread_block_tile<32>`) is described by its
// type, a `thread_group` one by what its calls pass, which must then be one kind of group.
#include "fencelab/frontend/sema.h"

#include "group_lowering.h"

#include <algorithm>
#include <fmt/format.h>

namespace fencelab {

namespace {

constexpr std::string_view kNamespace = "cooperative_groups::";

bool is_power_of_two_up_to_32(uint64_t n) { return n >= 1 && n <= 32 && (n & (n - 1)) == 0; }

} // namespace

std::string CooperativeGroup::type_name() const {
  switch (kind) {
  case Kind::Block: return "thread_block";
  case Kind::Tile: return fmt::format("thread_block_tile<{}>", tile_size);
  case Kind::Coalesced: return "coalesced_group";
  case Kind::Grid: return "grid_group";
  }
  return "thread_group";
}

std::optional<CooperativeGroup> Sema::group_of(ExprPtr& expr) {
  using Kind = CooperativeGroup::Kind;
  if (expr->kind == ExprKind::NameRef) {
    const Symbol* symbol = lookup(as<NameRef>(*expr).name);
    if (symbol && symbol->variable) {
      auto it = m_groups.find(symbol->variable);
      if (it != m_groups.end()) return it->second;
    }
  }
  if (expr->kind == ExprKind::Call && !as<Call>(*expr).object) {
    Call& call = as<Call>(*expr);
    if (call.callee.rfind(kNamespace, 0) == 0) {
      const std::string name = call.callee.substr(kNamespace.size());
      auto arguments = [&](size_t n) {
        if (call.args.size() == n) return true;
        error(call.range, fmt::format("'cooperative_groups::{}' takes {} argument{} here", name, n, n == 1 ? "" : "s"));
        return false;
      };
      // this_thread_block(), this_grid(), coalesced_threads() (Programming Guide, "Group Types").
      if (name == "this_thread_block") return arguments(0) ? std::optional(CooperativeGroup{Kind::Block}) : std::nullopt;
      if (name == "this_grid") return arguments(0) ? std::optional(CooperativeGroup{Kind::Grid}) : std::nullopt;
      if (name == "coalesced_threads")
        return arguments(0) ? std::optional(CooperativeGroup{Kind::Coalesced}) : std::nullopt;
      if (name == "tiled_partition") {
        // tiled_partition(parent, N) and tiled_partition<N>(parent) (the parser puts N last):
        // tiles of N consecutive ranks of a block or a tile; N a power of two up to 32 here
        // (the Guide's thread_block_tile sizes up to a warp).
        if (!arguments(2)) return std::nullopt;
        std::optional<CooperativeGroup> parent = group_of(call.args[0]);
        if (!parent) return std::nullopt;
        if (parent->kind != Kind::Block && parent->kind != Kind::Tile) {
          error(call.args[0]->range, "not supported: cooperative_groups::tiled_partition of a " + parent->type_name() +
                                         " (of a thread_block or a tile only)");
          return std::nullopt;
        }
        check_expr(call.args[1]);
        const std::optional<Word> size = call.args[1]->type.is_integer() ? fold(*call.args[1]) : std::nullopt;
        if (!size) {
          error(call.args[1]->range, "the tile size of cooperative_groups::tiled_partition must be a constant");
          return std::nullopt;
        }
        const uint32_t parent_size = parent->kind == Kind::Tile ? parent->tile_size : 32;
        if (!is_power_of_two_up_to_32(*size) || *size > parent_size) {
          error(call.args[1]->range, fmt::format("not supported: a tile of {} threads (tiles of 1, 2, 4, 8, 16 or 32 "
                                                 "threads{})",
                                                 int64_t(*size), parent->kind == Kind::Tile ? ", within the parent tile" : ""));
          return std::nullopt;
        }
        return CooperativeGroup{Kind::Tile, uint32_t(*size), parent->kind == Kind::Tile ? parent->tile_size : 0};
      }
      const bool known = name == "sync" || name == "reduce" || name == "plus" || name == "less" ||
                         name == "greater" || name == "bit_and" || name == "bit_or" || name == "bit_xor";
      error(call.callee_range, known ? "cooperative_groups::" + name + " does not make a group"
                                     : "not supported: cooperative_groups::" + name);
      return std::nullopt;
    }
  }
  if (expr->kind == ExprKind::NameRef)
    error(expr->range, "'" + as<NameRef>(*expr).name + "' is not a cooperative group (only groups have member "
                       "functions here; structs and classes are not supported)");
  else
    error(expr->range, "expected a cooperative group");
  return std::nullopt;
}

// group-declaration: `cg::thread_block b = cg::this_thread_block();`, `auto t =
// cg::tiled_partition<32>(b);`, `cg::thread_group g = t;`, ... The declared type must hold the
// group the initializer makes.
void Sema::lower_group_declarations(std::vector<VarDeclPtr>& variables) {
  using Kind = CooperativeGroup::Kind;
  for (VarDeclPtr& slot : variables) {
    if (!slot->group_type) continue;
    VarDeclPtr var = std::move(slot);
    const GroupTypeName& written = *var->group_type;
    // `auto` reaches here only initialized by a cooperative_groups:: call (the parser keeps any
    // other `auto` "not supported").
    const bool is_auto = written.name == "auto";
    std::optional<CooperativeGroup> group;
    if (written.name != "auto" && written.name != "thread_group" && written.name != "thread_block" &&
        written.name != "thread_block_tile" && written.name != "coalesced_group" && written.name != "grid_group") {
      error(written.range, "not supported: cooperative_groups::" + written.name);
    } else if (!var->initializer) {
      error(var->name_range, "cooperative group '" + var->name + "' needs an initializer");
    } else {
      group = group_of(var->initializer);
    }
    if (group && !is_auto && written.name != "thread_group") {
      std::optional<uint32_t> tile;
      if (written.name == "thread_block_tile" && written.tile_size) {
        check_expr(var->group_type->tile_size);
        if (const std::optional<Word> n = fold(*var->group_type->tile_size)) tile = uint32_t(*n);
      }
      const bool fits = (written.name == "thread_block" && group->kind == Kind::Block) ||
                        (written.name == "grid_group" && group->kind == Kind::Grid) ||
                        (written.name == "coalesced_group" && group->kind == Kind::Coalesced) ||
                        (written.name == "thread_block_tile" && group->kind == Kind::Tile &&
                         tile == group->tile_size);
      if (!fits) {
        error(var->initializer->range, "cannot initialize a cooperative_groups::" + written.name +
                                           (tile ? fmt::format("<{}>", *tile) : std::string()) + " with a " +
                                           group->type_name());
        group.reset();
      }
    }
    // A coalesced group made here keeps its lanes: `unsigned LANES = __activemask();`.
    if (group && group->kind == Kind::Coalesced && !group->lanes) {
      auto lanes = std::make_unique<VarDecl>();
      lanes->name = "__cg_lanes_" + var->name;
      lanes->range = var->range;
      lanes->name_range = var->name_range;
      lanes->type = Type::of(ScalarType::UInt);
      lanes->implicit = true;
      lanes->initializer = LoweringBuilder(var->initializer->range).call("__activemask");
      group->lanes = lanes.get();
      slot = std::move(lanes); // checked and declared by the caller, as any local
    }
    if (group) m_groups[var.get()] = *group;
    declare(*var);
    m_program.unit.lowered_variables.push_back(std::move(var));
  }
  std::erase_if(variables, [](const VarDeclPtr& var) { return !var; });
}

// Group parameters: `__device__ int sum(cg::thread_group g, int v)`. Taken out of every
// function (prototypes too), so that calls and the interpreter never see them.
void Sema::remove_group_parameters() {
  for (FunctionDeclPtr& function : m_program.unit.functions) {
    std::vector<GroupParameter> removed;
    for (size_t i = 0; i < function->params.size(); ++i) {
      if (!function->params[i]->group_type) continue;
      removed.push_back({i, std::move(function->params[i]), std::nullopt});
    }
    if (removed.empty()) continue;
    std::erase_if(function->params, [](const VarDeclPtr& param) { return !param; });
    if (function->space == FunctionSpace::Global) {
      error(removed.front().param->range, "a kernel cannot take a cooperative group as a parameter");
      continue;
    }
    const FunctionDecl* resolved = m_functions.count(function->name) ? m_functions.at(function->name) : nullptr;
    if (resolved == function.get()) m_group_parameters[function.get()] = std::move(removed);
  }
}

// A typed parameter's group is its type's; a thread_group one takes what the calls pass.
void Sema::declare_group_parameters(const FunctionDecl& function) {
  using Kind = CooperativeGroup::Kind;
  auto it = m_group_parameters.find(&function);
  if (it == m_group_parameters.end()) return;
  for (GroupParameter& parameter : it->second) {
    VarDecl& param = *parameter.param;
    const GroupTypeName& written = *param.group_type;
    std::optional<CooperativeGroup> group;
    if (written.name == "thread_block") group = CooperativeGroup{Kind::Block};
    else if (written.name == "grid_group") group = CooperativeGroup{Kind::Grid};
    else if (written.name == "thread_block_tile" && written.tile_size) {
      check_expr(param.group_type->tile_size);
      const std::optional<Word> n = fold(*param.group_type->tile_size);
      if (n && is_power_of_two_up_to_32(*n)) group = CooperativeGroup{Kind::Tile, uint32_t(*n)};
      else error(written.range, "not supported: this tile size (tiles of 1, 2, 4, 8, 16 or 32 threads)");
    } else if (written.name == "thread_group") {
      group = parameter.passed.value_or(CooperativeGroup{Kind::Block}); // see check_functions_taking_groups
    } else {
      error(written.range, "not supported: a cooperative_groups::" + written.name + " parameter");
    }
    if (group) m_groups[&param] = *group;
    declare(param);
  }
}

void Sema::pass_group_arguments(Call& call) {
  const FunctionDecl* function = m_functions.at(call.callee);
  auto it = m_group_parameters.find(function);
  if (it == m_group_parameters.end()) return;
  for (auto parameter = it->second.rbegin(); parameter != it->second.rend(); ++parameter) {
    if (parameter->position >= call.args.size()) {
      error(call.range, "missing the cooperative group argument '" + parameter->param->name + "' of '" +
                            call.callee + "'");
      continue;
    }
    ExprPtr argument = std::move(call.args[parameter->position]);
    call.args.erase(call.args.begin() + long(parameter->position));
    std::optional<CooperativeGroup> group = group_of(argument);
    if (!group) continue;
    if (group->kind == CooperativeGroup::Kind::Coalesced) {
      error(argument->range, "not supported: passing a coalesced_group to a function");
      continue;
    }
    const std::string& written = parameter->param->group_type->name;
    if (written != "thread_group") {
      const bool fits = (written == "thread_block" && group->kind == CooperativeGroup::Kind::Block) ||
                        (written == "grid_group" && group->kind == CooperativeGroup::Kind::Grid) ||
                        (written == "thread_block_tile" && group->kind == CooperativeGroup::Kind::Tile);
      if (!fits)
        error(argument->range, "cannot pass a " + group->type_name() + " as the cooperative_groups::" + written +
                                   " parameter '" + parameter->param->name + "' of '" + call.callee + "'");
      continue;
    }
    if (parameter->passed && !parameter->passed->same_threads(*group)) {
      error(argument->range,
            fmt::format("not supported: passing different kinds of group ({} here, {} elsewhere) to the "
                        "thread_group parameter '{}' of '{}' (each function's groups are resolved at compile time)",
                        group->type_name(), parameter->passed->type_name(), parameter->param->name, call.callee));
      continue;
    }
    parameter->passed = group;
  }
}

bool Sema::waits_for_group_arguments(const FunctionDecl& function) const {
  auto it = m_group_parameters.find(&function);
  if (it == m_group_parameters.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(),
                     [](const GroupParameter& p) { return p.param->group_type->name == "thread_group"; });
}

// Functions with thread_group parameters are checked after the functions that call them, so
// that each parameter's group is known; a function called only from such functions waits in
// turn. What no call reaches is checked last, as if given the block.
void Sema::check_functions_taking_groups() {
  std::vector<FunctionDecl*> waiting;
  for (FunctionDeclPtr& function : m_program.unit.functions)
    if (function->body && waits_for_group_arguments(*function)) waiting.push_back(function.get());
  while (!waiting.empty()) {
    auto ready = std::find_if(waiting.begin(), waiting.end(), [this](const FunctionDecl* function) {
      const std::vector<GroupParameter>& params = m_group_parameters.at(function);
      return std::all_of(params.begin(), params.end(), [](const GroupParameter& p) {
        return p.param->group_type->name != "thread_group" || p.passed.has_value();
      });
    });
    if (ready == waiting.end()) {
      // None is called with all its groups known (not called yet, or only from another waiting
      // function): the last is checked as given the block (a C++ caller follows its callee's
      // declaration, so the last is the likeliest caller), and a call met later that passes
      // another kind is reported (pass_group_arguments), never silently lowered for the block.
      ready = std::prev(waiting.end());
      for (GroupParameter& p : m_group_parameters.at(*ready))
        if (!p.passed) p.passed = CooperativeGroup{CooperativeGroup::Kind::Block};
    }
    FunctionDecl* function = *ready;
    waiting.erase(ready);
    check_function(*function);
  }
  if (m_grid_sync_function) {
    check_function(*m_grid_sync_function);
    m_program.unit.functions.push_back(std::move(m_grid_sync_function));
  }
}

} // namespace fencelab
