// The bytecode engine against the AST walker, its reference (tests/bytecode_tests.cpp): a kernel
// explored under each must give the same report, byte for byte.
#pragma once

#include "fencelab/checkers/checkers.h"
#include "fencelab/machine/memory_model.h"
#include "fencelab/report/report.h"
#include "machine_helpers.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>

namespace fencelab::testing {

/** Everything an exhaustive search (within `budget`) and a random sample of `program` under
 *  `engine` show, as text; `compiled`: how many functions ran compiled. */
inline std::string everything(const Program& program, Engine engine, const std::string& model_name, uint64_t budget,
                       MachineOptions options = {}, size_t* compiled = nullptr) {
  options.engine = engine;
  Machine machine(program, options);
  if (compiled) *compiled = machine.compiled_functions();
  auto model = create_model(model_name);
  std::ostringstream out;
  {
    Checkers checkers(program);
    ExhaustiveOptions exhaustive;
    exhaustive.max_executions = budget;
    exhaustive.checkers = &checkers;
    const ExplorationResult r = explore_exhaustive(machine, *model, exhaustive);
    print_exploration_json(out, program, r, {}, ReportOptions{false, "explore"});
    print_check_text(out, program, r);
    for (const OutcomeCount& o : r.outcomes) {
      TraceRecorder trace;
      ReplayError error;
      const auto execution = replay(machine, *model, o.witness, &trace, error);
      if (execution) print_trace_text(out, program, o.witness.encode(), trace.events(), *execution);
      else out << "replay failed: " << error.message << "\n";
    }
  }
  Checkers checkers(program);
  RandomOptions random;
  random.runs = 20;
  random.seed = 7;
  random.checkers = &checkers;
  print_exploration_json(out, program, explore_random(machine, *model, random), {}, ReportOptions{false, "run"});
  return out.str();
}

/** The engines on `program` under each of `models`: the bytecode with every thread on a fiber
 *  and the default (stackless where the kernel allows) against the AST; `expect_compiled`:
 *  functions the bytecode must have compiled (so that the comparison compares something). */
inline void check_same(const Program& program, uint64_t budget, MachineOptions options = {}, size_t expect_compiled = 0,
                std::initializer_list<const char*> models = {"sc", "tso", "gpu"}) {
  for (const char* model : models) {
    INFO("model " << model);
    const std::string reference = everything(program, Engine::Ast, model, budget, options);
    for (const Engine engine : {Engine::BytecodeOnFibers, Engine::Bytecode}) {
      size_t compiled = 0;
      const std::string bytecode = everything(program, engine, model, budget, options, &compiled);
      CHECK(compiled >= expect_compiled);
      if (bytecode != reference) {
        INFO("AST:\n" << reference << "\nbytecode" << (engine == Engine::Bytecode ? "" : " on fibers") << ":\n"
                       << bytecode);
        FAIL_CHECK("the engines differ");
      }
    }
  }
}

inline void check_text(const std::string& text, size_t expect_compiled, MachineOptions options = {}, uint64_t budget = 400) {
  auto compiled = compile_text(text);
  INFO(text << compiled->rendered());
  REQUIRE(compiled->program != nullptr);
  check_same(*compiled->program, budget, options, expect_compiled);
}

} // namespace fencelab::testing
