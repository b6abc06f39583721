// Calls and what both interpreters share at run time: a call's frame (Interpreter::call, the one
// place frames are pushed, by the AST walker and the bytecode alike), the builtin variables, and
// the recording of observed locals. Apart from interpreter.cpp (the AST walker) because that file
// is built without link-time optimization (CMakeLists.txt: its recursive frames must stay within
// kStackPerCall), while these run at every call and assignment of the compiled code and gain
// from being inlined across files.
#include "interpreter.h"

#include <cassert>
#include <fmt/format.h>
#include <span>

namespace fencelab {

Word Interpreter::builtin_variable(const BuiltinVariable& e) const {
  auto component = [&e](const Dim3& d) -> Word {
    return e.component == 0 ? d.x : e.component == 1 ? d.y : d.z;
  };
  switch (e.variable) {
  case BuiltinVariableKind::ThreadIdx: return component(t.thread_idx);
  case BuiltinVariableKind::BlockIdx: return component(t.block_idx);
  case BuiltinVariableKind::BlockDim: return component(m.program.launch.block);
  case BuiltinVariableKind::GridDim: return component(m.program.launch.grid);
  case BuiltinVariableKind::WarpSize: return kWarpSize;
  }
  return 0;
}

Word Interpreter::call(const FunctionDecl& declared, std::span<const Word> args, const Call* call_site) {
  return call(declared, args, call_site, m.bytecode.find(declared));
}

Word Interpreter::call(const FunctionDecl& declared, std::span<const Word> args, const Call* call_site,
                       const CompiledFunction* compiled) {
  const FunctionDecl& f = *definition_of(declared); // sema: every called function is defined
  // The kernel's own recursion must end as its runtime error, before it reaches the fiber
  // stack's guard page (which would end fencelab itself). On hardware too the per-thread stack
  // is small (cudaLimitStackSize, Programming Guide "Function recursion"). The depth is
  // counted (the same in both interpreters and every build); the frame's address is checked
  // too, for a call whose native frames are larger than a level's share of the stack.
  if (t.frames.size() >= m.call_depth_limit() ||
      reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) < t.stack_limit)
    recursion_too_deep(f);
  const size_t base = enter_frame(f, args, call_site);
  if (compiled != nullptr) run(*compiled);
  else exec(*f.body);
  return leave_frame(base);
}

void Interpreter::recursion_too_deep(const FunctionDecl& f) {
  m.fault(t, f.name_range,
          fmt::format("recursion too deep at call depth {}: the simulated thread's stack ({} KiB) is used up; "
                      "raise --stack-size",
                      t.frames.size(), m.stacks.stack_size() / 1024));
}

size_t Interpreter::enter_frame(const FunctionDecl& f, std::span<const Word> args, const Call* call_site) {
  const size_t base = t.slots.size();
  // One push per slot: resize's out-of-line fill cost more than the few slots a frame has.
  for (uint32_t i = 0; i < f.frame_slots; ++i) t.slots.push_back(0);
  if (t.slots.on_heap()) m.slots_on_heap = true;
  t.frames.push_back(Frame{&f, call_site, base});
  for (size_t i = 0; i < f.params.size(); ++i) {
    const VarDecl& param = *f.params[i];
    Word value = 0;
    if (i < args.size()) value = args[i];
    else if (param.initializer) value = convert_word(eval(*param.initializer), param.initializer->type, param.type);
    t.slots[base + param.slot] = param.address_taken ? private_cell(param.type, value) : value;
  }
  // The kernel's frame is entered at the thread's start, where ThreadRareState is as
  // constructed: writing its line for nothing would touch it at every start of a large grid's
  // threads, which otherwise leave it cold (Machine::Impl::rare_state_untouched).
  assert(call_site != nullptr || t.return_value == 0);
  if (call_site != nullptr) t.return_value = 0;
  return base;
}

Word Interpreter::leave_frame(size_t base) {
  const Word result = t.return_value;
  t.frames.pop_back();
  t.slots.resize(base);
  return result;
}

void Interpreter::leave_kernel_frame() {
  assert(t.frames.size() == 1);
  t.frames.pop_back();
  t.slots.clear();
}

Word Machine::Impl::call_function(SimThread& thread, const FunctionDecl& function,
                                  std::span<const Word> args, const Call* call_site) {
  return Interpreter(*this, thread).call(function, args, call_site);
}

Word Machine::Impl::eval(SimThread& thread, const Expr& expr) {
  return Interpreter(*this, thread).eval(expr);
}

std::optional<uint32_t> Machine::Impl::observed_item_of(const VarDecl& variable) const {
  for (const auto& [local, item] : observed_locals)
    if (local == &variable) return item;
  return std::nullopt;
}

void Machine::Impl::record_observed_local(SimThread& thread, const VarDecl& variable, Word value) {
  if (const std::optional<uint32_t> item = observed_item_of(variable)) record_observed_item(thread, *item, variable, value);
}

void Machine::Impl::record_observed_item(SimThread& thread, uint32_t item, const VarDecl& variable, Word value) {
  if (observed_present[item] && observed_writer[item] != thread.ref.id)
    fault(thread, variable.name_range,
          fmt::format("observed local '{}' is assigned by more than one thread ({} and {}); "
                      "observe a local only in code that one thread runs",
                      variable.name, observed_writer[item].to_string(), thread.ref.id.to_string()));
  touch(ObjectId{ObjectKind::Observed, 0, item}, true);
  observed_values[item] = convert_word(value, variable.type, program.observed[item].type);
  observed_present[item] = 1;
  observed_writer[item] = thread.ref.id;
}

} // namespace fencelab
