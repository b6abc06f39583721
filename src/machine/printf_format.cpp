// Device printf's formatting (printf_format.h).
#include "printf_format.h"

#include <climits>
#include <cstdio>
#include <fmt/format.h>
#include <optional>

namespace fencelab {

namespace {

/** One conversion specification, as written (C11 7.21.6.1p4). */
struct Conversion {
  std::string flags;
  bool width_from_argument = false;     ///< width '*'
  std::optional<long long> width;       ///< digits, saturated at LLONG_MAX / 10
  bool has_precision = false;           ///< a '.' was written
  bool precision_from_argument = false; ///< precision '*'
  long long precision = 0;              ///< digits after the '.' (none: 0)
  char type = '\0';
};

/** Decimal digits at `format[i]`, saturating (a width of 10^30 is as wrong as one of 10^10). */
long long read_digits(std::string_view format, size_t& i) {
  long long value = 0;
  for (; i < format.size() && format[i] >= '0' && format[i] <= '9'; ++i)
    value = value > LLONG_MAX / 100 ? LLONG_MAX / 10 : value * 10 + (format[i] - '0');
  return value;
}

/** Parses the specification after the '%' at `format[i]`; `i` ends on its type character (or
 *  at the end of the format, which has none). */
Conversion parse_conversion(std::string_view format, size_t& i) {
  Conversion c;
  while (i < format.size() && std::string_view("-+ #0").find(format[i]) != std::string_view::npos) c.flags += format[i++];
  if (i < format.size() && format[i] == '*') {
    c.width_from_argument = true;
    ++i;
  } else if (i < format.size() && format[i] >= '1' && format[i] <= '9') {
    c.width = read_digits(format, i);
  }
  if (i < format.size() && format[i] == '.') {
    c.has_precision = true;
    ++i;
    if (i < format.size() && format[i] == '*') {
      c.precision_from_argument = true;
      ++i;
    } else {
      c.precision = read_digits(format, i);
    }
  }
  // The size is the argument's, already known from its type here: skipped.
  while (i < format.size() && std::string_view("hlLzjt").find(format[i]) != std::string_view::npos) ++i;
  if (i < format.size()) c.type = format[i];
  return c;
}

/** The types the Guide lists, and F. */
bool known_type(char type) { return type != '\0' && std::string_view("cdiouxXpeEfFgGaAs").find(type) != std::string_view::npos; }

/** `text` printed with the C library's formatter and a spec of our own making (only the
 *  types above, their values converted to what the spec says). */
template <class Value> std::string c_format(const std::string& spec, Value value) {
  const int length = std::snprintf(nullptr, 0, spec.c_str(), value);
  if (length <= 0) return {};
  std::string out(size_t(length) + 1, '\0');
  std::snprintf(out.data(), out.size(), spec.c_str(), value);
  out.resize(std::char_traits<char>::length(out.c_str())); // a %c of 0 prints nothing, as before
  return out;
}

} // namespace

FormattedPrint format_printf(std::string_view format, std::span<const Expr* const> arg_exprs,
                             std::span<const Word> args, bool with_text) {
  FormattedPrint result;
  size_t next = 0; // the next argument
  // Clamps a width or precision to kMaxPrintfField, saying so once per call.
  const auto clamp = [&result](long long value, const char* what) {
    if (value <= kMaxPrintfField) return value;
    if (result.warning.empty())
      result.warning = fmt::format("printf: a field {} of {} is more than fencelab formats: clamped to {}", what, value,
                                   kMaxPrintfField);
    return static_cast<long long>(kMaxPrintfField);
  };
  // A '*' takes the next argument as an int (C11 7.21.6.1p5).
  const auto star_argument = [&](long long& value) {
    value = static_cast<int>(word_to_int(args[next], arg_exprs[next]->type));
    ++next;
  };
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      if (with_text) result.text += format[i];
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      if (with_text) result.text += '%';
      ++i;
      continue;
    }
    const size_t begin = i;
    ++i;
    Conversion c = parse_conversion(format, i);
    if (c.type == '\0') break; // a '%' that the format ends inside: nothing more to print
    const std::string written(format.substr(begin, i + 1 - begin));
    if (c.type == 'n') {
      result.error = fmt::format("printf: '{}' is not supported: %n stores a count through its argument, and the "
                                 "device printf has no such conversion (Programming Guide, \"Formatted Output\")",
                                 written);
      result.error_kind = RuntimeErrorKind::Unsupported;
      return result;
    }
    if (!known_type(c.type)) {
      result.error = fmt::format("printf: '{}' has no conversion type that the device printf knows (c d i o u x X p "
                                 "e E f F g G a A s; Programming Guide, \"Formatted Output\")",
                                 written);
      result.error_kind = RuntimeErrorKind::Unsupported;
      return result;
    }
    // Each '*' and then the value take an argument; too few is the call's error (the GPU would
    // print whatever its argument buffer holds).
    const size_t stars = size_t(c.width_from_argument) + size_t(c.precision_from_argument);
    const size_t left = args.size() - next;
    if (left < stars + 1) {
      result.error = stars == 0 ? fmt::format("printf: format needs an argument for '{}'", written)
                                : fmt::format("printf: format needs an argument for '*': '{}' takes {} (an int for "
                                              "each '*', then its value), and {} {} left",
                                              written, stars + 1, left, left == 1 ? "is" : "are");
      return result;
    }
    long long width = c.width.value_or(-1);
    if (c.width_from_argument) star_argument(width);
    long long precision = c.precision;
    if (c.precision_from_argument) star_argument(precision);
    std::string spec = "%" + c.flags;
    if (c.width_from_argument && width < 0) { // C11 7.21.6.1p5: a '-' flag and a positive width
      spec += '-';
      width = -width;
    }
    if (c.width || c.width_from_argument) spec += std::to_string(clamp(width, "width"));
    // A negative precision from '*' is as if none were written (C11 7.21.6.1p5).
    if (c.has_precision && precision >= 0) spec += "." + std::to_string(clamp(precision, "precision"));
    const Expr& e = *arg_exprs[next];
    const Word w = args[next++];
    if (!with_text) continue;
    switch (c.type) {
    case 'd':
    case 'i': result.text += c_format(spec + "lld", static_cast<long long>(word_to_int(w, e.type))); break;
    case 'u':
    case 'x':
    case 'X':
    case 'o':
      result.text += c_format(spec + "ll" + c.type,
                              static_cast<unsigned long long>(convert_word(w, e.type, Type::of(ScalarType::ULongLong))));
      break;
    case 'c': result.text += c_format(spec + "c", static_cast<int>(word_to_int(w, e.type))); break;
    case 's':
      result.text += c_format(spec + "s", e.kind == ExprKind::StringLiteral ? as<StringLiteral>(e).value.c_str()
                                                                            : "<string>");
      break;
    case 'p': result.text += c_format(std::string("0x%llx"), static_cast<unsigned long long>(w)); break;
    default: result.text += c_format(spec + c.type, word_to_double(w, e.type)); break;
    }
  }
  return result;
}

} // namespace fencelab
