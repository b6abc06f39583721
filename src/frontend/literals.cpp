// Values and types of literal tokens (C++ [lex.icon], [lex.fcon], [lex.ccon], [lex.string]).
#include "fencelab/frontend/parser.h"

#include <cstdlib>
#include <string>

namespace fencelab {

namespace {

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

LiteralValue failure(std::string message) {
  LiteralValue value;
  value.type = Type::of(ScalarType::Int);
  value.error = std::move(message);
  return value;
}

/** Decodes one escape sequence starting after the backslash at text[i]; advances i. */
bool decode_escape(std::string_view text, size_t& i, uint32_t& out) {
  if (i >= text.size()) return false;
  const char c = text[i++];
  switch (c) {
  case 'n': out = '\n'; return true;
  case 't': out = '\t'; return true;
  case 'r': out = '\r'; return true;
  case 'a': out = '\a'; return true;
  case 'b': out = '\b'; return true;
  case 'f': out = '\f'; return true;
  case 'v': out = '\v'; return true;
  case '\\': case '\'': case '"': case '?': out = uint8_t(c); return true;
  case 'x': {
    uint32_t value = 0;
    size_t digits = 0;
    while (i < text.size() && digit_value(text[i]) < 16 && digits < 8) {
      value = value * 16 + uint32_t(digit_value(text[i++]));
      ++digits;
    }
    out = value & 0xFF;
    return digits > 0;
  }
  default:
    if (c >= '0' && c <= '7') {
      uint32_t value = uint32_t(c - '0');
      for (int n = 0; n < 2 && i < text.size() && text[i] >= '0' && text[i] <= '7'; ++n)
        value = value * 8 + uint32_t(text[i++] - '0');
      out = value & 0xFF;
      return true;
    }
    return false;
  }
}

} // namespace

LiteralValue decode_integer_literal(std::string_view text) {
  size_t suffix = text.size();
  while (suffix > 0 && (text[suffix - 1] == 'u' || text[suffix - 1] == 'U' ||
                        text[suffix - 1] == 'l' || text[suffix - 1] == 'L'))
    --suffix;
  std::string suffix_text(text.substr(suffix));
  for (char& c : suffix_text) c = char(c | 0x20); // lower case
  const bool is_unsigned = suffix_text.find('u') != std::string::npos;
  const std::string length = [&] {
    std::string l;
    for (char c : suffix_text)
      if (c == 'l') l += c;
    return l;
  }();
  const bool valid_suffix = suffix_text == "" || suffix_text == "u" || suffix_text == "l" ||
                            suffix_text == "ul" || suffix_text == "lu" || suffix_text == "ll" ||
                            suffix_text == "ull" || suffix_text == "llu";
  std::string_view digits = text.substr(0, suffix);
  int base = 10;
  if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  } else if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) {
    base = 2;
    digits.remove_prefix(2);
  } else if (digits.size() > 1 && digits[0] == '0') {
    base = 8;
    digits.remove_prefix(1);
  }
  if (!valid_suffix || digits.empty())
    return failure("invalid integer literal '" + std::string(text) + "'");
  uint64_t value = 0;
  for (char c : digits) {
    if (c == '\'') continue; // digit separator
    const int d = digit_value(c);
    if (d >= base) return failure("invalid digit '" + std::string(1, c) + "' in integer literal");
    if (value > (UINT64_MAX - uint64_t(d)) / uint64_t(base))
      return failure("integer literal '" + std::string(text) + "' is too large");
    value = value * uint64_t(base) + uint64_t(d);
  }
  // The first type of the candidate list that can represent the value ([lex.icon] table 8).
  std::vector<ScalarType> candidates;
  const bool decimal = base == 10;
  if (length.empty() && !is_unsigned)
    candidates = decimal ? std::vector{ScalarType::Int, ScalarType::Long, ScalarType::LongLong}
                         : std::vector{ScalarType::Int, ScalarType::UInt, ScalarType::Long,
                                       ScalarType::ULong, ScalarType::ULongLong};
  else if (length.empty())
    candidates = {ScalarType::UInt, ScalarType::ULong, ScalarType::ULongLong};
  else if (length == "l" && !is_unsigned)
    candidates = decimal ? std::vector{ScalarType::Long, ScalarType::LongLong}
                         : std::vector{ScalarType::Long, ScalarType::ULong, ScalarType::ULongLong};
  else if (length == "l")
    candidates = {ScalarType::ULong, ScalarType::ULongLong};
  else if (!is_unsigned)
    candidates = decimal ? std::vector{ScalarType::LongLong}
                         : std::vector{ScalarType::LongLong, ScalarType::ULongLong};
  else
    candidates = {ScalarType::ULongLong};
  for (ScalarType scalar : candidates) {
    const uint32_t bits = scalar_size(scalar) * 8;
    const bool is_signed = scalar_is_signed(scalar);
    const uint64_t max = bits == 64 ? (is_signed ? uint64_t(INT64_MAX) : UINT64_MAX)
                                    : (uint64_t{1} << (is_signed ? bits - 1 : bits)) - 1;
    if (value <= max) {
      LiteralValue result;
      result.type = Type::of(scalar);
      result.bits = value;
      return result;
    }
  }
  return failure("integer literal '" + std::string(text) + "' is too large for its type");
}

LiteralValue decode_float_literal(std::string_view text) {
  std::string body(text);
  ScalarType scalar = ScalarType::Double;
  if (!body.empty() && (body.back() == 'f' || body.back() == 'F') &&
      !(body.size() > 1 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X') &&
        body.find_first_of("pP") == std::string::npos)) {
    scalar = ScalarType::Float;
    body.pop_back();
  } else if (!body.empty() && (body.back() == 'l' || body.back() == 'L')) {
    return failure("not supported: long double literal '" + std::string(text) + "'");
  }
  std::string digits;
  for (char c : body)
    if (c != '\'') digits += c;
  char* end = nullptr;
  const double value = std::strtod(digits.c_str(), &end);
  if (digits.empty() || end != digits.c_str() + digits.size())
    return failure("invalid floating-point literal '" + std::string(text) + "'");
  LiteralValue result;
  result.type = Type::of(scalar);
  result.bits = word_from_double(value, result.type);
  return result;
}

LiteralValue decode_char_literal(std::string_view text) {
  if (text.size() < 3 || text.back() != '\'' || text.front() != '\'')
    return failure("invalid character literal");
  std::string_view body = text.substr(1, text.size() - 2);
  uint32_t value = 0;
  size_t i = 0;
  if (body[0] == '\\') {
    i = 1;
    if (!decode_escape(body, i, value)) return failure("invalid escape sequence");
  } else {
    value = uint8_t(body[0]);
    i = 1;
  }
  if (i != body.size()) return failure("not supported: multi-character literal");
  LiteralValue result;
  result.type = Type::of(ScalarType::Char);
  result.bits = word_from_int(int8_t(uint8_t(value)), result.type);
  return result;
}

std::string decode_string_literal(std::string_view text, std::string& error) {
  std::string out;
  if (text.size() < 2 || text.back() != '"') {
    error = "unterminated string literal";
    return out;
  }
  std::string_view body = text.substr(1, text.size() - 2);
  for (size_t i = 0; i < body.size();) {
    if (body[i] != '\\') {
      out += body[i++];
      continue;
    }
    ++i;
    uint32_t value = 0;
    if (!decode_escape(body, i, value)) {
      error = "invalid escape sequence in string literal";
      return out;
    }
    out += char(value);
  }
  return out;
}

} // namespace fencelab
