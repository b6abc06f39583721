// The harness directives that describe outcomes: observe and expect.
#include "fencelab/frontend/directives.h"

#include "fencelab/checkers/report.h"

#include <algorithm>
#include <unordered_set>

namespace fencelab {

namespace {

constexpr uint32_t kDefaultObservedElements = 16;

const VarDecl* find_local(const Stmt& stmt, std::string_view name) {
  auto in = [&](const Stmt* child) { return child ? find_local(*child, name) : nullptr; };
  switch (stmt.kind) {
  case StmtKind::Compound:
    for (const StmtPtr& child : as<Compound>(stmt).body)
      if (const VarDecl* var = find_local(*child, name)) return var;
    return nullptr;
  case StmtKind::Declaration:
    for (const VarDeclPtr& var : as<Declaration>(stmt).variables)
      if (var->name == name) return var.get();
    return nullptr;
  case StmtKind::If: {
    const auto& s = as<If>(stmt);
    if (const VarDecl* var = in(s.then_branch.get())) return var;
    return in(s.else_branch.get());
  }
  case StmtKind::For: {
    const auto& s = as<For>(stmt);
    if (const VarDecl* var = in(s.init.get())) return var;
    return in(s.body.get());
  }
  case StmtKind::While: return in(as<While>(stmt).body.get());
  case StmtKind::DoWhile: return in(as<DoWhile>(stmt).body.get());
  case StmtKind::Switch: return in(as<Switch>(stmt).body.get());
  default: return nullptr;
  }
}

} // namespace

std::optional<uint32_t> DirectiveReader::buffer_object(const std::string& name) const {
  for (const KernelArgument& argument : m_program.arguments)
    if (argument.buffer_object && argument.parameter->name == name) return argument.buffer_object;
  return std::nullopt;
}

bool DirectiveReader::add_observed(ObservedItem item) {
  if (m_program.find_observed(item.label)) {
    m_diagnostics.error(item.range, "'" + item.label + "' is observed twice");
    return false;
  }
  return m_program.add_observed(std::move(item));
}

void DirectiveReader::observe_object(uint32_t object_id, const std::string& name, uint32_t begin, uint32_t end,
                                     SourceRange range) {
  const MemoryObject& object = m_program.memory_objects[object_id];
  for (uint32_t i = begin; i < end; ++i) {
    ObservedItem item;
    item.kind = ObservedItem::Kind::Memory;
    item.label = object.is_array ? name + "[" + std::to_string(i) + "]" : name;
    item.range = range;
    const Type element = object.type_of_element(i);
    item.type = Type{element.scalar, element.pointer_depth};
    item.object_id = object_id;
    item.element_index = i;
    // One error for the item as written: `observe buf buf` would otherwise give one per element.
    if (!add_observed(std::move(item))) return;
  }
}

// Without `observe`: every __device__ variable and every buffer of at most 16 elements.
void DirectiveReader::default_observed() {
  for (uint32_t id = 0; id < m_program.memory_objects.size(); ++id) {
    const MemoryObject& object = m_program.memory_objects[id];
    const bool variable = object.declaration && object.declaration->storage == StorageKind::Global &&
                          !object.declaration->implicit; // the grid barrier's counter is the runtime's
    const bool buffer = !object.declaration;
    if ((variable || buffer) && object.element_count <= kDefaultObservedElements)
      observe_object(id, object.name, 0, object.element_count, object.range);
  }
}

// observe-directive: 'observe' item { item }
// item: NAME | NAME '[' constant ']' | NAME '[' constant ':' constant ']' | FUNCTION '.' LOCAL
//       (NAME may be PARAMETER '.' FIELD, a struct kernel parameter's pointer field)
void DirectiveReader::read_observe(Parser& parser) {
  if (parser.at_end()) return parser.error(parser.peek().range, "expected the items to observe");
  while (!parser.at_end()) {
    if (!parser.at(TokenKind::Identifier)) return parser.error(parser.peek().range, "expected a name to observe");
    const Token& name = parser.advance();
    std::string text(name.text);
    if (parser.at(TokenKind::Dot) && parser.peek(1).kind == TokenKind::Identifier &&
        buffer_object(text + "." + std::string(parser.peek(1).text))) {
      // `A.elements`: the buffer of a struct kernel parameter's pointer field.
      parser.advance();
      text += "." + std::string(parser.advance().text);
    } else if (parser.accept(TokenKind::Dot)) {
      if (!parser.at(TokenKind::Identifier)) return parser.error(parser.peek().range, "expected a local variable name");
      const Token& local = parser.advance();
      const SourceRange range = SourceRange::join(name.range, local.range);
      const FunctionDecl* function = nullptr;
      for (const FunctionDeclPtr& candidate : m_program.unit.functions)
        if (candidate->name == text && candidate->body) function = candidate.get();
      if (!function) return parser.error(name.range, "there is no function '" + text + "'");
      const VarDecl* var = find_local(*function->body, local.text);
      if (!var) return parser.error(local.range, "function '" + text + "' has no local variable '" +
                                                     std::string(local.text) + "'");
      if (var->is_array || var->storage != StorageKind::Local)
        return parser.error(range, "not supported: observing a local array or __shared__ variable ('" +
                                       var->name + "'); observe a __device__ variable instead");
      if (var->address_taken)
        return parser.error(range, "not supported: observing a local whose address is taken or that a reference "
                                   "names ('" + var->name + "'); observe a __device__ variable instead");
      ObservedItem item;
      item.kind = ObservedItem::Kind::Local;
      item.label = var->name;
      item.range = range;
      item.type = Type{var->type.scalar, var->type.pointer_depth};
      item.local = var;
      add_observed(std::move(item));
      continue;
    }
    std::optional<uint32_t> object_id = buffer_object(text);
    for (const VarDeclPtr& global : m_program.unit.globals)
      if (global->name == text && !object_id) {
        if (global->storage == StorageKind::Shared)
          return parser.error(name.range, "cannot observe __shared__ variable '" + text +
                                              "' (one instance per block; copy it to a __device__ variable)");
        object_id = global->object_id;
      }
    if (!object_id && observe_fields(text, name.range)) continue;
    if (!object_id)
      return parser.error(name.range, "'" + text + "' is neither a __device__ variable nor a buffer argument");
    const MemoryObject& object = m_program.memory_objects[*object_id];
    uint32_t begin = 0, end = object.element_count;
    if (parser.accept(TokenKind::LeftBracket)) {
      if (!object.is_array) return parser.error(parser.previous().range, "'" + text + "' is not an array");
      const SourceRange start = parser.peek().range;
      std::optional<int64_t> first = integer_constant(parser, "the index");
      if (!first) return;
      std::optional<int64_t> last = *first + 1;
      if (parser.accept(TokenKind::Colon) && !(last = integer_constant(parser, "the end of the slice"))) return;
      const SourceRange range = SourceRange::join(start, parser.previous().range);
      if (!parser.expect(TokenKind::RightBracket, "']'")) return;
      if (*first < 0 || *last > int64_t(object.element_count) || *first >= *last)
        return parser.error(range, "elements " + std::to_string(*first) + " to " + std::to_string(*last - 1) +
                                       " are not within '" + text + "' (" + std::to_string(object.element_count) +
                                       " elements)");
      begin = uint32_t(*first);
      end = uint32_t(*last);
    }
    observe_object(*object_id, text, begin, end, SourceRange::join(name.range, parser.previous().range));
  }
}

bool DirectiveReader::observe_fields(const std::string& name, SourceRange range) {
  // A __device__ struct or vector variable is one variable per field, `name.field`
  // (parse_vector_types.cpp), declared in field order: each is observed whole.
  const std::string prefix = name + ".";
  bool any = false;
  for (const VarDeclPtr& global : m_program.unit.globals)
    if (global->storage != StorageKind::Shared && global->name.compare(0, prefix.size(), prefix) == 0) {
      observe_object(global->object_id, global->name, 0, m_program.memory_objects[global->object_id].element_count,
                     range);
      any = true;
    }
  return any;
}

// pattern: LABEL '=' value { LABEL '=' value }     LABEL: NAME [ '.' FIELD ] [ '[' constant ']' ]
bool DirectiveReader::read_pattern(Parser& parser, OutcomePattern& pattern) {
  const SourceRange start = parser.peek().range;
  std::unordered_set<uint32_t> in_pattern; // item indexes, so a long pattern is not quadratic
  while (!parser.at_end() && !parser.at(TokenKind::Pipe)) {
    if (!parser.at(TokenKind::Identifier)) {
      parser.error(parser.peek().range, "expected an observed label such as 'X' or 'result[0]'");
      return false;
    }
    const Token& name = parser.advance();
    std::string label(name.text);
    if (parser.accept(TokenKind::Dot)) { // a field of a struct or vector variable: `range.low`
      if (!parser.at(TokenKind::Identifier)) {
        parser.error(parser.peek().range, "expected a field name after '.'");
        return false;
      }
      label += "." + std::string(parser.advance().text);
    }
    if (parser.accept(TokenKind::LeftBracket)) {
      std::optional<int64_t> index = integer_constant(parser, "the index");
      if (!index || !parser.expect(TokenKind::RightBracket, "']'")) return false;
      label += "[" + std::to_string(*index) + "]";
    }
    const SourceRange label_range = SourceRange::join(name.range, parser.previous().range);
    const ObservedItem* item = m_program.find_observed(label);
    if (!item) {
      parser.error(label_range, "'" + label + "' is not an observed item (observed: " + m_program.observed_labels() + ")");
      return false;
    }
    const uint32_t item_index = uint32_t(item - m_program.observed.data());
    if (!in_pattern.insert(item_index).second) {
      parser.error(label_range, "'" + label + "' appears twice in the pattern");
      return false;
    }
    if (!parser.expect(TokenKind::Equal, "'=' after the label")) return false;
    std::optional<Word> value = value_constant(parser, item->type, "the value of '" + label + "'", true);
    if (!value) return false;
    pattern.items.emplace_back(item_index, *value);
  }
  pattern.range = SourceRange::join(start, parser.previous().range);
  if (pattern.items.empty()) {
    parser.error(parser.peek().range, "expected a pattern such as 'X=1 Y=0'");
    return false;
  }
  return true;
}

// expect-directive: 'expect' models ':' ( 'exactly' pattern { '|' pattern } | 'reachable' pattern
//                   | 'unreachable' pattern | 'always' expression | 'diagnostic' KIND )
// models: model { ',' model }     model: ( 'all' | MODEL ) [ ( '/' | '.' ) ( 'its' | 'lockstep' ) ]
void DirectiveReader::read_expect(Parser& parser, const DirectiveLine& line) {
  Expectation expectation;
  expectation.range = line.range;
  expectation.text = line.text;
  do {
    if (!parser.at(TokenKind::Identifier))
      return parser.error(parser.peek().range, "expected the models (all, or some of sc, tso, gpu)");
    const Token& model = parser.advance();
    // An optional warp mode: `gpu/lockstep` (or `gpu.lockstep`, as tokens print it), `gpu/its`.
    // The expectation then names "gpu.lockstep" (ExplorationResult::model under lockstep);
    // a model without one, or with `/its`, means independent thread scheduling.
    std::string suffix;
    if (parser.accept(TokenKind::Slash) || parser.accept(TokenKind::Dot)) {
      if (!parser.at(TokenKind::Identifier) || (parser.peek().text != "its" && parser.peek().text != "lockstep"))
        return parser.error(parser.peek().range, "expected the warp mode its or lockstep after '" +
                                                     std::string(model.text) + "/'");
      if (parser.advance().text == "lockstep") suffix = ".lockstep";
    }
    if (model.text == "all") {
      if (!expectation.models.empty()) return parser.error(model.range, "'all' cannot be combined with other models");
      for (const char* name : kModelNames) expectation.models.push_back(name + suffix);
      break;
    }
    if (std::find_if(kModelNames.begin(), kModelNames.end(), [&](const char* n) { return model.text == n; }) ==
        kModelNames.end())
      return parser.error(model.range, "unknown model '" + std::string(model.text) + "' (expected all, sc, tso or gpu)");
    expectation.models.push_back(std::string(model.text) + suffix);
  } while (parser.accept(TokenKind::Comma));
  if (!parser.expect(TokenKind::Colon, "':' after the models")) return;
  const Token& kind = parser.peek();
  const std::string word = kind.kind == TokenKind::Identifier ? std::string(kind.text) : "";
  parser.advance();
  if (word == "exactly" || word == "reachable" || word == "unreachable") {
    expectation.kind = word == "exactly" ? ExpectationKind::Exactly
                       : word == "reachable" ? ExpectationKind::Reachable
                                             : ExpectationKind::Unreachable;
    do {
      OutcomePattern pattern;
      if (!read_pattern(parser, pattern)) return;
      expectation.patterns.push_back(std::move(pattern));
    } while (word == "exactly" && parser.accept(TokenKind::Pipe));
    if (parser.at(TokenKind::Pipe))
      return parser.error(parser.peek().range, "only 'exactly' takes several patterns; write one directive per pattern");
  } else if (word == "always") {
    expectation.kind = ExpectationKind::Always;
    parser.set_field_labels(true);
    expectation.predicate = parser.parse_expression();
    m_sema.check_predicate(expectation.predicate);
  } else if (word == "diagnostic") {
    // One kind, spelt as reports print it (include/fencelab/checkers/diagnostic_kinds.def).
    expectation.kind = ExpectationKind::Diagnostic;
    SourceRange range = parser.peek().range;
    while (!parser.at_end()) {
      const Token& token = parser.advance();
      if (token.space_before && !expectation.diagnostic_kind.empty()) expectation.diagnostic_kind += ' ';
      expectation.diagnostic_kind += token.text;
      range = SourceRange::join(range, token.range);
    }
    if (expectation.diagnostic_kind.empty())
      return parser.error(parser.peek().range, "expected the kind of diagnostic");
    const std::optional<DiagnosticKind> kind = find_diagnostic_kind(expectation.diagnostic_kind);
    if (!kind)
      return parser.error(range, "unknown diagnostic kind '" + expectation.diagnostic_kind + "' (expected one of " +
                                     diagnostic_kind_names() + ")");
    // A step limit is where the search stopped, not something the kernel does: expecting one
    // would make a run that proves nothing pass (README "Exit codes").
    if (*kind == DiagnosticKind::StepLimit)
      return parser.error(range, "'step-limit' cannot be expected: an execution stopped at a limit proves "
                                 "nothing either way (raise --max-steps or --max-barrier-rounds instead)");
  } else if (word == "no") {
    // `no diagnostics`: the checkers report nothing at all (a kernel the catalogue calls correct).
    if (!parser.at(TokenKind::Identifier) || parser.peek().text != "diagnostics")
      return parser.error(parser.peek().range, "expected 'diagnostics' after 'no'");
    parser.advance();
    if (!parser.at_end()) return parser.error(parser.peek().range, "unexpected text after 'no diagnostics'");
    expectation.kind = ExpectationKind::NoDiagnostics;
  } else {
    return parser.error(kind.range, "expected exactly, reachable, unreachable, always, diagnostic or no diagnostics, found " +
                                        (kind.kind == TokenKind::EndOfFile ? std::string("end of line")
                                                                           : "'" + std::string(kind.text) + "'"));
  }
  m_program.expectations.push_back(std::move(expectation));
}

} // namespace fencelab
