// Semantic analysis: expressions (C++ [expr]); every expression gets its type here.
#include "fencelab/frontend/sema.h"

namespace fencelab {

namespace {

constexpr int kMaxExpressionDepth = 1000;

Type unqualified(Type type) {
  type.is_const = type.is_volatile = false;
  return type;
}

bool is_scalar(const Type& type) { return type.is_arithmetic() || type.is_pointer(); }

} // namespace

void Sema::check_expr(ExprPtr& expr) {
  static thread_local int depth = 0;
  struct DepthGuard {
    DepthGuard() { ++depth; }
    ~DepthGuard() { --depth; }
  } guard;
  if (depth > kMaxExpressionDepth) {
    if (depth == kMaxExpressionDepth + 1) error(expr->range, "expression too deeply nested");
    expr->type = Type::of(ScalarType::Int);
    return;
  }
  switch (expr->kind) {
  case ExprKind::IntegerLiteral: case ExprKind::FloatLiteral: case ExprKind::BoolLiteral: return;
  case ExprKind::StringLiteral: {
    Type type = Type::of(ScalarType::Char);
    type.is_const = true;
    expr->type = Type::pointer_to(type);
    return;
  }
  case ExprKind::NameRef: return check_name(expr);
  case ExprKind::BuiltinVariable:
    expr->type = Type::of(as<BuiltinVariable>(*expr).variable == BuiltinVariableKind::WarpSize
                              ? ScalarType::Int
                              : ScalarType::UInt);
    return;
  case ExprKind::Unary: return check_unary(expr);
  case ExprKind::Binary: return check_binary(expr);
  case ExprKind::Assign: return check_assign(as<Assign>(*expr));
  case ExprKind::Conditional: return check_conditional(as<Conditional>(*expr));
  case ExprKind::Call: return check_call(expr);
  case ExprKind::Index: return check_index(expr);
  case ExprKind::Cast: return check_cast(as<Cast>(*expr));
  case ExprKind::InitList:
    error(expr->range, "an initializer list is only allowed in a declaration");
    expr->type = Type::of(ScalarType::Int);
    return;
  }
}

void Sema::check_name(ExprPtr& expr) {
  auto& name = as<NameRef>(*expr);
  name.type = Type::of(ScalarType::Int);
  if (m_in_predicate) {
    if (const ObservedItem* item = m_program.find_observed(name.name)) {
      name.observed_item = int32_t(item - m_program.observed.data());
      name.type = item->type;
      return;
    }
  }
  const Symbol* symbol = m_in_predicate ? nullptr : lookup(name.name);
  if (symbol && symbol->missing_template_value) {
    error(name.range, "template parameter '" + name.name + "' has no value (give it with //@ template " +
                          name.name + "=VALUE)");
    name.type = symbol->type;
    name.constant = 0;
  } else if (symbol && symbol->constant) {
    name.constant = symbol->constant;
    name.type = symbol->type;
  } else if (symbol && is_group_variable(symbol->variable)) {
    error(name.range, "'" + name.name + "' is a cooperative group, not a value: call its member functions");
  } else if (symbol) {
    const VarDecl& var = *symbol->variable;
    name.variable = &var;
    if (var.is_array) {
      name.type = Type::pointer_to(var.type); // array-to-pointer conversion
    } else {
      name.type = var.type;
      name.is_lvalue = true;
    }
  } else if (const auto* constant = builtin_constant(name.name)) {
    name.constant = constant->second;
    name.type = constant->first;
  } else if (m_in_predicate) {
    error(name.range, "'" + name.name + "' is not an observed item (observed: " + m_program.observed_labels() + ")");
    name.constant = 0;
  } else if (m_functions.count(name.name) || find_builtin(name.name)) {
    error(name.range, "function '" + name.name + "' used as a value (only calls are supported)");
    name.constant = 0;
  } else if (const HostDeclaration* host = host_declaration(name.name)) {
    error(name.range, "'" + name.name + "' is a host " + (host->function ? "function" : "variable") +
                          ", which device code cannot use" +
                          (host->function ? "" : " (declare it __device__, __shared__ or __constant__)"));
    name.constant = 0;
    name.is_lvalue = true;
  } else {
    error(name.range, "unknown identifier '" + name.name + "'");
    name.constant = 0;
    name.is_lvalue = true; // no second error when it is assigned to
  }
}

bool Sema::require_lvalue(const Expr& expr, const char* what) {
  if (!expr.is_lvalue) {
    error(expr.range, std::string("the operand of ") + what + " must be a variable or a memory location");
    return false;
  }
  if (expr.type.is_const) {
    std::string subject = expr.kind == ExprKind::NameRef ? "'" + as<NameRef>(expr).name + "'" : "a const location";
    error(expr.range, std::string("cannot modify ") + subject + " (it is const)");
    return false;
  }
  return true;
}

void Sema::check_unary(ExprPtr& expr) {
  auto& unary = as<Unary>(*expr);
  check_expr(unary.operand);
  const Type operand = unary.operand->type;
  unary.type = Type::of(ScalarType::Int);
  const std::string spelling = unary_op_spelling(unary.op);
  switch (unary.op) {
  case UnaryOp::Plus: case UnaryOp::Negate:
    if (!operand.is_arithmetic()) break;
    unary.type = promote(unary.operand);
    return;
  case UnaryOp::BitNot:
    if (!operand.is_integer()) break;
    unary.type = promote(unary.operand);
    return;
  case UnaryOp::LogicalNot:
    if (!is_scalar(operand)) break;
    insert_cast(unary.operand, Type::of(ScalarType::Bool));
    unary.type = Type::of(ScalarType::Bool);
    return;
  case UnaryOp::PreIncrement: case UnaryOp::PreDecrement: case UnaryOp::PostIncrement:
  case UnaryOp::PostDecrement:
    if (m_in_predicate) {
      error(unary.range, "'" + spelling + "' is not allowed in an expectation");
      return;
    }
    if (operand.scalar == ScalarType::Bool && !operand.is_pointer()) break;
    if (!operand.is_arithmetic() && !(operand.is_pointer() && !operand.pointee().is_void())) break;
    require_lvalue(*unary.operand, ("'" + spelling + "'").c_str());
    unary.type = unqualified(operand);
    unary.is_lvalue = unary.op == UnaryOp::PreIncrement || unary.op == UnaryOp::PreDecrement;
    return;
  case UnaryOp::Deref:
    if (!operand.is_pointer() || operand.pointee().is_void()) break;
    unary.type = operand.pointee();
    unary.is_lvalue = true;
    return;
  case UnaryOp::AddressOf: {
    const Expr& target = *unary.operand;
    if (target.kind == ExprKind::NameRef && as<NameRef>(target).variable) {
      const VarDecl* var = as<NameRef>(target).variable;
      if ((var->storage == StorageKind::Local || var->storage == StorageKind::Param) && var->is_array) {
        error(unary.range, "not supported: taking the address of a local array ('" + var->name +
                               "'); its name is already a pointer to its first element");
        unary.type = Type::pointer_to(operand);
        return;
      }
      // A local or parameter whose address is taken lives in the thread's private memory
      // instead of a register slot (Interpreter::declare); its accesses stay invisible events.
      if (var->storage == StorageKind::Local || var->storage == StorageKind::Param)
        const_cast<VarDecl*>(var)->address_taken = true;
    }
    if (!target.is_lvalue) {
      error(unary.range, "cannot take the address of this expression (not a variable or memory location)");
      return;
    }
    if (operand.pointer_depth >= 2) {
      error(unary.range, "not supported: pointers to pointers to pointers");
      return;
    }
    unary.type = Type::pointer_to(operand);
    return;
  }
  }
  error(unary.range, "invalid operand of type '" + operand.to_string() + "' for unary '" + spelling + "'");
}

void Sema::check_binary(ExprPtr& expr) {
  auto& binary = as<Binary>(*expr);
  check_expr(binary.lhs);
  check_expr(binary.rhs);
  const Type lhs = binary.lhs->type, rhs = binary.rhs->type;
  binary.type = Type::of(ScalarType::Int);
  if (check_half_binary(binary)) return;
  switch (binary.op) {
  case BinaryOp::Comma:
    binary.type = unqualified(rhs);
    return;
  case BinaryOp::LogicalAnd: case BinaryOp::LogicalOr:
    if (!is_scalar(lhs) || !is_scalar(rhs)) break;
    insert_cast(binary.lhs, Type::of(ScalarType::Bool));
    insert_cast(binary.rhs, Type::of(ScalarType::Bool));
    binary.type = Type::of(ScalarType::Bool);
    return;
  case BinaryOp::Multiply: case BinaryOp::Divide:
    if (!lhs.is_arithmetic() || !rhs.is_arithmetic()) break;
    binary.type = usual_arithmetic_conversions(binary.lhs, binary.rhs);
    return;
  case BinaryOp::Remainder: case BinaryOp::BitAnd: case BinaryOp::BitXor: case BinaryOp::BitOr:
    if (!lhs.is_integer() || !rhs.is_integer()) break;
    binary.type = usual_arithmetic_conversions(binary.lhs, binary.rhs);
    return;
  case BinaryOp::ShiftLeft: case BinaryOp::ShiftRight:
    if (!lhs.is_integer() || !rhs.is_integer()) break;
    binary.type = promote(binary.lhs);
    promote(binary.rhs);
    return;
  case BinaryOp::Add: case BinaryOp::Subtract:
    // Pointer arithmetic (C++ [expr.add]): pointer ± integer, integer + pointer, pointer - pointer.
    if (lhs.is_pointer() || rhs.is_pointer()) {
      const bool lhs_pointer = lhs.is_pointer();
      const Type pointer = lhs_pointer ? lhs : rhs;
      if (pointer.pointee().is_void()) {
        error(binary.range, "arithmetic on a 'void*' pointer");
        return;
      }
      if (binary.op == BinaryOp::Subtract && lhs.is_pointer() && rhs.is_pointer()) {
        if (!lhs.pointee().same_unqualified(rhs.pointee())) break;
        binary.type = Type::of(ScalarType::Long);
        return;
      }
      if (binary.op == BinaryOp::Subtract && !lhs_pointer) break;
      if (!(lhs_pointer ? rhs : lhs).is_integer()) break;
      promote(lhs_pointer ? binary.rhs : binary.lhs);
      binary.type = unqualified(pointer);
      return;
    }
    if (!lhs.is_arithmetic() || !rhs.is_arithmetic()) break;
    binary.type = usual_arithmetic_conversions(binary.lhs, binary.rhs);
    return;
  case BinaryOp::Less: case BinaryOp::Greater: case BinaryOp::LessEqual: case BinaryOp::GreaterEqual:
  case BinaryOp::Equal: case BinaryOp::NotEqual:
    binary.type = Type::of(ScalarType::Bool);
    if (lhs.is_arithmetic() && rhs.is_arithmetic()) {
      usual_arithmetic_conversions(binary.lhs, binary.rhs);
      return;
    }
    if (lhs.is_pointer() && rhs.is_pointer()) return;
    if (lhs.is_pointer() && is_null_pointer_constant(*binary.rhs)) {
      insert_cast(binary.rhs, lhs);
      return;
    }
    if (rhs.is_pointer() && is_null_pointer_constant(*binary.lhs)) {
      insert_cast(binary.lhs, rhs);
      return;
    }
    break;
  }
  error(binary.range, "invalid operands to binary '" + std::string(binary_op_spelling(binary.op)) +
                          "' ('" + lhs.to_string() + "' and '" + rhs.to_string() + "')");
}

void Sema::check_assign(Assign& assign) {
  check_expr(assign.lhs);
  check_expr(assign.rhs);
  const Type lhs = assign.lhs->type;
  assign.type = unqualified(lhs);
  assign.is_lvalue = true;
  if (m_in_predicate) {
    error(assign.range, "assignment is not allowed in an expectation (use '==')");
    return;
  }
  if (!require_lvalue(*assign.lhs, "an assignment")) return;
  if (!assign.compound) {
    convert(assign.rhs, unqualified(lhs), "in the assignment");
    assign.computation_type = unqualified(lhs);
    return;
  }
  if (check_half_compound_assignment(assign)) return;
  const BinaryOp op = *assign.compound;
  const Type rhs = assign.rhs->type;
  const std::string spelling = std::string(binary_op_spelling(op)) + "=";
  if (lhs.is_pointer()) {
    if ((op != BinaryOp::Add && op != BinaryOp::Subtract) || !rhs.is_integer() || lhs.pointee().is_void()) {
      error(assign.range, "invalid operands to '" + spelling + "' ('" + lhs.to_string() + "' and '" +
                              rhs.to_string() + "')");
      return;
    }
    promote(assign.rhs);
    assign.computation_type = unqualified(lhs);
    return;
  }
  const bool integer_only = op == BinaryOp::Remainder || op == BinaryOp::BitAnd || op == BinaryOp::BitOr ||
                            op == BinaryOp::BitXor || op == BinaryOp::ShiftLeft || op == BinaryOp::ShiftRight;
  const bool ok = integer_only ? lhs.is_integer() && rhs.is_integer() : lhs.is_arithmetic() && rhs.is_arithmetic();
  if (!ok) {
    error(assign.range, "invalid operands to '" + spelling + "' ('" + lhs.to_string() + "' and '" +
                            rhs.to_string() + "')");
    return;
  }
  assign.computation_type = op == BinaryOp::ShiftLeft || op == BinaryOp::ShiftRight
                                ? promoted_type(lhs)
                                : common_arithmetic_type(lhs, rhs);
  insert_cast(assign.rhs, assign.computation_type);
}

void Sema::check_conditional(Conditional& conditional) {
  check_condition(conditional.condition);
  check_expr(conditional.then_value);
  check_expr(conditional.else_value);
  const Type a = conditional.then_value->type, b = conditional.else_value->type;
  conditional.type = Type::of(ScalarType::Int);
  if (check_half_conditional(conditional)) return;
  if (a.is_arithmetic() && b.is_arithmetic()) {
    conditional.type = usual_arithmetic_conversions(conditional.then_value, conditional.else_value);
  } else if (a.is_void() && b.is_void()) {
    conditional.type = a;
  } else if (a.is_pointer() && b.is_pointer() && a.same_unqualified(b)) {
    conditional.type = unqualified(a);
  } else if (a.is_pointer() && is_null_pointer_constant(*conditional.else_value)) {
    conditional.type = unqualified(a);
    insert_cast(conditional.else_value, conditional.type);
  } else if (b.is_pointer() && is_null_pointer_constant(*conditional.then_value)) {
    conditional.type = unqualified(b);
    insert_cast(conditional.then_value, conditional.type);
  } else {
    error(conditional.range, "the branches of '?:' have incompatible types '" + a.to_string() + "' and '" +
                                 b.to_string() + "'");
  }
}

bool Sema::flatten_multidimensional_index(ExprPtr& expr) {
  // The chain a[i][j]...: indexes from the outermost, down to the array's name.
  std::vector<Index*> chain;
  Expr* at = expr.get();
  while (at->kind == ExprKind::Index) {
    chain.push_back(&as<Index>(*at));
    at = as<Index>(*at).base.get();
  }
  if (at->kind != ExprKind::NameRef) return false;
  const Symbol* symbol = lookup(as<NameRef>(*at).name);
  if (symbol == nullptr || symbol->variable == nullptr || symbol->variable->dimensions.empty()) return false;
  const std::vector<uint32_t>& dimensions = symbol->variable->dimensions;
  if (chain.size() != dimensions.size()) {
    error(expr->range, "not supported: indexing '" + symbol->variable->name + "' with " + std::to_string(chain.size()) +
                           " of its " + std::to_string(dimensions.size()) +
                           " dimensions (a row of a multi-dimensional array); index every dimension");
    expr = std::make_unique<Literal>(ExprKind::IntegerLiteral, expr->range, Word(0), Type::of(ScalarType::Int));
    return true;
  }
  // Row-major: ((i0 * E1 + i1) * E2 + i2) ... (C++ [dcl.array]/9). Indexes are taken as long
  // long so that the sum cannot wrap before the bounds check.
  const auto widen = [](ExprPtr e) {
    const SourceRange range = e->range;
    return ExprPtr(std::make_unique<Cast>(range, Type::of(ScalarType::LongLong), std::move(e), false));
  };
  ExprPtr flat = widen(std::move(chain.back()->index));
  for (size_t d = 1; d < dimensions.size(); ++d) {
    ExprPtr& next = chain[chain.size() - 1 - d]->index;
    const SourceRange range = SourceRange::join(flat->range, next->range);
    ExprPtr extent =
        std::make_unique<Literal>(ExprKind::IntegerLiteral, range, Word(dimensions[d]), Type::of(ScalarType::LongLong));
    ExprPtr scaled = std::make_unique<Binary>(range, BinaryOp::Multiply, std::move(flat), std::move(extent));
    flat = std::make_unique<Binary>(range, BinaryOp::Add, std::move(scaled), widen(std::move(next)));
  }
  const SourceRange range = expr->range;
  ExprPtr name = std::move(chain.back()->base);
  expr = std::make_unique<Index>(range, std::move(name), std::move(flat));
  return true;
}

void Sema::check_index(ExprPtr& expr) {
  auto& index = as<Index>(*expr);
  index.type = Type::of(ScalarType::Int);
  if (m_in_predicate && index.base->kind == ExprKind::NameRef) {
    // `result[3]` in an expectation names the observed item labelled so.
    check_expr(index.index);
    std::optional<Word> value = index.index->type.is_integer() ? fold(*index.index) : std::nullopt;
    const std::string& base = as<NameRef>(*index.base).name;
    if (!value) {
      error(index.index->range, "the index of '" + base + "' in an expectation must be a constant");
      return;
    }
    const std::string label = base + "[" + std::to_string(word_to_int(*value, index.index->type)) + "]";
    if (const ObservedItem* item = m_program.find_observed(label)) {
      index.observed_item = int32_t(item - m_program.observed.data());
      index.type = item->type;
      index.base->type = Type::pointer_to(index.type);
      return;
    }
    error(index.range, "'" + label + "' is not an observed item");
    return;
  }
  if (flatten_multidimensional_index(expr) && expr->kind != ExprKind::Index) return; // partly indexed: reported
  auto& flat = as<Index>(*expr); // `index`, or what replaced it
  check_expr(flat.base);
  check_expr(flat.index);
  const Type base = flat.base->type;
  if (!base.is_pointer() || base.pointee().is_void()) {
    error(flat.base->range, "cannot index a value of type '" + base.to_string() + "'");
    return;
  }
  if (!flat.index->type.is_integer()) {
    error(flat.index->range, "an index must be an integer, not '" + flat.index->type.to_string() + "'");
    return;
  }
  promote(flat.index);
  flat.type = base.pointee();
  flat.is_lvalue = true;
}

// Explicit conversions: between arithmetic types, between pointer types, a null constant to a
// pointer, and anything to void. Integers and pointers do not mix (pointers are not addresses).
void Sema::check_cast(Cast& cast) {
  check_expr(cast.operand);
  if (cast.field_view && cast.operand->type.is_pointer()) {
    const ScalarType field = cast.type.scalar;
    cast.type = cast.operand->type;
    cast.type.is_const = cast.type.is_volatile = false;
    cast.type.scalar = field;
    return;
  }
  const Type from = cast.operand->type, to = cast.type;
  if (cast.implicit || to.is_void()) return;
  // Implicit conversions never drop a pointee's const (convert refuses them); only a cast does.
  if (from.is_pointer() && to.is_pointer() && !to.pointee_const &&
      (from.pointee_const || from.pointer_depth != to.pointer_depth || from.pointer_depth > 1))
    m_program.unit.casts_away_const = true;
  const bool ok = (from.is_arithmetic() && to.is_arithmetic()) || (from.is_pointer() && to.is_pointer()) ||
                  (to.is_pointer() && is_null_pointer_constant(*cast.operand)) ||
                  (from.is_pointer() && !to.is_pointer() && to.scalar == ScalarType::Bool);
  if (ok) return;
  if (from.is_pointer() && to.is_integer())
    error(cast.range, "not supported: converting a pointer to an integer");
  else if (from.is_integer() && to.is_pointer())
    error(cast.range, "not supported: converting an integer to a pointer");
  else
    error(cast.range, "cannot convert '" + from.to_string() + "' to '" + to.to_string() + "'");
}

void Sema::check_sizeof(ExprPtr& expr) {
  auto& call = as<Call>(*expr);
  uint64_t size = 0;
  Expr& operand = *call.args[0];
  const Symbol* symbol = operand.kind == ExprKind::NameRef ? lookup(as<NameRef>(operand).name) : nullptr;
  if (symbol && symbol->variable && symbol->variable->is_array) {
    size = uint64_t(symbol->variable->array_length) * symbol->variable->type.size();
  } else {
    check_expr(call.args[0]);
    size = call.args[0]->type.size();
  }
  const SourceRange range = call.range;
  expr = std::make_unique<Literal>(ExprKind::IntegerLiteral, range, size, Type::of(ScalarType::ULong));
}

void Sema::check_call(ExprPtr& expr) {
  auto& call = as<Call>(*expr);
  call.type = Type::of(ScalarType::Int);
  if (call.callee == "sizeof" && call.args.size() == 1) return check_sizeof(expr);
  // __ldg(const T* p) loads *p through the read-only data cache (Programming Guide 10.10): a
  // load like any other here, so it is checked and run as `*p`.
  if (call.callee == "__ldg" && call.args.size() == 1 && !m_in_predicate) {
    const SourceRange range = call.range;
    expr = std::make_unique<Unary>(range, UnaryOp::Deref, std::move(call.args[0]));
    return check_expr(expr);
  }
  if (call.object || call.callee.rfind("cooperative_groups::", 0) == 0) return check_cooperative_groups_call(expr);
  if (m_functions.count(call.callee)) pass_group_arguments(call);
  if (const BuiltinInfo* info = find_builtin(call.callee)) {
    if (m_in_predicate && info->category != BuiltinCategory::Math) {
      error(call.callee_range, "only math functions can be called in an expectation");
      return;
    }
    return check_builtin_call(call, *info);
  }
  for (ExprPtr& arg : call.args) check_expr(arg);
  if (m_in_predicate) {
    error(call.callee_range, "only math functions can be called in an expectation");
    return;
  }
  auto it = m_functions.find(call.callee);
  if (it != m_functions.end()) return check_function_call(call);
  if (call.callee.rfind("cuda", 0) == 0)
    error(call.callee_range, "not supported: host API '" + call.callee + "' in device code");
  else if (const HostDeclaration* host = host_declaration(call.callee); host && host->function)
    error(call.callee_range, "'" + call.callee + "' is a host function, which device code cannot call (declare it "
                             "__device__ or __host__ __device__)");
  else
    error(call.callee_range, "unknown function '" + call.callee + "'");
}

// A function template has one instantiation (parse_templates.cpp): a call may use it only when
// each type parameter has a type, and, when the call deduces (no `<...>`), only when each
// argument for a parameter declared with `T` has the very type `T` stands for; C++ would
// instantiate another copy for any other type ([temp.deduct.call]).
// Template argument deduction from a call (C++ [temp.deduct.call], the simple case): a parameter
// declared `T` or `T*`... takes T from its argument's type with the declarator's pointers removed,
// top-level qualifiers dropped. The first call that deduces T fixes it for the file.
bool Sema::deduce_template_type(const Call& call, const FunctionDecl& function, const TemplateParam& param) {
  for (size_t i = 0; i < call.args.size() && i < function.params.size(); ++i) {
    const VarDecl& declared = *function.params[i];
    if (declared.template_type != param.name) continue;
    const Type& argument = call.args[i]->type;
    // `T` bound to a pointer type is not modelled; nor is a void argument.
    if (argument.pointer_depth != declared.type.pointer_depth || argument.scalar == ScalarType::Void) return false;
    // A second call deducing another type is reported by the second compilation's check below.
    m_deduced_template_types.emplace(param.name, Type::of(argument.scalar));
    return true;
  }
  return false;
}

bool Sema::check_template_instantiation(const Call& call, const FunctionDecl& function) {
  bool deduced_now = false;
  for (const TemplateParam& param : function.template_params) {
    if (!param.is_type || !param.is_unbound) continue;
    if (deduce_template_type(call, function, param)) {
      deduced_now = true;
      continue;
    }
    error(call.callee_range, "template type parameter '" + param.name + "' of '" + function.name +
                                 "' has no type: give it with //@ template " + param.name + "=TYPE");
    return false;
  }
  if (deduced_now) return false; // the file is compiled again with the deduced type (compile.cpp)
  if (call.explicit_template_arguments) return true;
  for (size_t i = 0; i < call.args.size() && i < function.params.size(); ++i) {
    const VarDecl& param = *function.params[i];
    const Type& given = call.args[i]->type;
    if (param.template_type.empty() || (given.scalar == param.type.scalar && given.pointer_depth == param.type.pointer_depth))
      continue;
    error(call.args[i]->range, "not supported: a second instantiation of '" + function.name + "' (argument " +
                                   std::to_string(i + 1) + " is '" + unqualified(given).to_string() + "', but '" +
                                   param.template_type + "' stands for '" + unqualified(param.type).to_string() +
                                   "' here: fencelab instantiates a template once)");
    return false;
  }
  return true;
}

void Sema::check_function_call(Call& call) {
  const FunctionDecl* function = m_functions.at(call.callee);
  call.type = unqualified(function->return_type);
  if (function->space == FunctionSpace::Global) {
    error(call.callee_range, "not supported: launching a kernel from device code ('" + call.callee + "')");
    return;
  }
  size_t required = 0;
  for (const VarDeclPtr& param : function->params)
    if (!param->initializer) ++required;
  const size_t given = call.args.size(), total = function->params.size();
  if (given < required || given > total) {
    const std::string expected = required == total ? std::to_string(total)
                                                   : std::to_string(required) + " to " + std::to_string(total);
    error(call.range, "function '" + call.callee + "' takes " + expected + " argument" +
                          (total == 1 && required == total ? "" : "s") + ", but " + std::to_string(given) +
                          (given == 1 ? " was" : " were") + " given");
    return;
  }
  if (!check_template_instantiation(call, *function)) return;
  for (size_t i = 0; i < given; ++i)
    convert(call.args[i], unqualified(function->params[i]->type),
            "in argument " + std::to_string(i + 1) + " of '" + call.callee + "'");
  if (!function->body && !function->definition) {
    error(call.callee_range, "function '" + call.callee + "' is declared but never defined");
    return;
  }
  call.function = function->body ? function : function->definition;
}

} // namespace fencelab
