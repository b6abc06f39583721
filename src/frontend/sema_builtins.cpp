// Semantic analysis: calls of the builtin functions of builtins.def, checked per category.
#include "fencelab/frontend/sema.h"

#include <algorithm>
#include <string_view>

namespace fencelab {

namespace {

Type of(ScalarType scalar) { return Type::of(scalar); }

std::string arguments_text(size_t n) { return std::to_string(n) + (n == 1 ? " argument" : " arguments"); }

/** The element types an atomic accepts (Programming Guide 10.14), by the name without scope. */
std::vector<ScalarType> atomic_types(std::string_view base) {
  using S = ScalarType;
  // atomicAdd(__half*, __half): cuda_fp16.h, compute capability 7.x and higher.
  if (base == "atomicAdd") return {S::Int, S::UInt, S::ULongLong, S::Float, S::Double, S::Half};
  if (base == "atomicSub") return {S::Int, S::UInt};
  if (base == "atomicExch") return {S::Int, S::UInt, S::ULongLong, S::Float};
  if (base == "atomicMin" || base == "atomicMax") return {S::Int, S::UInt, S::ULongLong, S::LongLong};
  if (base == "atomicInc" || base == "atomicDec") return {S::UInt};
  return {S::Int, S::UInt, S::ULongLong}; // atomicCAS, atomicAnd, atomicOr, atomicXor
}

struct Signature {
  Type parameter;
  Type result;
};

/** Fixed signatures of the Math and Bits builtins; nullopt for the generic ones (abs, min, max). */
std::optional<Signature> fixed_signature(Builtin builtin) {
  using S = ScalarType;
  switch (builtin) {
  case Builtin::Sinf: case Builtin::Cosf: case Builtin::Tanf: case Builtin::Expf: case Builtin::Logf:
  case Builtin::Sqrtf: case Builtin::Powf: case Builtin::Fabsf: case Builtin::Floorf:
  case Builtin::Ceilf: case Builtin::Fmaxf: case Builtin::Fminf:
    return Signature{of(S::Float), of(S::Float)};
  case Builtin::Sin: case Builtin::Cos: case Builtin::Tan: case Builtin::Exp: case Builtin::Log:
  case Builtin::Sqrt: case Builtin::Pow: case Builtin::Fabs: case Builtin::Floor: case Builtin::Ceil:
  case Builtin::Fmax: case Builtin::Fmin:
    return Signature{of(S::Double), of(S::Double)};
  case Builtin::Popc: return Signature{of(S::UInt), of(S::Int)};
  case Builtin::Popcll: return Signature{of(S::ULongLong), of(S::Int)};
  case Builtin::Ffs: return Signature{of(S::Int), of(S::Int)};
  case Builtin::Ffsll: return Signature{of(S::LongLong), of(S::Int)};
  case Builtin::Clz: return Signature{of(S::Int), of(S::Int)};
  case Builtin::Clzll: return Signature{of(S::LongLong), of(S::Int)};
  case Builtin::Brev: return Signature{of(S::UInt), of(S::UInt)};
  case Builtin::Mul24: return Signature{of(S::Int), of(S::Int)};
  case Builtin::Umul24: return Signature{of(S::UInt), of(S::UInt)};
  case Builtin::Umin: case Builtin::Umax: return Signature{of(S::UInt), of(S::UInt)};
  case Builtin::Exp2f: case Builtin::Log2f: case Builtin::Log10f: case Builtin::Rsqrtf: case Builtin::Truncf:
  case Builtin::Roundf: case Builtin::Tanhf: case Builtin::Atanf: case Builtin::Asinf: case Builtin::Acosf:
  case Builtin::Erff: case Builtin::Cbrtf: case Builtin::FastExpf: case Builtin::FastLogf:
  case Builtin::FastSinf: case Builtin::FastCosf: case Builtin::FastTanf: case Builtin::FastExp10f:
  case Builtin::FastLog2f: case Builtin::FastLog10f: case Builtin::Fmodf: case Builtin::Atan2f:
  case Builtin::Hypotf: case Builtin::FastPowf: case Builtin::FastFdividef: case Builtin::Fmaf:
    return Signature{of(S::Float), of(S::Float)};
  case Builtin::Exp2: case Builtin::Log2: case Builtin::Log10: case Builtin::Rsqrt: case Builtin::Trunc:
  case Builtin::Round: case Builtin::Tanh: case Builtin::Atan: case Builtin::Asin: case Builtin::Acos:
  case Builtin::Erf: case Builtin::Cbrt: case Builtin::Fmod: case Builtin::Atan2: case Builtin::Hypot:
  case Builtin::Fma:
    return Signature{of(S::Double), of(S::Double)};
  case Builtin::Saturatef: return Signature{of(S::Float), of(S::Float)};
  case Builtin::FloatAsInt: return Signature{of(S::Float), of(S::Int)};
  case Builtin::FloatAsUint: return Signature{of(S::Float), of(S::UInt)};
  case Builtin::IntAsFloat: return Signature{of(S::Int), of(S::Float)};
  case Builtin::UintAsFloat: return Signature{of(S::UInt), of(S::Float)};
  case Builtin::DoubleAsLongLong: return Signature{of(S::Double), of(S::LongLong)};
  case Builtin::LongLongAsDouble: return Signature{of(S::LongLong), of(S::Double)};
  // cuda_fp16.h's declarations.
  case Builtin::Float2half: case Builtin::Float2halfRn: return Signature{of(S::Float), of(S::Half)};
  case Builtin::Double2half: return Signature{of(S::Double), of(S::Half)};
  case Builtin::Half2float: return Signature{of(S::Half), of(S::Float)};
  case Builtin::Int2halfRn: return Signature{of(S::Int), of(S::Half)};
  case Builtin::Half2intRn: case Builtin::Half2intRz: return Signature{of(S::Half), of(S::Int)};
  case Builtin::Hadd: case Builtin::Hsub: case Builtin::Hmul: case Builtin::Hdiv: case Builtin::Hneg:
  case Builtin::Habs: case Builtin::Hfma: case Builtin::Hmax: case Builtin::Hmin:
    return Signature{of(S::Half), of(S::Half)};
  case Builtin::Heq: case Builtin::Hne: case Builtin::Hlt: case Builtin::Hle: case Builtin::Hgt: case Builtin::Hge:
    return Signature{of(S::Half), of(S::Bool)};
  case Builtin::UshortAsHalf: return Signature{of(S::UShort), of(S::Half)};
  case Builtin::HalfAsUshort: return Signature{of(S::Half), of(S::UShort)};
  case Builtin::ShortAsHalf: return Signature{of(S::Short), of(S::Half)};
  case Builtin::HalfAsShort: return Signature{of(S::Half), of(S::Short)};
  default: return std::nullopt;
  }
}

/** Whether a GPU computes `builtin` only within some ulp of the correctly rounded value (CUDA
 *  Math API, "Mathematical Functions", the error bounds of each function; the fast intrinsics,
 *  Programming Guide "Intrinsic Functions"). Rounding, min/max, fmod, fma and sqrt (IEEE by
 *  default, -prec-sqrt=true) are exact there as here. */
bool gpu_computes_approximately(Builtin builtin) {
  switch (builtin) {
  case Builtin::Sin: case Builtin::Sinf: case Builtin::Cos: case Builtin::Cosf: case Builtin::Tan:
  case Builtin::Tanf: case Builtin::Exp: case Builtin::Expf: case Builtin::Log: case Builtin::Logf:
  case Builtin::Pow: case Builtin::Powf: case Builtin::Exp2f: case Builtin::Log2f: case Builtin::Log10f:
  case Builtin::Rsqrtf: case Builtin::Tanhf: case Builtin::Atanf: case Builtin::Asinf: case Builtin::Acosf:
  case Builtin::Erff: case Builtin::Cbrtf: case Builtin::Exp2: case Builtin::Log2: case Builtin::Log10:
  case Builtin::Rsqrt: case Builtin::Tanh: case Builtin::Atan: case Builtin::Asin: case Builtin::Acos:
  case Builtin::Erf: case Builtin::Cbrt: case Builtin::Atan2f: case Builtin::Hypotf: case Builtin::Atan2:
  case Builtin::Hypot: case Builtin::FastExpf: case Builtin::FastLogf: case Builtin::FastSinf:
  case Builtin::FastCosf: case Builtin::FastTanf: case Builtin::FastExp10f: case Builtin::FastLog2f:
  case Builtin::FastLog10f: case Builtin::FastPowf: case Builtin::FastFdividef: return true;
  default: return false;
  }
}

} // namespace

void Sema::check_builtin_call(Call& call, const BuiltinInfo& info) {
  for (ExprPtr& arg : call.args) check_expr(arg);
  call.builtin = info.id;
  const bool void_result = info.category == BuiltinCategory::Fence || info.category == BuiltinCategory::Misc ||
                           info.id == Builtin::Syncthreads || info.id == Builtin::Syncwarp;
  call.type = void_result ? of(ScalarType::Void) : of(ScalarType::Int);
  const size_t given = call.args.size();
  if (given < info.min_args || given > info.max_args) {
    const std::string expected = info.min_args == info.max_args
                                     ? arguments_text(info.min_args)
                                     : std::to_string(info.min_args) + " to " + arguments_text(info.max_args);
    error(call.range, "'" + call.callee + "' takes " + expected + ", but " + std::to_string(given) +
                          (given == 1 ? " was" : " were") + " given");
    return;
  }
  switch (info.category) {
  case BuiltinCategory::Math: case BuiltinCategory::Bits: return check_math_call(call, info);
  case BuiltinCategory::Atomic: return check_atomic_call(call, info);
  case BuiltinCategory::Fence: return;
  case BuiltinCategory::Clock:
    // clock_t clock() (a long on the 64-bit platforms CUDA supports); long long clock64().
    call.type = of(info.id == Builtin::Clock64 ? ScalarType::LongLong : ScalarType::Long);
    return;
  case BuiltinCategory::Misc:
    // assert(expression): any scalar, tested against zero as a condition is.
    if (info.id == Builtin::Assert && !call.args[0]->type.is_arithmetic() && !call.args[0]->type.is_pointer())
      error(call.args[0]->range, "'assert' needs a number or a pointer, not '" + call.args[0]->type.to_string() + "'");
    return;
  case BuiltinCategory::Barrier:
    // __syncthreads_count/_and/_or(int predicate) return int (Programming Guide 10.6).
    if (given == 1) convert(call.args[0], of(ScalarType::Int), "in the argument of '" + call.callee + "'");
    return;
  case BuiltinCategory::Warp: {
    // Programming Guide 10.21-10.22 and 10.6: every mask is an unsigned; __ballot_sync and
    // __activemask return unsigned, __any_sync/__all_sync int; __shfl*_sync(mask, T var,
    // int lane, int width = warpSize) return T for the overloads the Guide lists.
    const std::string where = "of '" + call.callee + "'";
    if (given >= 1) convert(call.args[0], of(ScalarType::UInt), "in the mask " + where);
    switch (info.id) {
    case Builtin::Activemask: call.type = of(ScalarType::UInt); return;
    case Builtin::BallotSync:
    case Builtin::AnySync:
    case Builtin::AllSync:
      convert(call.args[1], of(ScalarType::Int), "in the predicate " + where);
      call.type = of(info.id == Builtin::BallotSync ? ScalarType::UInt : ScalarType::Int);
      return;
    case Builtin::ShflSync:
    case Builtin::ShflUpSync:
    case Builtin::ShflDownSync:
    case Builtin::ShflXorSync: {
      ExprPtr& var = call.args[1];
      Type value = var->type;
      value.is_const = value.is_volatile = false;
      if (value.is_pointer() || !value.is_arithmetic()) {
        error(var->range, "'" + call.callee + "' shuffles int, unsigned, long long, unsigned long long, "
                          "float, double or __half values, not '" + var->type.to_string() + "'");
        return;
      }
      if (value.is_integer() && scalar_size(value.scalar) < 4) value = promote(var); // bool, char, short
      call.type = value;
      convert(call.args[2], of(ScalarType::Int), "in the lane argument " + where);
      if (given == 4) convert(call.args[3], of(ScalarType::Int), "in the width " + where);
      return;
    }
    default: return; // __syncwarp
    }
  }
  case BuiltinCategory::Io: {
    if (call.args[0]->kind != ExprKind::StringLiteral)
      error(call.args[0]->range, "the first argument of printf must be a string literal");
    // Default argument promotions (C++ [expr.call]/12): float to double, small integers to int.
    for (size_t i = 1; i < given; ++i) {
      ExprPtr& arg = call.args[i];
      if (arg->type.scalar == ScalarType::Float && !arg->type.is_pointer()) insert_cast(arg, of(ScalarType::Double));
      else if (arg->type.is_integer()) promote(arg);
      else if (arg->type.is_void()) error(arg->range, "a void value cannot be printed");
      else if (arg->type.scalar == ScalarType::Half && !arg->type.is_pointer())
        // A class object passed through `...` prints its bits, not its value, on the device.
        error(arg->range, "printf cannot print a __half (it is a struct in CUDA); pass __half2float(h)");
    }
    return;
  }
  }
}

// atomicOP(T* address, T value...): T one of the types the Programming Guide lists for OP;
// returns the old value, a T.
void Sema::check_atomic_call(Call& call, const BuiltinInfo& info) {
  std::string_view base = info.spelling;
  for (std::string_view suffix : {"_block", "_system"}) {
    if (base.size() > suffix.size() && base.substr(base.size() - suffix.size()) == suffix)
      base.remove_suffix(suffix.size());
  }
  const std::vector<ScalarType> allowed = atomic_types(base);
  const Type address = call.args[0]->type;
  bool ok = address.pointer_depth == 1;
  if (ok) {
    ok = false;
    for (ScalarType scalar : allowed) ok = ok || address.scalar == scalar;
  }
  if (!ok) {
    std::string names;
    for (size_t i = 0; i < allowed.size(); ++i) {
      names += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ");
      names += scalar_spelling(allowed[i]);
    }
    error(call.args[0]->range, "'" + call.callee + "' needs a pointer to " + names +
                                   " as its first argument, not '" + address.to_string() + "'");
    return;
  }
  if (address.pointee_const) {
    error(call.args[0]->range, "'" + call.callee + "' cannot modify a const location");
    return;
  }
  Type value = address.pointee();
  value.is_const = value.is_volatile = false;
  for (size_t i = 1; i < call.args.size(); ++i)
    convert(call.args[i], value, "in argument " + std::to_string(i + 1) + " of '" + call.callee + "'");
  call.type = value;
}

// Math: the C/CUDA signatures; `sin` on a float promotes to double as in C, `sinf` stays float,
// `abs` keeps the (promoted) type, `min`/`max` use the usual arithmetic conversions.
void Sema::check_math_call(Call& call, const BuiltinInfo& info) {
  for (const ExprPtr& arg : call.args) {
    if (!arg->type.is_arithmetic()) {
      error(arg->range, "'" + call.callee + "' needs a number, not '" + arg->type.to_string() + "'");
      return;
    }
  }
  if (gpu_computes_approximately(info.id)) {
    std::vector<std::string>& names = m_program.approximate_math;
    const auto at = std::lower_bound(names.begin(), names.end(), call.callee);
    if (at == names.end() || *at != call.callee) names.insert(at, call.callee);
  }
  if (std::optional<Signature> signature = fixed_signature(info.id)) {
    for (size_t i = 0; i < call.args.size(); ++i)
      convert(call.args[i], signature->parameter, "in argument " + std::to_string(i + 1) + " of '" + call.callee + "'");
    call.type = signature->result;
    return;
  }
  switch (info.id) {
  case Builtin::Abs:
    call.type = promote(call.args[0]);
    return;
  case Builtin::Min: case Builtin::Max:
    call.type = usual_arithmetic_conversions(call.args[0], call.args[1]);
    return;
  default:
    error(call.callee_range, "internal: no signature for builtin '" + call.callee + "'");
  }
}

} // namespace fencelab
