// Builtin functions: math, bit casts, fences, barriers, atomics, printf (builtins.def).
#include "fencelab/machine/atomic_update.h"
#include "half_builtins.h"
#include "printf_format.h"
#include "machine_impl.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <span>

namespace fencelab {

namespace {

double as_double(Word w, const Type& t) { return word_to_double(w, t); }

constexpr uint64_t kClockStep = 1000; ///< clock()/clock64() cycles between two reads by a thread

/** A math builtin applied to already-converted arguments `a` (of `call`'s argument types);
 *  the result has `result`. */
Word math(Builtin b, std::span<const Word> a, const Call& call, const Type& result) {
  if (const std::optional<Word> half = half_builtin(b, a)) return *half;
  auto at = [&call](size_t i) -> const Type& { return call.args[i]->type; };
  auto d = [&](size_t i) { return as_double(a[i], at(i)); };
  auto real = [&result](double v) { return word_from_double(v, result); };
  auto single = [&result](float v) { return word_from_double(double(v), result); };
  auto f = [&](size_t i) { return float(d(i)); };
  const uint64_t u0 = a.empty() ? 0 : a[0];
  const uint32_t w0 = static_cast<uint32_t>(u0);
  switch (b) {
  case Builtin::Sin: return real(std::sin(d(0)));
  case Builtin::Sinf: return single(std::sin(f(0)));
  case Builtin::Cos: return real(std::cos(d(0)));
  case Builtin::Cosf: return single(std::cos(f(0)));
  case Builtin::Tan: return real(std::tan(d(0)));
  case Builtin::Tanf: return single(std::tan(f(0)));
  case Builtin::Exp: return real(std::exp(d(0)));
  case Builtin::Expf: return single(std::exp(f(0)));
  case Builtin::Log: return real(std::log(d(0)));
  case Builtin::Logf: return single(std::log(f(0)));
  case Builtin::Sqrt: return real(std::sqrt(d(0)));
  case Builtin::Sqrtf: return single(std::sqrt(f(0)));
  case Builtin::Pow: return real(std::pow(d(0), d(1)));
  case Builtin::Powf: return single(std::pow(f(0), f(1)));
  case Builtin::Fabs: return real(std::fabs(d(0)));
  case Builtin::Fabsf: return single(std::fabs(f(0)));
  case Builtin::Floor: return real(std::floor(d(0)));
  case Builtin::Floorf: return single(std::floor(f(0)));
  case Builtin::Ceil: return real(std::ceil(d(0)));
  case Builtin::Ceilf: return single(std::ceil(f(0)));
  case Builtin::Fmax: return real(std::fmax(d(0), d(1)));
  case Builtin::Fmaxf: return single(std::fmax(f(0), f(1)));
  case Builtin::Fmin: return real(std::fmin(d(0), d(1)));
  case Builtin::Fminf: return single(std::fmin(f(0), f(1)));
  case Builtin::Abs:
    if (result.is_floating()) return real(std::fabs(d(0)));
    return word_from_int(std::llabs(word_to_int(a[0], at(0))), result);
  case Builtin::Min:
  case Builtin::Max:
  case Builtin::Umin:
  case Builtin::Umax: {
    // Operands were converted to a common type by sema (umin/umax: unsigned int).
    const bool less = result.is_floating() ? d(0) < d(1)
                      : result.is_signed() ? int64_t(a[0]) < int64_t(a[1])
                                           : a[0] < a[1];
    return (b == Builtin::Min || b == Builtin::Umin) == less ? a[0] : a[1];
  }
  // __saturatef: clamped to [+0.0, 1.0], NaN to +0.0 (CUDA Math API, Single Precision
  // Intrinsics; PTX ISA cvt/.sat: NaN results flush to +0.0).
  case Builtin::Saturatef: {
    const float v = f(0);
    return single(std::isnan(v) || v <= 0.0f ? 0.0f : v >= 1.0f ? 1.0f : v);
  }
  case Builtin::Popc: return word_from_int(std::popcount(w0), result);
  case Builtin::Popcll: return word_from_int(std::popcount(u0), result);
  // __ffs: position of the least significant set bit, 1-based; 0 when none.
  case Builtin::Ffs: return word_from_int(w0 == 0 ? 0 : std::countr_zero(w0) + 1, result);
  case Builtin::Ffsll: return word_from_int(u0 == 0 ? 0 : std::countr_zero(u0) + 1, result);
  // __mul24/__umul24: the low 32 bits of the product of the operands' low 24 bits (CUDA Math
  // API, Integer Intrinsics), signed ones sign-extended from bit 23 (PTX ISA mul24).
  case Builtin::Mul24: {
    const auto low24 = [](uint64_t w) { return int64_t(int32_t(uint32_t(w) << 8) >> 8); };
    return word_from_int(int32_t(uint32_t(low24(a[0]) * low24(a[1]))), result);
  }
  case Builtin::Umul24: return word_from_int((uint64_t(w0 & 0xffffff) * (uint32_t(a[1]) & 0xffffff)) & 0xffffffffu, result);
  case Builtin::Exp2f: return single(std::exp2(f(0)));
  case Builtin::Log2f: return single(std::log2(f(0)));
  case Builtin::Log10f: return single(std::log10(f(0)));
  case Builtin::Truncf: return single(std::trunc(f(0)));
  case Builtin::Roundf: return single(std::round(f(0)));
  case Builtin::Tanhf: return single(std::tanh(f(0)));
  case Builtin::Atanf: return single(std::atan(f(0)));
  case Builtin::Asinf: return single(std::asin(f(0)));
  case Builtin::Acosf: return single(std::acos(f(0)));
  case Builtin::Erff: return single(std::erf(f(0)));
  case Builtin::Cbrtf: return single(std::cbrt(f(0)));
  case Builtin::FastExpf: return single(std::exp(f(0)));
  case Builtin::FastLogf: return single(std::log(f(0)));
  case Builtin::FastSinf: return single(std::sin(f(0)));
  case Builtin::FastCosf: return single(std::cos(f(0)));
  case Builtin::FastTanf: return single(std::tan(f(0)));
  case Builtin::FastLog2f: return single(std::log2(f(0)));
  case Builtin::FastLog10f: return single(std::log10(f(0)));
  case Builtin::Exp2: return real(std::exp2(d(0)));
  case Builtin::Log2: return real(std::log2(d(0)));
  case Builtin::Log10: return real(std::log10(d(0)));
  case Builtin::Trunc: return real(std::trunc(d(0)));
  case Builtin::Round: return real(std::round(d(0)));
  case Builtin::Tanh: return real(std::tanh(d(0)));
  case Builtin::Atan: return real(std::atan(d(0)));
  case Builtin::Asin: return real(std::asin(d(0)));
  case Builtin::Acos: return real(std::acos(d(0)));
  case Builtin::Erf: return real(std::erf(d(0)));
  case Builtin::Cbrt: return real(std::cbrt(d(0)));
  case Builtin::Fmodf: return single(std::fmod(f(0), f(1)));
  case Builtin::Atan2f: return single(std::atan2(f(0), f(1)));
  case Builtin::Hypotf: return single(std::hypot(f(0), f(1)));
  case Builtin::FastPowf: return single(std::pow(f(0), f(1)));
  case Builtin::Fmod: return real(std::fmod(d(0), d(1)));
  case Builtin::Atan2: return real(std::atan2(d(0), d(1)));
  case Builtin::Hypot: return real(std::hypot(d(0), d(1)));
  // rsqrt: 1/sqrt(x); __exp10f: 10^x; __fdividef: x/y (CUDA Math API).
  case Builtin::Rsqrtf: return single(1.0f / std::sqrt(f(0)));
  case Builtin::Rsqrt: return real(1.0 / std::sqrt(d(0)));
  case Builtin::FastExp10f: return single(std::pow(10.0f, f(0)));
  case Builtin::FastFdividef: return single(f(0) / f(1));
  // fma: x*y+z rounded once (PTX ISA fma.rn).
  case Builtin::Fmaf: return single(std::fma(f(0), f(1), f(2)));
  case Builtin::Fma: return real(std::fma(d(0), d(1), d(2)));
  case Builtin::Clz: return word_from_int(std::countl_zero(w0), result);
  case Builtin::Clzll: return word_from_int(std::countl_zero(u0), result);
  case Builtin::Brev: {
    uint32_t v = w0, r = 0;
    for (int i = 0; i < 32; ++i, v >>= 1) r = (r << 1) | (v & 1);
    return word_from_int(r, result);
  }
  default: return 0;
  }
}

/** A fence's scope: Programming Guide 10.5, __threadfence_block / __threadfence /
 *  __threadfence_system. */
Scope fence_scope(Builtin fence) {
  return fence == Builtin::ThreadfenceBlock ? Scope::Block
         : fence == Builtin::Threadfence    ? Scope::Device
                                            : Scope::System;
}

/** An event of `kind` by `thread` at `range`, for the observer to be told of. */
Event observed_event(EventKind kind, const SimThread& thread, SourceRange range) {
  Event e;
  e.kind = kind;
  e.thread = thread.ref.id;
  e.range = range;
  return e;
}

} // namespace

Word Machine::Impl::call_builtin(SimThread& thread, const Call& call) {
  const ArgumentValues argument_values(call, [this, &thread](const Expr& arg) { return eval(thread, arg); });
  return apply_builtin(thread, call, argument_values.values());
}

void Machine::Impl::perform_fence(SimThread& thread, const Call& call) {
  const Scope scope = fence_scope(*call.builtin);
  fence_executed = true;
  thread.fenced = true;
  model->fence(thread.ref, scope);
  if (observing()) {
    Event e = observed_event(EventKind::Fence, thread, call.range);
    e.scope = scope;
    if (observer_wants_text) e.text = model->explain_last(thread.ref);
    emit(std::move(e));
  }
}

AtomicUpdate Machine::Impl::atomic_update(const SimThread& thread, const Call& call, std::span<const Word> args) const {
  AtomicUpdate update;
  update.op = atomic_builtin(*call.builtin)->op;
  update.type = call.args[0]->type.pointee();
  update.type.is_volatile = false;
  update.type.is_const = false;
  update.storage_type = update.type;
  update.unobserved = thread.discarded_value == &call && !fence_executed;
  update.unfenced = !thread.fenced;
  if (update.op == AtomicOp::CAS) {
    update.compare = args[1];
    update.operand = args[2];
  } else {
    update.operand = args[1];
  }
  return update;
}

Word Machine::Impl::apply_builtin(SimThread& thread, const Call& call, std::span<const Word> args) {
  const Builtin builtin = *call.builtin;
  switch (builtin_info(builtin).category) {
  case BuiltinCategory::Math: return math(builtin, args, call, call.type);
  case BuiltinCategory::Bits: return reinterpret_word(args[0], call.args[0]->type, call.type);
  case BuiltinCategory::Fence:
    before_visible_event(thread, EventKind::Fence, call.range);
    perform_fence(thread, call);
    return 0;
  case BuiltinCategory::Barrier:
    return wait_at_barrier(thread, builtin, !args.empty() && word_is_true(args[0], call.args[0]->type), call.range);
  case BuiltinCategory::Atomic: {
    const AtomicUpdate update = atomic_update(thread, call, args);
    thread.set_read_site(&call);
    return atomic(thread, args[0], update, atomic_builtin(builtin)->scope, call.range);
  }
  case BuiltinCategory::Warp: return perform_warp_builtin(*this, thread, call, args);
  case BuiltinCategory::Io: perform_printf(thread, call, args.subspan(1)); return 0;
  case BuiltinCategory::Clock:
    // The GPU's cycle counter has no meaning in a model with no time. What programs rely on is
    // that it grows: each read returns kClockStep more than the thread's previous one (a pure
    // function of the thread's own history, so a replay reads the same values), and a delay
    // loop `while (clock64() - start < N)` ends after N / kClockStep reads.
    return word_from_int(int64_t(++thread.clock_reads * kClockStep), call.type);
  case BuiltinCategory::Misc:
    // A failed device assertion stops the kernel (Programming Guide 10.36, Assertion).
    if (builtin == Builtin::Assert) {
      if (word_is_true(args[0], call.args[0]->type)) return 0;
      fault(thread, call.range, RuntimeErrorKind::AssertionFailed, "assertion failed");
    }
    fault(thread, call.range, "__trap() called: the kernel aborted");
  }
  return 0;
}

void Machine::Impl::perform_printf(SimThread& thread, const Call& call, std::span<const Word> args) {
  // A printf is no visible event, so a thread printing in a long loop does not come back to
  // the scheduling loop, which asks for the interrupt: asked here too (interrupts.cpp).
  if (++printf_calls % Machine::kInterruptInterval == 0 && choices->interrupted())
    fault(thread, call.range, "interrupted by the explorer", ExecutionStatus::StepLimit);
  std::vector<const Expr*> arg_exprs;
  for (size_t i = 1; i < call.args.size(); ++i) arg_exprs.push_back(call.args[i].get());
  // Sema requires a string literal (sema_builtins.cpp).
  const std::string_view format =
      call.args[0]->kind == ExprKind::StringLiteral ? std::string_view(as<StringLiteral>(*call.args[0]).value) : "";
  // Past the output kept (below), a call is only checked, unless an observer shows its text.
  const bool kept = output_bytes <= kMaxPrintfOutput || observing();
  FormattedPrint printed = format_printf(format, arg_exprs, args, kept);
  if (!printed.error.empty()) fault(thread, call.range, printed.error_kind, std::move(printed.error));
  if (!printed.warning.empty()) {
    RuntimeErrorReport report;
    report.diagnostic = Diagnostic{Severity::Warning, call.range, std::move(printed.warning)};
    report.thread = thread.ref.id;
    report.kind = RuntimeErrorKind::PrintfClamped;
    printf_warnings.push_back(std::move(report));
  }
  if (observing()) {
    Event e = observed_event(EventKind::Print, thread, call.range);
    e.text = printed.text;
    emit(std::move(e));
  }
  // Past the GPU's buffer (kMaxPrintfOutput) the output is dropped, said once.
  if (output_bytes > kMaxPrintfOutput) return;
  output_bytes += printed.text.size();
  if (output_bytes <= kMaxPrintfOutput) {
    output.push_back(std::move(printed.text));
    return;
  }
  output.push_back(fmt::format("[fencelab: printf output past {} bytes is left out, as the GPU's printf buffer "
                               "(1 MB by default, cudaLimitPrintfFifoSize) would lose it]\n",
                               kMaxPrintfOutput));
}

} // namespace fencelab
