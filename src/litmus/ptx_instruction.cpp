// The instruction forms of a PTX litmus cell. The qualifiers follow the PTX ISA's instruction
// pages ("ld", "st", "atom", "red", "fence/membar", "bar/barrier"): weak accesses carry no scope,
// strong ones must name one; fence is .sc or .acq_rel.
#include "ptx_instruction.h"

#include <algorithm>

#include <fmt/format.h>

namespace fencelab::litmus {

namespace {

struct Stop {};

class CellParser {
public:
  CellParser(const std::vector<PtxToken>& cell, std::vector<PtxDiagnostic>& diagnostics)
      : m_cell(cell), m_diagnostics(diagnostics) {}

  // instruction := mnemonic operand (',' operand)*      mnemonic := word ('.' word)*
  PtxInstruction parse() {
    const PtxToken& head = m_cell.front();
    PtxInstruction instruction;
    instruction.position = head.position;
    if (head.kind != PtxTokenKind::word) fail(head, fmt::format("expected an instruction, found '{}'", head.text));
    // label := LABEL ':'
    if (m_cell.size() >= 2 && m_cell[1].text == ":") {
      instruction.kind = PtxInstructionKind::label;
      instruction.label = head.text;
      m_position = 2;
      if (m_position != m_cell.size())
        fail(m_cell[m_position], fmt::format("unexpected '{}' after the label", m_cell[m_position].text));
      return instruction;
    }
    m_parts = split(head.text);
    m_next = 1;
    const std::string& op = m_parts[0];
    if (op == "ld" && m_parts.size() == 1) {
      instruction.kind = PtxInstructionKind::local;
      instruction.operation = PtxOperation::move;
      instruction.destination = parse_register();
      comma();
      instruction.operands.push_back(parse_value());
    } else if (op == "add" || op == "sub" || op == "mul" || op == "div") {
      if (m_parts.size() != 1) fail(head, fmt::format("unsupported: '{}' with qualifiers", head.text), true);
      instruction.kind = PtxInstructionKind::local;
      instruction.operation = op == "add" ? PtxOperation::add : op == "sub" ? PtxOperation::sub
                              : op == "mul" ? PtxOperation::mul : PtxOperation::div;
      instruction.destination = parse_register();
      comma();
      instruction.operands.push_back(parse_value());
      comma();
      instruction.operands.push_back(parse_value());
    } else if (op == "ld" || op == "tld" || op == "suld" || op == "cold") {
      instruction.kind = PtxInstructionKind::load;
      instruction.proxy = op == "tld" ? PtxProxy::texture : op == "suld" ? PtxProxy::surface
                          : op == "cold" ? PtxProxy::constant : PtxProxy::generic;
      parse_order_and_scope(instruction, head, {PtxOrder::weak, PtxOrder::relaxed, PtxOrder::acquire});
      instruction.destination = parse_register();
      comma();
      instruction.location = parse_location();
    } else if (op == "st" || op == "sust") {
      instruction.kind = PtxInstructionKind::store;
      instruction.proxy = op == "sust" ? PtxProxy::surface : PtxProxy::generic;
      parse_order_and_scope(instruction, head, {PtxOrder::weak, PtxOrder::relaxed, PtxOrder::release});
      instruction.location = parse_location();
      comma();
      instruction.operands.push_back(parse_value());
    } else if (op == "atom" || op == "red" || op == "suatom" || op == "sured") {
      bool atom = op == "atom" || op == "suatom";
      instruction.kind = atom ? PtxInstructionKind::atom : PtxInstructionKind::red;
      instruction.proxy = op[0] == 's' ? PtxProxy::surface : PtxProxy::generic;
      parse_order_and_scope(instruction, head, {PtxOrder::relaxed, PtxOrder::acquire, PtxOrder::release, PtxOrder::acq_rel});
      if (instruction.scope == PtxScope::none) fail(head, fmt::format("'{}' needs a scope (.cta, .gpu or .sys)", op));
      instruction.operation = parse_operation(head, atom);
      if (m_next != m_parts.size()) fail(head, fmt::format("unexpected qualifier '.{}'", m_parts[m_next]));
      if (atom) {
        instruction.destination = parse_register();
        comma();
      }
      instruction.location = parse_location();
      comma();
      instruction.operands.push_back(parse_value());
      if (instruction.operation == PtxOperation::cas) {
        comma();
        instruction.operands.push_back(parse_value());
      }
    } else if (op == "fence" || op == "membar") {
      instruction.kind = PtxInstructionKind::fence;
      // fence.proxy.PROXY orders accesses through PROXY with the generic proxy's; fence.proxy.alias
      // orders generic accesses to aliases of one location (PTX ISA, "membar/fence", "Proxies").
      if (m_parts.size() >= 2 && m_parts[0] == "fence" && m_parts[1] == "proxy") {
        if (m_parts.size() != 3) fail(head, "expected fence.proxy.alias or fence.proxy.PROXY");
        const std::string& kind = m_parts[2];
        if (kind == "alias") instruction.alias_fence = true;
        else if (kind == "surface") instruction.proxy = PtxProxy::surface;
        else if (kind == "texture") instruction.proxy = PtxProxy::texture;
        else if (kind == "constant") instruction.proxy = PtxProxy::constant;
        else if (kind == "generic") instruction.proxy = PtxProxy::generic;
        else fail(head, fmt::format("unsupported: fence.proxy.{}", kind), true);
        instruction.proxy_fence = !instruction.alias_fence;
        instruction.order = PtxOrder::weak;
        m_position = 1;
        if (!at_cell_end()) fail(current(), fmt::format("unexpected '{}' after the fence", current().text));
        return instruction;
      }
      if (op == "membar") {
        // PTX ISA, "membar/fence": membar.{cta,gl,sys} is a fence.sc of scope cta, gpu, sys.
        instruction.order = PtxOrder::sc;
        if (m_parts.size() != 2) fail(head, "expected membar.cta, membar.gl or membar.sys");
        instruction.scope = m_parts[1] == "cta" ? PtxScope::cta : m_parts[1] == "gl" ? PtxScope::gpu
                            : m_parts[1] == "sys" ? PtxScope::sys : PtxScope::none;
        if (instruction.scope == PtxScope::none) fail(head, fmt::format("unknown membar scope '.{}'", m_parts[1]));
      } else {
        parse_order_and_scope(instruction, head, {PtxOrder::sc, PtxOrder::acq_rel});
        if (instruction.scope == PtxScope::none) fail(head, "a fence needs a scope (.cta, .gpu or .sys)");
      }
    } else if (op == "bar" || op == "barrier") {
      parse_barrier(instruction, head);
    } else if (op == "beq" || op == "bne" || op == "blt" || op == "bgt" || op == "ble" || op == "bge") {
      // branch := ('beq' | 'bne' | ...) value ',' value ',' LABEL
      if (m_parts.size() != 1) fail(head, fmt::format("unexpected qualifier on '{}'", op));
      instruction.kind = PtxInstructionKind::branch;
      instruction.comparison = op == "beq" ? PtxComparison::equal : op == "bne" ? PtxComparison::not_equal
                               : op == "blt" ? PtxComparison::less : op == "bgt" ? PtxComparison::greater
                               : op == "ble" ? PtxComparison::less_equal : PtxComparison::greater_equal;
      instruction.operands.push_back(parse_value());
      comma();
      instruction.operands.push_back(parse_value());
      comma();
      instruction.label = parse_location();
    } else if (op == "goto") {
      // jump := 'goto' LABEL
      if (m_parts.size() != 1) fail(head, "unexpected qualifier on 'goto'");
      instruction.kind = PtxInstructionKind::jump;
      instruction.label = parse_location();
    } else {
      fail(head, fmt::format("unsupported: instruction '{}'", head.text), true);
    }
    if (m_position != m_cell.size())
      fail(m_cell[m_position], fmt::format("unexpected '{}' after the instruction", m_cell[m_position].text));
    return instruction;
  }

private:
  const std::vector<PtxToken>& m_cell;
  std::vector<PtxDiagnostic>& m_diagnostics;
  std::vector<std::string> m_parts;  ///< the mnemonic split at '.'
  size_t m_next = 1;                 ///< the next part of the mnemonic
  size_t m_position = 1;             ///< the next token of the cell

  [[noreturn]] void fail(const PtxToken& token, std::string message, bool unsupported = false) {
    m_diagnostics.push_back({token.position, std::move(message), unsupported});
    throw Stop{};
  }
  static std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
      size_t dot = text.find('.', start);
      parts.push_back(text.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    return parts;
  }
  const PtxToken& current() const { return m_position < m_cell.size() ? m_cell[m_position] : m_cell.back(); }
  bool at_cell_end() const { return m_position >= m_cell.size(); }

  void comma() {
    if (at_cell_end() || current().text != ",")
      fail(current(), at_cell_end() ? "expected ',' before the end of the cell" : fmt::format("expected ',', found '{}'", current().text));
    ++m_position;
  }
  std::string parse_register() {
    if (at_cell_end() || current().kind != PtxTokenKind::word || current().text.find('.') != std::string::npos)
      fail(current(), at_cell_end() ? "expected a register" : fmt::format("expected a register, found '{}'", current().text));
    return m_cell[m_position++].text;
  }
  std::string parse_location() {
    if (at_cell_end() || current().kind != PtxTokenKind::word || current().text.find('.') != std::string::npos)
      fail(current(), at_cell_end() ? "expected a location" : fmt::format("expected a location, found '{}'", current().text));
    return m_cell[m_position++].text;
  }
  // value := number | '-' number | register
  PtxOperand parse_value() {
    PtxOperand operand;
    if (at_cell_end()) fail(current(), "expected a value (a number or a register)");
    bool negative = false;
    if (current().text == "-") {
      negative = true;
      ++m_position;
      if (at_cell_end()) fail(m_cell.back(), "expected a number after '-'");
    }
    const PtxToken& token = current();
    if (token.kind == PtxTokenKind::number) {
      if (token.text.size() > 18) fail(token, "number too large");
      operand.constant = std::stoll(token.text) * (negative ? -1 : 1);
    } else if (token.kind == PtxTokenKind::word && !negative && token.text.find('.') == std::string::npos) {
      operand.register_name = token.text;
    } else {
      fail(token, fmt::format("expected a number or a register, found '{}'", token.text));
    }
    ++m_position;
    return operand;
  }
  void parse_order_and_scope(PtxInstruction& instruction, const PtxToken& head, std::vector<PtxOrder> allowed) {
    if (m_next >= m_parts.size()) fail(head, fmt::format("'{}' needs a semantics qualifier (.weak, .relaxed, ...)", m_parts[0]));
    const std::string& order = m_parts[m_next];
    static const std::pair<const char*, PtxOrder> orders[] = {
        {"weak", PtxOrder::weak},       {"relaxed", PtxOrder::relaxed}, {"acquire", PtxOrder::acquire},
        {"release", PtxOrder::release}, {"acq_rel", PtxOrder::acq_rel}, {"sc", PtxOrder::sc}};
    bool found = false;
    for (const auto& [name, value] : orders) {
      if (order == name) {
        instruction.order = value;
        found = true;
      }
    }
    if (order == "volatile" || order == "mmio" || order == "shared" || order == "global")
      fail(head, fmt::format("unsupported: '.{}' on '{}'", order, m_parts[0]), true);
    if (!found) fail(head, fmt::format("unknown semantics qualifier '.{}' on '{}'", order, m_parts[0]));
    if (std::find(allowed.begin(), allowed.end(), instruction.order) == allowed.end())
      fail(head, fmt::format("'{}' does not take '.{}'", m_parts[0], order));
    ++m_next;
    if (m_next < m_parts.size()) {
      const std::string& scope = m_parts[m_next];
      if (scope == "cta" || scope == "gpu" || scope == "sys") {
        instruction.scope = scope == "cta" ? PtxScope::cta : scope == "gpu" ? PtxScope::gpu : PtxScope::sys;
        ++m_next;
      } else if (scope == "cluster") {
        fail(head, "unsupported: the .cluster scope", true);
      }
    }
    // PTX ISA, "Operation types": a weak access has no scope; a strong one has one.
    if (instruction.order == PtxOrder::weak && instruction.scope != PtxScope::none)
      fail(head, fmt::format("a weak '{}' takes no scope", m_parts[0]));
    if (instruction.order != PtxOrder::weak && instruction.scope == PtxScope::none && instruction.kind != PtxInstructionKind::fence &&
        instruction.kind != PtxInstructionKind::atom && instruction.kind != PtxInstructionKind::red)
      fail(head, fmt::format("a strong '{}' needs a scope (.cta, .gpu or .sys)", m_parts[0]));
    if ((instruction.kind == PtxInstructionKind::load || instruction.kind == PtxInstructionKind::store ||
         instruction.kind == PtxInstructionKind::fence) && m_next != m_parts.size())
      fail(head, fmt::format("unexpected qualifier '.{}'", m_parts[m_next]));
  }
  PtxOperation parse_operation(const PtxToken& head, bool atom) {
    if (m_next >= m_parts.size()) fail(head, fmt::format("'{}' needs an operation (.add, .exch, ...)", m_parts[0]));
    const std::string& name = m_parts[m_next++];
    static const std::pair<const char*, PtxOperation> operations[] = {
        {"add", PtxOperation::add},     {"sub", PtxOperation::sub},    {"mul", PtxOperation::mul},
        {"div", PtxOperation::div},     {"and", PtxOperation::bit_and}, {"or", PtxOperation::bit_or},
        {"xor", PtxOperation::bit_xor}, {"exch", PtxOperation::exch},  {"cas", PtxOperation::cas}};
    for (const auto& [text, value] : operations) {
      if (name == text) {
        if (!atom && (value == PtxOperation::exch || value == PtxOperation::cas))
          fail(head, fmt::format("'red' does not take '.{}'", name));
        return value;
      }
    }
    fail(head, fmt::format("unsupported: operation '.{}'", name), true);
  }
  // barrier := 'bar' ('.cta')? ('.sync' | '.arrive') value (',' value (',' value)?)?
  void parse_barrier(PtxInstruction& instruction, const PtxToken& head) {
    instruction.kind = PtxInstructionKind::barrier;
    instruction.scope = PtxScope::cta;
    if (m_next < m_parts.size() && m_parts[m_next] == "cta") ++m_next;
    if (m_next >= m_parts.size() || (m_parts[m_next] != "sync" && m_parts[m_next] != "arrive" && m_parts[m_next] != "red"))
      fail(head, "expected bar.cta.sync or bar.cta.arrive");
    if (m_parts[m_next] == "red") fail(head, "unsupported: bar.red", true);
    instruction.barrier_arrive = m_parts[m_next] == "arrive";
    ++m_next;
    if (m_next != m_parts.size()) fail(head, fmt::format("unexpected qualifier '.{}'", m_parts[m_next]));
    PtxOperand name = parse_value();
    if (name.register_name) fail(m_cell[m_position - 1], "expected the barrier's number");
    instruction.barrier_id = name;
    if (!at_cell_end()) {
      comma();
      instruction.barrier_id = parse_value();
      if (!at_cell_end()) {
        comma();
        instruction.barrier_count = parse_value();
      }
    }
  }
};

} // namespace

PtxInstruction parse_ptx_instruction(const std::vector<PtxToken>& cell, std::vector<PtxDiagnostic>& diagnostics) {
  try {
    return CellParser(cell, diagnostics).parse();
  } catch (const Stop&) {
    return {};
  }
}

} // namespace fencelab::litmus
