// Expectations against outcomes. An exhaustive search proves `exactly`, `unreachable` and
// `always`; a partial or random one can only refute them (with a witness) or stay silent.
#include "fencelab/explore/expectations.h"

#include "fencelab/checkers/checkers.h"
#include "fencelab/frontend/operators.h"

#include <algorithm>
#include <fmt/format.h>

namespace fencelab {

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
  case Verdict::Holds: return "holds";
  case Verdict::Fails: return "FAILS";
  case Verdict::Inconclusive: return "unproven";
  }
  return "?";
}

namespace {

Word evaluate(const Expr& e, const Outcome& outcome, bool& ok) {
  switch (e.kind) {
  case ExprKind::IntegerLiteral:
  case ExprKind::FloatLiteral:
  case ExprKind::BoolLiteral: return static_cast<const Literal&>(e).bits;
  case ExprKind::NameRef: {
    const NameRef& n = as<NameRef>(e);
    if (n.constant) return *n.constant;
    if (n.observed_item < 0 || !outcome.present[size_t(n.observed_item)]) break;
    return outcome.values[size_t(n.observed_item)];
  }
  case ExprKind::Index: {
    const Index& ix = as<Index>(e);
    if (ix.observed_item < 0 || !outcome.present[size_t(ix.observed_item)]) break;
    return outcome.values[size_t(ix.observed_item)];
  }
  case ExprKind::Cast: {
    const Cast& c = as<Cast>(e);
    return convert_word(evaluate(*c.operand, outcome, ok), c.operand->type, c.type);
  }
  case ExprKind::Unary: {
    const Unary& u = as<Unary>(e);
    return apply_unary(u.op, evaluate(*u.operand, outcome, ok), u.operand->type, u.type);
  }
  case ExprKind::Conditional: {
    const Conditional& c = as<Conditional>(e);
    return word_is_true(evaluate(*c.condition, outcome, ok), c.condition->type)
               ? evaluate(*c.then_value, outcome, ok)
               : evaluate(*c.else_value, outcome, ok);
  }
  case ExprKind::Binary: {
    const Binary& b = as<Binary>(e);
    const Word l = evaluate(*b.lhs, outcome, ok);
    const Word r = evaluate(*b.rhs, outcome, ok);
    ArithmeticError error = ArithmeticError::None;
    const Word v = apply_binary(b.op, l, r, b.lhs->type, b.rhs->type, b.type, error);
    if (error != ArithmeticError::None) ok = false;
    return v;
  }
  default: break;
  }
  ok = false;
  return 0;
}

bool names_model(const Expectation& e, const std::string& model) {
  return std::find(e.models.begin(), e.models.end(), model) != e.models.end();
}

std::string describe_search(const ExplorationResult& r) {
  if (r.mode == ExplorationMode::Exhaustive)
    return r.complete ? fmt::format("all {} executions", r.executions)
                      : fmt::format("{} executions (search cut short)", r.executions);
  return fmt::format("{} random executions", r.executions);
}

bool proven(const ExplorationResult& r) { return r.mode == ExplorationMode::Exhaustive && r.complete; }

ExpectationResult check_one(const Program& program, const Expectation& e, const ExplorationResult& r) {
  ExpectationResult out;
  out.expectation = &e;
  const std::string searched = describe_search(r);
  switch (e.kind) {
  case ExpectationKind::Reachable:
    for (const OutcomeCount& o : r.outcomes) {
      if (o.outcome.matches(e.patterns.front())) {
        out.verdict = Verdict::Holds;
        out.detail = fmt::format("reached: {}", o.outcome.to_string(program));
        out.witness = o.witness;
        return out;
      }
    }
    out.verdict = proven(r) ? Verdict::Fails : Verdict::Inconclusive;
    out.detail = fmt::format("not reached in {}", searched);
    return out;
  case ExpectationKind::Unreachable:
    for (const OutcomeCount& o : r.outcomes) {
      if (o.outcome.matches(e.patterns.front())) {
        out.verdict = Verdict::Fails;
        out.detail = fmt::format("reached: {}", o.outcome.to_string(program));
        out.witness = o.witness;
        return out;
      }
    }
    out.verdict = proven(r) ? Verdict::Holds : Verdict::Inconclusive;
    out.detail = fmt::format("not reached in {}", searched);
    return out;
  case ExpectationKind::Exactly: {
    for (const OutcomeCount& o : r.outcomes) {
      const bool expected = std::any_of(e.patterns.begin(), e.patterns.end(),
                                        [&o](const OutcomePattern& p) { return o.outcome.matches(p); });
      if (!expected) {
        out.verdict = Verdict::Fails;
        out.detail = fmt::format("unexpected outcome: {}", o.outcome.to_string(program));
        out.witness = o.witness;
        return out;
      }
    }
    for (const OutcomePattern& p : e.patterns) {
      const bool reached = std::any_of(r.outcomes.begin(), r.outcomes.end(),
                                       [&p](const OutcomeCount& o) { return o.outcome.matches(p); });
      if (!reached) {
        out.verdict = proven(r) ? Verdict::Fails : Verdict::Inconclusive;
        out.detail = fmt::format("expected outcome `{}` not reached in {}",
                                 program.source->slice(p.range), searched);
        return out;
      }
    }
    out.verdict = proven(r) ? Verdict::Holds : Verdict::Inconclusive;
    out.detail = fmt::format("{} outcome(s), as expected, in {}", r.outcomes.size(), searched);
    return out;
  }
  case ExpectationKind::Always:
    for (const OutcomeCount& o : r.outcomes) {
      bool ok = o.outcome.status == ExecutionStatus::Completed;
      const bool holds = ok && word_is_true(evaluate(*e.predicate, o.outcome, ok), e.predicate->type) && ok;
      if (!holds) {
        out.verdict = Verdict::Fails;
        out.detail = fmt::format("violated by: {}", o.outcome.to_string(program));
        out.witness = o.witness;
        return out;
      }
    }
    out.verdict = proven(r) ? Verdict::Holds : Verdict::Inconclusive;
    out.detail = fmt::format("held in {}", searched);
    return out;
  case ExpectationKind::Diagnostic: {
    if (!r.checked) {
      // Without the checkers (--no-check), an execution that ended in the error still shows it:
      // deadlocks, livelocks and runtime errors are outcomes of their own.
      for (const OutcomeCount& o : r.outcomes) {
        const std::optional<DiagnosticKind> kind = execution_error_kind(o.outcome.status, o.error);
        if (!kind || e.diagnostic_kind != diagnostic_kind_name(*kind)) continue;
        out.verdict = Verdict::Holds;
        out.detail = fmt::format("reached: {}", o.outcome.to_string(program));
        out.witness = o.witness;
        return out;
      }
      out.verdict = Verdict::Inconclusive;
      out.detail = "the checkers did not run (use fencelab check)";
      return out;
    }
    for (const ReportCount& report : r.reports) {
      if (e.diagnostic_kind != diagnostic_kind_name(report.report.kind)) continue;
      out.verdict = Verdict::Holds;
      out.detail = fmt::format("reported: {}", report.report.message);
      out.witness = report.report.witness;
      return out;
    }
    out.verdict = proven(r) ? Verdict::Fails : Verdict::Inconclusive;
    out.detail = fmt::format("no {} report in {}", e.diagnostic_kind, searched);
    return out;
  }
  case ExpectationKind::NoDiagnostics:
    if (!r.checked) {
      out.verdict = Verdict::Inconclusive;
      out.detail = "the checkers did not run (use fencelab check)";
      return out;
    }
    if (!r.reports.empty()) {
      out.verdict = Verdict::Fails;
      out.detail = fmt::format("reported: {} ({} report{} in all)", r.reports.front().report.message,
                               r.reports.size(), r.reports.size() == 1 ? "" : "s");
      out.witness = r.reports.front().report.witness;
      return out;
    }
    // Random executions that found nothing are evidence, not proof.
    out.verdict = proven(r) ? Verdict::Holds : Verdict::Inconclusive;
    out.detail = fmt::format("nothing reported in {}", searched);
    return out;
  }
  return out;
}

} // namespace

bool evaluate_predicate(const Expr& predicate, const Outcome& outcome) {
  bool ok = outcome.status == ExecutionStatus::Completed;
  const bool value = ok && word_is_true(evaluate(predicate, outcome, ok), predicate.type);
  return ok && value;
}

std::vector<ExpectationResult> check_expectations(const Program& program, const ExplorationResult& result) {
  std::vector<ExpectationResult> out;
  for (const Expectation& e : program.expectations)
    if (names_model(e, result.model)) out.push_back(check_one(program, e, result));
  return out;
}

} // namespace fencelab
