// Number-valued options, checked before CLI11 converts them (commands.h). CLI11 2.1 reads an
// unsigned option with strtoull in base 0, so "-1" and "99999999999999999999" became 2^64-1
// and "010" was eight; its Range and PositiveNumber checks compare, and every comparison with
// a NaN is false, so `--bias nan` and `--time-limit nan` passed (hardening issue 68 F).
#include "commands.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <limits>

namespace fencelab::cli {

CLI::Validator whole_number(uint64_t min) {
  return CLI::Validator(
      [min](std::string& text) -> std::string {
        uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, status] = std::from_chars(text.data(), end, value);
        const bool digits_only = !text.empty() && stop == end && text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits_only) return fmt::format("'{}' is not a whole number", text);
        if (status == std::errc::result_out_of_range)
          return fmt::format("{} is out of range: at most {}", text, std::numeric_limits<uint64_t>::max());
        if (value < min) return fmt::format("{} is too small: at least {}", text, min);
        text = std::to_string(value); // decimal, whatever CLI11 would make of a leading 0
        return {};
      },
      min == 0 ? "UINT" : "POSITIVE UINT");
}

CLI::Validator finite_number(double min, double max, bool min_allowed) {
  return CLI::Validator(
      [min, max, min_allowed](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size()) return fmt::format("'{}' is not a number", text);
        if (!std::isfinite(value)) return fmt::format("{} is not a finite number", text);
        if (value < min || (!min_allowed && value == min) || value > max)
          return fmt::format("{} is out of range: {} {:g}{}", text, min_allowed ? "from" : "more than", min,
                             std::isfinite(max) ? fmt::format(" to {:g}", max) : std::string());
        return {};
      },
      "NUMBER");
}

} // namespace fencelab::cli
