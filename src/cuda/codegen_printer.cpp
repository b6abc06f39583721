// The AST-to-CUDA printer. Every expression is printed fully parenthesised, every implicit
// conversion sema inserted as an explicit cast, so the generated code means what the
// simulator ran whatever C++'s precedence and conversion rules would have inferred.
#include "codegen_printer.h"

#include <cmath>
#include <cstring>
#include <fmt/format.h>

namespace fencelab::cuda {

std::string cuda_identifier(const std::string& name) {
  std::string identifier;
  // `s.x` (a struct's field) and `S::m`, `S::m/1` (member functions) are not CUDA identifiers.
  for (char c : name) identifier += c == '.' ? std::string("__") : c == ':' || c == '/' ? std::string("_") : std::string(1, c);
  return identifier;
}

std::string cuda_type(const Type& type, bool keep_top_qualifiers) {
  Type t = type;
  if (!keep_top_qualifiers) {
    t.is_const = false;
    t.is_volatile = false;
  }
  return t.to_string();
}

std::string cuda_literal(Word value, const Type& type) {
  if (type.is_pointer()) return fmt::format("(({})0x{:x}ull)", cuda_type(type, false), value);
  switch (type.scalar) {
  case ScalarType::Void: return "((void)0)";
  case ScalarType::Bool: return value != 0 ? "true" : "false";
  case ScalarType::Float: {
    const uint32_t bits = uint32_t(value);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    if (std::isfinite(f)) return fmt::format("({:a}f)", double(f));
    return fmt::format("__int_as_float((int)0x{:x}u)", bits);
  }
  case ScalarType::Double: {
    double d;
    std::memcpy(&d, &value, sizeof d);
    if (std::isfinite(d)) return fmt::format("({:a})", d);
    return fmt::format("__longlong_as_double((long long)0x{:x}ull)", value);
  }
  case ScalarType::Half:
    // The bits, through cuda_fp16.h's constexpr constructor from __half_raw: exact, and a
    // constant initializer (a __device__ variable may have no dynamic initialization).
    return fmt::format("__half(__half_raw{{(unsigned short)0x{:04x}u}})", uint16_t(value));
  case ScalarType::Int: {
    const int64_t v = int64_t(value);
    if (v == INT32_MIN) return "(-2147483647 - 1)";
    return v < 0 ? fmt::format("({})", v) : fmt::format("{}", v);
  }
  case ScalarType::UInt: return fmt::format("{}u", uint32_t(value));
  default:
    if (type.is_signed()) {
      const int64_t v = int64_t(value);
      if (v == INT64_MIN) return fmt::format("(({})(-9223372036854775807ll - 1))", cuda_type(type, false));
      return fmt::format("(({}){}ll)", cuda_type(type, false), v);
    }
    return fmt::format("(({}){}ull)", cuda_type(type, false), value);
  }
}

namespace {

std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += fmt::format("\\{:03o}", static_cast<unsigned char>(c));
      else out += c;
    }
  }
  return out + "\"";
}

std::string indent(int depth) { return std::string(size_t(depth) * 2, ' '); }

const char* dim_name(BuiltinVariableKind kind, bool litmus) {
  switch (kind) {
  case BuiltinVariableKind::ThreadIdx: return litmus ? "__c.tid" : "threadIdx";
  case BuiltinVariableKind::BlockIdx: return litmus ? "__c.bid" : "blockIdx";
  case BuiltinVariableKind::BlockDim: return litmus ? "__c.bdim" : "blockDim";
  case BuiltinVariableKind::GridDim: return litmus ? "__c.gdim" : "gridDim";
  case BuiltinVariableKind::WarpSize: return "warpSize";
  }
  return "warpSize";
}

} // namespace

CudaPrinter::CudaPrinter(const Program& program, bool litmus) : m_program(program), m_litmus(litmus) {
  for (uint32_t i = 0; i < program.observed.size(); ++i)
    if (program.observed[i].kind == ObservedItem::Kind::Local) m_observed_locals.emplace(program.observed[i].local, i);
  uint32_t next = 0;
  for (uint32_t i = 0; i < program.memory_objects.size(); ++i)
    if (program.memory_objects[i].space != MemorySpace::Shared) m_litmus_object.emplace(i, next++);
}

std::string CudaPrinter::line_directive(const SourceRange& range) const {
  const LineColumn at = m_program.source->position(range.begin);
  return fmt::format("#line {} {}\n", at.line, quoted(m_program.source->path_of(at.file)));
}

int CudaPrinter::observed_local(const Expr& e) const {
  if (e.kind != ExprKind::NameRef) return -1;
  const auto* variable = as<NameRef>(e).variable;
  const auto it = m_observed_locals.find(variable);
  return it == m_observed_locals.end() ? -1 : int(it->second);
}

std::string CudaPrinter::postop_prefix(bool increment) const {
  return fmt::format("__fl_post{}({}", increment ? "inc" : "dec", m_litmus ? "__c, " : "");
}

std::string CudaPrinter::name_ref(const NameRef& n) {
  if (n.variable == nullptr) return n.constant ? cuda_literal(*n.constant, n.type) : n.name;
  const VarDecl& v = *n.variable;
  const bool in_cell = v.storage == StorageKind::Global || v.storage == StorageKind::Constant;
  if (!m_litmus || !in_cell) return cuda_identifier(v.name);
  // Litmus: the instance's copy lives at __c.obj[i] (see codegen.h).
  const uint32_t index = m_litmus_object.at(v.object_id);
  Type element = v.type;
  element.is_const = false;
  if (v.is_array) return fmt::format("(({})__c.obj[{}])", cuda_type(Type::pointer_to(element)), index);
  return fmt::format("(*(({})__c.obj[{}]))", cuda_type(Type::pointer_to(element)), index);
}

std::string CudaPrinter::call(const Call& c) {
  std::vector<std::string> args;
  if (c.function != nullptr && m_litmus) args.push_back("__c");
  for (const ExprPtr& a : c.args) args.push_back(expr(*a));
  // Programming Guide 10.22: __syncwarp(mask) makes the named lanes wait for each other and
  // orders their memory accesses, as __syncthreads() does for a block (10.6).
  if (m_logical_barriers && c.builtin && *c.builtin == Builtin::Syncthreads) return "__syncwarp(__c.bmask)";
  const std::string callee = c.builtin ? builtin_info(*c.builtin).spelling : cuda_identifier(c.function->name);
  return fmt::format("{}({})", callee, fmt::join(args, ", "));
}

std::string CudaPrinter::expr(const Expr& e) {
  switch (e.kind) {
  case ExprKind::IntegerLiteral:
  case ExprKind::FloatLiteral:
  case ExprKind::BoolLiteral: return cuda_literal(as<Literal>(e).bits, e.type);
  case ExprKind::StringLiteral: return quoted(as<StringLiteral>(e).value);
  case ExprKind::NameRef: return name_ref(as<NameRef>(e));
  case ExprKind::BuiltinVariable: {
    const auto& b = as<BuiltinVariable>(e);
    if (b.variable == BuiltinVariableKind::WarpSize) return "warpSize";
    return fmt::format("{}.{}", dim_name(b.variable, m_litmus), "xyz"[b.component]);
  }
  case ExprKind::Unary: {
    const auto& u = as<Unary>(e);
    const int k = observed_local(*u.operand);
    const std::string operand = expr(*u.operand);
    switch (u.op) {
    case UnaryOp::PostIncrement:
      return k >= 0 ? fmt::format("{}{}u, {})", postop_prefix(true), k, operand) : fmt::format("({}++)", operand);
    case UnaryOp::PostDecrement:
      return k >= 0 ? fmt::format("{}{}u, {})", postop_prefix(false), k, operand) : fmt::format("({}--)", operand);
    case UnaryOp::PreIncrement:
    case UnaryOp::PreDecrement: {
      const std::string text = fmt::format("({}{})", unary_op_spelling(u.op), operand);
      return k >= 0 ? fmt::format("{}{}u, {})", note_prefix(), k, text) : text;
    }
    default: return fmt::format("({}{})", unary_op_spelling(u.op), operand);
    }
  }
  case ExprKind::Binary: {
    const auto& b = as<Binary>(e);
    return fmt::format("({} {} {})", expr(*b.lhs), binary_op_spelling(b.op), expr(*b.rhs));
  }
  case ExprKind::Assign: {
    const auto& a = as<Assign>(e);
    const std::string op = a.compound ? std::string(binary_op_spelling(*a.compound)) + "=" : "=";
    const std::string text = fmt::format("({} {} {})", expr(*a.lhs), op, expr(*a.rhs));
    const int k = observed_local(*a.lhs);
    return k >= 0 ? fmt::format("{}{}u, {})", note_prefix(), k, text) : text;
  }
  case ExprKind::Conditional: {
    const auto& c = as<Conditional>(e);
    return fmt::format("({} ? {} : {})", expr(*c.condition), expr(*c.then_value), expr(*c.else_value));
  }
  case ExprKind::Call: return call(as<Call>(e));
  case ExprKind::Index: {
    const auto& i = as<Index>(e);
    // Sema flattened `a[i][j]` on a multi-dimensional array to one index: the array is
    // indexed as the row-major run of elements it is.
    if (i.base->kind == ExprKind::NameRef && as<NameRef>(*i.base).variable != nullptr &&
        !as<NameRef>(*i.base).variable->dimensions.empty())
      return fmt::format("((({}*){})[{}])", cuda_type(i.type), expr(*i.base), expr(*i.index));
    return fmt::format("({}[{}])", expr(*i.base), expr(*i.index));
  }
  case ExprKind::Cast: {
    const auto& c = as<Cast>(e);
    if (e.type.is_void()) return fmt::format("((void)({}))", expr(*c.operand));
    return fmt::format("(({})({}))", cuda_type(e.type, false), expr(*c.operand));
  }
  case ExprKind::InitList: {
    std::vector<std::string> elements;
    for (const ExprPtr& x : as<InitList>(e).elements) elements.push_back(expr(*x));
    return fmt::format("{{{}}}", fmt::join(elements, ", "));
  }
  }
  return "0";
}

void CudaPrinter::declaration(std::ostringstream& out, const VarDecl& v, bool file_scope) {
  std::string prefix;
  if (v.is_static && !file_scope) prefix += "static ";
  switch (v.storage) {
  case StorageKind::Global: prefix += "__device__ "; break;
  case StorageKind::Shared: prefix += v.dynamic_shared ? "extern __shared__ " : "__shared__ "; break;
  case StorageKind::Constant: prefix += "__constant__ "; break;
  default: break;
  }
  out << prefix << cuda_type(v.type) << ' ' << cuda_identifier(v.name);
  for (const ExprPtr& extent : v.array_extents) out << '[' << (extent ? expr(*extent) : "") << ']';
  if (v.initializer && v.storage != StorageKind::Shared) out << " = " << expr(*v.initializer);
  out << ';';
}

void CudaPrinter::stmt(std::ostringstream& out, const Stmt& s, int depth) {
  if (s.kind != StmtKind::Compound) out << line_directive(s.range);
  const std::string pad = indent(depth);
  switch (s.kind) {
  case StmtKind::Compound:
    out << pad << "{\n";
    for (const StmtPtr& inner : as<Compound>(s).body) stmt(out, *inner, depth + 1);
    out << pad << "}\n";
    break;
  case StmtKind::Declaration:
    for (const VarDeclPtr& v : as<Declaration>(s).variables) {
      out << pad;
      declaration(out, *v, false);
      const auto observed = m_observed_locals.find(v.get());
      if (observed != m_observed_locals.end() && v->initializer)
        out << ' ' << note_prefix() << observed->second << "u, " << cuda_identifier(v->name) << ");";
      out << '\n';
    }
    break;
  case StmtKind::ExprStmt: out << pad << expr(*as<ExprStmt>(s).expr) << ";\n"; break;
  case StmtKind::If: {
    const auto& i = as<If>(s);
    out << pad << "if (" << expr(*i.condition) << ")\n";
    stmt(out, *i.then_branch, depth + 1);
    if (i.else_branch) {
      out << pad << "else\n";
      stmt(out, *i.else_branch, depth + 1);
    }
    break;
  }
  case StmtKind::For: {
    const auto& f = as<For>(s);
    std::string init;
    if (f.init && f.init->kind == StmtKind::ExprStmt) init = expr(*as<ExprStmt>(*f.init).expr);
    if (f.init && f.init->kind == StmtKind::Declaration) {
      const auto& vars = as<Declaration>(*f.init).variables;
      std::vector<std::string> parts;
      for (const VarDeclPtr& v : vars)
        parts.push_back(v->initializer ? fmt::format("{} = {}", cuda_identifier(v->name), expr(*v->initializer))
                                       : cuda_identifier(v->name));
      if (!vars.empty()) init = fmt::format("{} {}", cuda_type(vars[0]->type), fmt::join(parts, ", "));
    }
    out << pad << "for (" << init << "; " << (f.condition ? expr(*f.condition) : "") << "; "
        << (f.step ? expr(*f.step) : "") << ")\n";
    stmt(out, *f.body, depth + 1);
    break;
  }
  case StmtKind::While:
    out << pad << "while (" << expr(*as<While>(s).condition) << ")\n";
    stmt(out, *as<While>(s).body, depth + 1);
    break;
  case StmtKind::DoWhile:
    out << pad << "do\n";
    stmt(out, *as<DoWhile>(s).body, depth + 1);
    out << line_directive(as<DoWhile>(s).condition->range) << pad << "while (" << expr(*as<DoWhile>(s).condition)
        << ");\n";
    break;
  case StmtKind::Switch: {
    const auto& sw = as<Switch>(s);
    const Type type = sw.value->type;
    out << pad << "switch (" << expr(*sw.value) << ")\n" << pad << "{\n";
    for (const StmtPtr& inner : sw.body->body) {
      if (inner->kind == StmtKind::Case) {
        const auto& c = as<Case>(*inner);
        out << pad << (c.value ? fmt::format("case {}:", cuda_literal(c.folded_value, type)) : "default:") << '\n';
      } else {
        stmt(out, *inner, depth + 1);
      }
    }
    out << pad << "}\n";
    break;
  }
  case StmtKind::Case: break; // printed by Switch
  case StmtKind::Break: out << pad << "break;\n"; break;
  case StmtKind::Continue: out << pad << "continue;\n"; break;
  case StmtKind::Return: {
    const auto& r = as<Return>(s);
    out << pad << "return" << (r.value ? " " + expr(*r.value) : "") << ";\n";
    break;
  }
  case StmtKind::Null: out << pad << ";\n"; break;
  }
}

void CudaPrinter::function(std::ostringstream& out, const FunctionDecl& f, bool prototype) {
  if (f.space == FunctionSpace::Host) return;
  const FunctionDecl* kernel = m_program.launch.kernel;
  const bool launched = &f == kernel || (f.definition != nullptr && f.definition == kernel);
  const char* space = "__device__";
  if (!m_litmus && !launched && f.space == FunctionSpace::Global) space = "__global__";
  if (!m_litmus && f.space == FunctionSpace::HostDevice) space = "__host__ __device__";
  std::vector<std::string> params;
  if (m_litmus) params.push_back("const __fl_ctx& __c");
  for (const VarDeclPtr& p : f.params) {
    std::string text = fmt::format("{} {}", cuda_type(p->type), cuda_identifier(p->name));
    if (p->initializer && !prototype) text += " = " + expr(*p->initializer);
    params.push_back(text);
  }
  out << line_directive(f.range) << space << ' ' << cuda_type(f.return_type) << ' ' << cuda_identifier(f.name) << '('
      << fmt::format("{}", fmt::join(params, ", ")) << ')';
  if (!f.body || prototype) {
    out << ";\n";
    return;
  }
  out << '\n';
  stmt(out, *f.body, 0);
}

void CudaPrinter::print_unit(std::ostringstream& out) {
  // File-scope variables and functions in source order (C++ needs declaration before use).
  size_t g = 0, f = 0;
  const auto& globals = m_program.unit.globals;
  const auto& functions = m_program.unit.functions;
  // A member function may call one defined after it in its class (C++ [class.mem]: the body is
  // a complete-class context); lowered onto free functions, each is declared first.
  for (const FunctionDeclPtr& member : functions)
    if (member->body && member->name.find("::") != std::string::npos) function(out, *member, true);
  while (g < globals.size() || f < functions.size()) {
    const bool take_global =
        f == functions.size() || (g < globals.size() && globals[g]->range.begin < functions[f]->range.begin);
    if (take_global) {
      const VarDecl& v = *globals[g++];
      const bool in_cell = v.storage == StorageKind::Global || v.storage == StorageKind::Constant;
      if (m_litmus && in_cell) continue; // lives in the instance's cell
      out << line_directive(v.range);
      declaration(out, v, true);
      out << '\n';
    } else {
      function(out, *functions[f++]);
    }
  }
}

} // namespace fencelab::cuda
