// Semantic analysis: file-scope declarations, functions, variables and scopes.
#include "fencelab/frontend/sema.h"

#include <algorithm>
#include <cfloat>
#include <climits>
#include <map>

namespace fencelab {

namespace {

constexpr uint32_t kMaxArrayLength = 1u << 24;

// What a real GPU gives one thread and one block (CUDA C++ Programming Guide, "Technical
// Specifications per Compute Capability", 9.0): 512 KB of local memory per thread, 48 KB of
// static shared memory per block. ptxas refuses kernels that need more ("uses too much local
// data"), so a larger array is bad input here too, not an allocation to attempt per thread.
constexpr uint64_t kMaxLocalBytesPerThread = 512 * 1024;
constexpr uint64_t kMaxStaticSharedBytesPerBlock = 48 * 1024;

std::string storage_spelling(StorageKind storage) {
  switch (storage) {
  case StorageKind::Shared: return "__shared__";
  case StorageKind::Constant: return "__constant__";
  default: return "__device__";
  }
}

} // namespace

const std::pair<Type, Word>* builtin_constant(const std::string& name) {
  static const std::map<std::string, std::pair<Type, Word>> table = [] {
    const Type f = Type::of(ScalarType::Float), d = Type::of(ScalarType::Double);
    const Type i = Type::of(ScalarType::Int), u = Type::of(ScalarType::UInt);
    const Type ll = Type::of(ScalarType::LongLong), ull = Type::of(ScalarType::ULongLong);
    std::map<std::string, std::pair<Type, Word>> m;
    m["FLT_MAX"] = {f, word_from_double(FLT_MAX, f)};
    m["FLT_MIN"] = {f, word_from_double(FLT_MIN, f)};
    m["DBL_MAX"] = {d, word_from_double(DBL_MAX, d)};
    m["DBL_MIN"] = {d, word_from_double(DBL_MIN, d)};
    m["INT_MAX"] = {i, word_from_int(INT_MAX, i)};
    m["INT_MIN"] = {i, word_from_int(INT_MIN, i)};
    m["UINT_MAX"] = {u, word_from_int(UINT_MAX, u)};
    m["LLONG_MAX"] = {ll, word_from_int(LLONG_MAX, ll)};
    m["LLONG_MIN"] = {ll, word_from_int(LLONG_MIN, ll)};
    m["ULLONG_MAX"] = {ull, ~Word{0}};
    m["NULL"] = {Type::of(ScalarType::Long), 0};
    m["nullptr"] = {Type::pointer_to(Type::of(ScalarType::Void)), 0};
    return m;
  }();
  auto it = table.find(name);
  return it == table.end() ? nullptr : &it->second;
}

Sema::Sema(Program& program, DiagnosticSink& diagnostics)
    : m_program(program), m_diagnostics(diagnostics) {
  m_scopes.emplace_back(); // file scope
}

void Sema::check_unit() {
  declare_functions();
  remove_group_parameters();
  for (VarDeclPtr& var : m_program.unit.globals) check_global(*var);
  for (FunctionDeclPtr& function : m_program.unit.functions) {
    if (function->body && !waits_for_group_arguments(*function)) check_function(*function);
  }
  check_functions_taking_groups();
}

// Functions are visible everywhere in the file (no prototypes needed); a prototype and its
// definition are linked; overloading is not supported.
void Sema::declare_functions() {
  std::vector<const FunctionDecl*> shadowed;
  for (FunctionDeclPtr& function : m_program.unit.functions) {
    if (const BuiltinInfo* builtin = find_builtin(function->name)) {
      // A header's own `min`/`max` template (as NVIDIA's samples write): for numbers CUDA's
      // non-template overload is the better match ([over.match.best]) and computes the same,
      // so calls use the builtin and the definition is set aside. Other builtins may not be
      // redefined.
      if (builtin->category == BuiltinCategory::Math) {
        m_diagnostics.note(function->name_range, "'" + function->name +
                                                     "' is a CUDA math function here: calls use it, not this definition");
        shadowed.push_back(function.get());
      } else {
        error(function->name_range, "'" + function->name + "' is a builtin function and cannot be redefined");
      }
      continue;
    }
    auto [it, inserted] = m_functions.emplace(function->name, function.get());
    if (inserted) continue;
    FunctionDecl* previous = it->second;
    // Parameter types as C++ compares them: top-level qualifiers do not count ([dcl.fct]/5).
    const bool same_signature =
        std::equal(previous->params.begin(), previous->params.end(), function->params.begin(),
                   function->params.end(), [](const VarDeclPtr& a, const VarDeclPtr& b) {
                     return a->type.same_unqualified(b->type);
                   });
    if (!same_signature) {
      error(function->name_range, "not supported: overloaded function '" + function->name + "'");
    } else if (previous->body && function->body) {
      error(function->name_range, "redefinition of function '" + function->name + "'");
    } else if (function->body) {
      it->second = function.get(); // the definition is what calls resolve to
    }
  }
  for (FunctionDeclPtr& function : m_program.unit.functions) {
    auto it = m_functions.find(function->name);
    if (!function->body && it != m_functions.end() && it->second->body)
      function->definition = it->second;
  }
  std::erase_if(m_program.unit.functions, [&shadowed](const FunctionDeclPtr& f) {
    return std::find(shadowed.begin(), shadowed.end(), f.get()) != shadowed.end();
  });
}

void Sema::declare(VarDecl& var) {
  if (var.name.empty()) return;
  auto& scope = m_scopes.back();
  Symbol symbol;
  symbol.variable = &var;
  symbol.type = var.type;
  if (!scope.emplace(var.name, symbol).second) error(var.name_range, "redefinition of '" + var.name + "'");
}

const Sema::Symbol* Sema::lookup(const std::string& name) const {
  for (auto scope = m_scopes.rbegin(); scope != m_scopes.rend(); ++scope) {
    auto it = scope->find(name);
    if (it != scope->end()) return &it->second;
  }
  return nullptr;
}

void Sema::check_global(VarDecl& var) {
  check_variable(var);
  declare(var);
}

void Sema::check_array_extent(VarDecl& var) {
  if (var.dynamic_shared) return check_dynamic_shared(var);
  if (var.array_extents.size() > 1) return check_dimensions(var);
  if (var.array_extents.empty()) return;
  var.is_array = true;
  ExprPtr& extent = var.array_extents[0];
  if (!extent) { // `int a[] = {...}`: the length comes from the initializer
    if (!var.initializer || var.initializer->kind != ExprKind::InitList) {
      error(var.name_range, "array '" + var.name + "' needs a size or an initializer list");
      var.array_length = 1;
    } else {
      var.array_length = uint32_t(std::max<size_t>(1, as<InitList>(*var.initializer).elements.size()));
    }
    return;
  }
  check_expr(extent);
  std::optional<Word> value = extent->type.is_integer() ? fold(*extent) : std::nullopt;
  var.array_length = 1;
  if (!value) {
    error(extent->range, "the size of array '" + var.name + "' must be an integer constant");
    return;
  }
  const int64_t length = word_to_int(*value, extent->type);
  if (length <= 0 || (!extent->type.is_signed() && int64_t(*value) < 0) || length > kMaxArrayLength)
    error(extent->range, "the size of array '" + var.name + "' must be between 1 and " +
                             std::to_string(kMaxArrayLength));
  else
    var.array_length = uint32_t(length);
  check_array_fits(var, extent->range);
}

// `extern __shared__ T a[];` (Programming Guide 7.2.3): its size is the launch's dynamic shared
// memory, `shared=BYTES` here, known once the directives are applied (size_dynamic_shared).
// Every such array of a kernel starts at the same address, so two of them alias: a later one of
// the same element type is another name of the first's memory object (reports name the first);
// one of another type would view the same bytes at another size, which is not modelled.
void Sema::check_dynamic_shared(VarDecl& var) {
  var.is_array = true;
  var.array_length = 1;
  if (var.array_extents.size() != 1 || var.array_extents[0] != nullptr || var.initializer) {
    error(var.name_range, "an extern __shared__ array is declared without a size or initializer, as '" + var.name +
                              "[]': its size comes from the launch (shared=BYTES in //@ launch)");
    return;
  }
  if (m_dynamic_shared && m_dynamic_shared != &var) {
    const Type& first = m_dynamic_shared->type;
    if (first.same_unqualified(var.type) && m_dynamic_shared->field_types.empty() && var.field_types.empty()) {
      if (std::find(m_dynamic_shared_aliases.begin(), m_dynamic_shared_aliases.end(), &var) ==
          m_dynamic_shared_aliases.end())
        m_dynamic_shared_aliases.push_back(&var);
      return;
    }
    error(var.name_range, "not supported: extern __shared__ arrays of different types ('" + m_dynamic_shared->name +
                              "' is " + first.to_string() + ", '" + var.name + "' " + var.type.to_string() +
                              "): in CUDA they share one address");
    return;
  }
  m_dynamic_shared = &var;
}

void Sema::size_dynamic_shared() {
  if (m_dynamic_shared == nullptr) return;
  VarDecl& var = *m_dynamic_shared;
  const uint32_t bytes = m_program.launch.dynamic_shared_bytes;
  const uint64_t element = var.type.size();
  if (bytes == 0)
    return error(var.name_range, "the extern __shared__ array '" + var.name +
                                     "' needs the launch's dynamic shared memory: add shared=BYTES to //@ launch");
  if (bytes < element)
    return error(var.name_range, "shared=" + std::to_string(bytes) + " is smaller than one element of '" +
                                     var.name + "'");
  var.array_length = uint32_t(bytes / element);
  m_program.memory_objects[var.object_id].element_count = var.array_length;
  for (VarDecl* alias : m_dynamic_shared_aliases) alias->array_length = var.array_length;
}

// A multi-dimensional array (C++ [dcl.array]): one array of the product of its extents, laid
// out row-major; `a[i][j]` is rewritten to the element it designates (check_index).
void Sema::check_dimensions(VarDecl& var) {
  var.is_array = true;
  var.array_length = 1;
  if (var.array_extents.front() == nullptr || var.initializer) {
    error(var.name_range, "not supported: initializers of multi-dimensional arrays (and leaving out their size)");
    var.initializer.reset(); // reported: not checked again as a one-dimensional list
    return;
  }
  uint64_t total = 1;
  std::vector<uint32_t> dimensions;
  for (ExprPtr& extent : var.array_extents) {
    check_expr(extent);
    const std::optional<Word> value = extent->type.is_integer() ? fold(*extent) : std::nullopt;
    const int64_t length = value ? word_to_int(*value, extent->type) : 0;
    if (!value || length <= 0 || length > kMaxArrayLength) {
      error(extent->range, "each size of array '" + var.name + "' must be an integer constant between 1 and " +
                               std::to_string(kMaxArrayLength));
      return;
    }
    dimensions.push_back(uint32_t(length));
    total *= uint64_t(length);
    if (total > kMaxArrayLength) {
      error(extent->range, "array '" + var.name + "' has more than " + std::to_string(kMaxArrayLength) + " elements");
      return;
    }
  }
  var.dimensions = std::move(dimensions);
  var.array_length = uint32_t(total);
  check_array_fits(var, SourceRange::join(var.array_extents.front()->range, var.array_extents.back()->range));
}

void Sema::check_array_fits(VarDecl& var, SourceRange range) {
  const uint64_t bytes = uint64_t(var.array_length) * var.type.size();
  const bool local = var.storage == StorageKind::Local;
  const uint64_t limit = local ? kMaxLocalBytesPerThread
                         : var.storage == StorageKind::Shared ? kMaxStaticSharedBytesPerBlock
                                                              : UINT64_MAX;
  if (bytes <= limit) return;
  error(range, "array '" + var.name + "' takes " + std::to_string(bytes) + " bytes, more than the " +
                   std::to_string(limit / 1024) + " KB of " +
                   (local ? "local memory a thread" : "static shared memory a block") +
                   " may have (Programming Guide, \"Technical Specifications per Compute Capability\")");
  var.array_length = 1;
}

void Sema::check_variable_initializer(VarDecl& var) {
  if (!var.initializer) return;
  if (var.storage == StorageKind::Shared) {
    error(var.initializer->range, "__shared__ variables cannot have an initializer");
    return;
  }
  if ((var.storage == StorageKind::Global || var.storage == StorageKind::Constant) &&
      var.type.scalar == ScalarType::Half && !var.type.is_pointer()) {
    // cuda_fp16.hpp's constructors from float, double and int are not constexpr, so nvcc
    // refuses them here: "dynamic initialization is not supported for a __device__ variable".
    error(var.initializer->range, "not supported: an initializer on a __device__ or __constant__ __half "
                                  "(nvcc refuses it: cuda_fp16.h's conversions are not constant expressions, and "
                                  "such a variable cannot be initialized dynamically); give its value with "
                                  "//@ init " + var.name + " = VALUE, or assign it in the kernel");
    return;
  }
  if (var.initializer->kind == ExprKind::InitList) {
    auto& list = as<InitList>(*var.initializer);
    if (!var.is_array && list.elements.size() != 1) {
      error(list.range, "an initializer list for scalar '" + var.name + "' must have one element");
    }
    if (var.is_array && list.elements.size() > var.array_length)
      error(list.elements[var.array_length]->range, "too many initializers for array '" + var.name +
                                                        "' of " + std::to_string(var.array_length) + " elements");
    Type element = var.type;
    element.is_const = element.is_volatile = false;
    for (ExprPtr& value : list.elements) {
      check_expr(value);
      convert(value, element, "in the initializer of '" + var.name + "'");
    }
    list.type = var.type;
    return;
  }
  if (var.is_array) {
    error(var.initializer->range, "array '" + var.name + "' must be initialized with a list '{...}'");
    return;
  }
  check_expr(var.initializer);
  Type target = var.type;
  target.is_const = target.is_volatile = false;
  convert(var.initializer, target, "in the initializer of '" + var.name + "'");
}

// A variable's type, extent and initializer; memory objects for __device__, __shared__ and
// __constant__ variables; a frame slot for locals.
void Sema::check_variable(VarDecl& var) {
  if (var.type.is_void()) {
    error(var.name_range, "variable '" + var.name + "' has type void");
    var.type = Type::of(ScalarType::Int);
  }
  check_array_extent(var);
  if (var.deduced_type && var.initializer && var.initializer->kind != ExprKind::InitList) {
    // `auto`: the initializer's type, without its top-level const and volatile (C++
    // [dcl.type.auto.deduct], as template argument deduction); the declaration's own stay.
    check_expr(var.initializer);
    Type deduced = var.initializer->type;
    deduced.is_const = var.type.is_const;
    deduced.is_volatile = var.type.is_volatile;
    if (var.type.is_pointer() && !deduced.is_pointer())
      error(var.initializer->range, "'auto*' variable '" + var.name + "' needs a pointer to take its type from");
    if (deduced.is_void()) {
      error(var.initializer->range, "'auto' variable '" + var.name + "' cannot take the type void");
      deduced = Type::of(ScalarType::Int);
    }
    var.type = deduced;
  } else {
    check_variable_initializer(var);
  }
  if (var.storage == StorageKind::Local) {
    if (var.type.is_const && !var.initializer && !var.is_array)
      error(var.name_range, "const variable '" + var.name + "' needs an initializer");
    var.slot = m_next_slot++;
  } else if (std::find(m_dynamic_shared_aliases.begin(), m_dynamic_shared_aliases.end(), &var) !=
             m_dynamic_shared_aliases.end()) {
    var.object_id = m_dynamic_shared->object_id; // the same dynamic shared memory (check_dynamic_shared)
  } else {
    add_memory_object(var);
  }
}

void Sema::add_memory_object(VarDecl& var) {
  MemoryObject object;
  object.name = var.name;
  object.range = var.range;
  object.space = var.storage == StorageKind::Shared     ? MemorySpace::Shared
                 : var.storage == StorageKind::Constant ? MemorySpace::Constant
                                                        : MemorySpace::Global;
  object.element_type = var.type;
  object.element_count = var.is_array ? var.array_length : 1;
  object.is_array = var.is_array;
  object.is_volatile = var.type.is_volatile;
  object.initialized = var.storage != StorageKind::Shared;
  object.declaration = &var;
  object.field_types = var.field_types;
  if (var.initializer && var.storage != StorageKind::Shared) {
    std::vector<const Expr*> values;
    if (var.initializer->kind == ExprKind::InitList) {
      for (const ExprPtr& value : as<InitList>(*var.initializer).elements) values.push_back(value.get());
    } else {
      values.push_back(var.initializer.get());
    }
    for (const Expr* value : values) {
      std::optional<Word> word = fold(*value);
      if (!word) {
        error(value->range, "the initializer of " + storage_spelling(var.storage) + " variable '" +
                                var.name + "' must be a constant expression");
        word = 0;
      }
      if (object.initial_values.size() < object.element_count) object.initial_values.push_back(*word);
    }
    object.initial_values.resize(object.element_count, 0);
  }
  var.object_id = uint32_t(m_program.memory_objects.size());
  m_program.memory_objects.push_back(std::move(object));
}

void Sema::check_function(FunctionDecl& function) {
  m_function = &function;
  m_next_slot = 0;
  m_loop_depth = 0;
  m_switches.clear();
  if (function.space == FunctionSpace::Global && !function.return_type.is_void())
    error(function.name_range, "__global__ function '" + function.name + "' must return void");

  push_scope();
  for (const TemplateParam& param : function.template_params) {
    if (param.is_type) continue; // a type name, resolved by the parser (parse_templates.cpp)
    Symbol symbol;
    symbol.type = param.type;
    auto value = m_template_values.find(param.name);
    if (value != m_template_values.end()) symbol.constant = word_from_int(value->second, param.type);
    else symbol.missing_template_value = true;
    m_scopes.back()[param.name] = symbol;
  }
  // Default arguments see the template parameters but not the parameters.
  for (VarDeclPtr& param : function.params) {
    if (!param->initializer) continue;
    check_expr(param->initializer);
    convert(param->initializer, param->type, "in the default argument of '" + param->name + "'");
  }
  bool seen_default = false;
  for (VarDeclPtr& param : function.params) {
    if (param->type.is_void()) error(param->name_range, "parameter '" + param->name + "' has type void");
    if (param->initializer) seen_default = true;
    else if (seen_default)
      error(param->range, "parameter '" + param->name + "' needs a default argument (it follows one)");
    param->slot = m_next_slot++;
    declare(*param);
  }
  declare_group_parameters(function);
  check_compound(*function.body, /*new_scope=*/false);
  declare_lowered_locals(function);
  pop_scope();
  function.frame_slots = m_next_slot;
  m_function = nullptr;
}

std::optional<Word> Sema::check_constant(ExprPtr& expr, const std::string& what) {
  const size_t errors = m_diagnostics.error_count();
  m_in_constant = true;
  check_expr(expr);
  m_in_constant = false;
  if (m_diagnostics.error_count() != errors) return std::nullopt;
  std::optional<Word> value = fold(*expr);
  if (!value) error(expr->range, what + " must be a constant");
  return value;
}

void Sema::check_predicate(ExprPtr& expr) {
  m_in_predicate = true;
  check_condition(expr);
  m_in_predicate = false;
}

const HostDeclaration* Sema::host_declaration(const std::string& name) const {
  for (const HostDeclaration& d : m_program.unit.host_code)
    if (d.name == name) return &d;
  return nullptr;
}

} // namespace fencelab
