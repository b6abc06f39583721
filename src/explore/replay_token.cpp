#include "fencelab/explore/replay_token.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <fmt/format.h>

namespace fencelab {

namespace {

/** Where an encoding goes: its first `keep` characters into `text`, and its whole length
 *  counted, so that a token of millions of decisions can be shown short (display) without
 *  being built whole (5% of a 2^20-thread reduction's run once did that to print its length). */
struct TokenText {
  std::string text;
  size_t keep = std::string::npos;
  size_t size = 0;
  void append(const char* chars, size_t count) {
    if (text.size() < keep) text.append(chars, std::min(count, keep - text.size()));
    size += count;
  }
  void append(char c) { append(&c, 1); }
};

/** `value` in decimal between `open` and `close`. Written in place: a token of a large grid has
 *  millions of such numbers, and formatting each into a string of its own took an eighth of a
 *  2^16-thread execution. */
void append_number(TokenText& out, char open, uint64_t value, char close) {
  char digits[22];
  digits[0] = open;
  char* end = std::to_chars(digits + 1, digits + sizeof digits - 1, value).ptr;
  *end++ = close;
  out.append(digits, size_t(end - digits));
}

void append_choice(TokenText& out, uint32_t choice) {
  if (choice < 10) out.append(char('0' + choice));
  else if (choice < 36) out.append(char('a' + (choice - 10)));
  else append_number(out, '{', choice, '}');
}

/** How many decimal digits `value` has. The bit width b bounds it: the digits less one are
 *  floor(b * log10 2) or one less (1233 / 4096 is log10 2 to four places), and one comparison
 *  with that power of ten decides (checked at both ends of every width and around every power
 *  of ten). `value | 1` has the digits of `value` (no power of ten is odd but 1) and gives 0
 *  one digit. */
size_t decimal_digits(uint64_t value) {
  static constexpr uint64_t kPowersOfTen[20] = {
      1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull, 1000000000ull,
      10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull, 100000000000000ull,
      1000000000000000ull, 10000000000000000ull, 100000000000000000ull, 1000000000000000000ull,
      10000000000000000000ull};
  value |= 1;
  const size_t below = (size_t(std::bit_width(value)) * 1233) >> 12; // digits - 1, or one less
  return below + (value >= kPowersOfTen[below] ? 1 : 0);
}

/** How many characters append_number writes for `value`: its digits and the two brackets. */
size_t number_length(uint64_t value) { return decimal_digits(value) + 2; }

size_t choice_length(uint32_t choice) { return choice < 36 ? 1 : number_length(choice); }

void encode_into(const ReplayToken& token, TokenText& out) {
  const std::string head = token.model + (token.awaits ? "+awaits:" : ":");
  out.append(head.data(), head.size());
  const std::vector<uint32_t>& choices = token.choices;
  for (size_t i = 0; i < choices.size();) {
    size_t run = 1;
    while (i + run < choices.size() && choices[i + run] == choices[i]) ++run;
    if (out.text.size() >= out.keep) {
      // Only counted from here on (display): the same lengths as the appends below.
      out.size += choice_length(choices[i]) * (run == 2 ? 2 : 1) + (run >= 3 ? number_length(run) : 0);
      i += run;
      continue;
    }
    append_choice(out, choices[i]);
    if (run >= 3) {
      append_number(out, '[', run, ']');
    } else if (run == 2) {
      append_choice(out, choices[i]);
    }
    i += run;
  }
}

std::string too_long(uint64_t max_decisions) {
  return fmt::format("token too long: it has more than {} decisions, more than any execution of this launch can make",
                     max_decisions);
}

} // namespace

std::string ReplayToken::encode() const {
  TokenText out;
  encode_into(*this, out);
  return std::move(out.text);
}

std::optional<ReplayToken> ReplayToken::decode(std::string_view text, std::string& error, uint64_t max_decisions) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0) {
    error = "a replay token has the form MODEL:CHOICES, e.g. sc:0110";
    return std::nullopt;
  }
  ReplayToken token;
  token.model = std::string(text.substr(0, colon));
  constexpr std::string_view kAwaits = "+awaits";
  if (token.model.size() > kAwaits.size() && token.model.ends_with(kAwaits)) {
    token.model.resize(token.model.size() - kAwaits.size());
    token.awaits = true;
  }
  const std::string_view body = text.substr(colon + 1);
  auto read_number = [&](size_t& i, uint32_t& value) {
    const char* begin = body.data() + i;
    const auto [end, ec] = std::from_chars(begin, body.data() + body.size(), value);
    if (ec != std::errc() || end == begin) return false;
    i += size_t(end - begin);
    return true;
  };
  for (size_t i = 0; i < body.size();) {
    const char c = body[i];
    uint32_t value = 0;
    if (c >= '0' && c <= '9') {
      value = uint32_t(c - '0');
      ++i;
    } else if (c >= 'a' && c <= 'z') {
      value = uint32_t(c - 'a' + 10);
      ++i;
    } else if (c == '{') {
      ++i;
      if (!read_number(i, value) || i >= body.size() || body[i] != '}') {
        error = fmt::format("malformed {{N}} at position {} of the token", colon + 1 + i);
        return std::nullopt;
      }
      ++i;
    } else if (c == '[' && !token.choices.empty()) {
      ++i;
      uint32_t count = 0;
      if (!read_number(i, count) || count < 3 || i >= body.size() || body[i] != ']') {
        error = fmt::format("malformed repeat count at position {} of the token", colon + 1 + i);
        return std::nullopt;
      }
      ++i;
      // Counted before it is expanded: `sc:0[4294967295]`, sixteen characters, asked for 16 GB.
      if (count - 1 > max_decisions - token.choices.size()) {
        error = too_long(max_decisions);
        return std::nullopt;
      }
      token.choices.insert(token.choices.end(), count - 1, token.choices.back());
      continue;
    } else {
      error = fmt::format("unexpected '{}' at position {} of the token", c, colon + 1 + i);
      return std::nullopt;
    }
    if (token.choices.size() >= max_decisions) {
      error = too_long(max_decisions);
      return std::nullopt;
    }
    token.choices.push_back(value);
  }
  return token;
}

std::string ReplayToken::display() const {
  TokenText out;
  out.keep = kDisplayLimit + 1; // enough to tell whether it is longer
  encode_into(*this, out);
  std::string token = std::move(out.text);
  if (out.size <= kDisplayLimit) return token;
  const size_t size = out.size;
  token.resize(kDisplayLimit / 2);
  if (!saved_to.empty())
    return fmt::format("{}... (a token of {} characters, {} decisions, whole in {}: replay --token-file)", token, size,
                       choices.size(), saved_to);
  return fmt::format("{}... (a token of {} characters, {} decisions: --json prints it whole, --witness-dir saves it)",
                     token, size, choices.size());
}

std::string ReplayToken::file_name() const {
  // FNV-1a, 64 bits: a name, not a security measure.
  uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : encode()) hash = (hash ^ uint8_t(c)) * 0x100000001b3ull;
  return fmt::format("witness-{:016x}.token", hash);
}

} // namespace fencelab
