// Replay tokens: one execution's decisions, printable and pasteable.
//
// Format: `MODEL:CHOICES`, where CHOICES lists each decision's answer as one character
// (0-9, a-z for 0..35; larger answers as `{N}`), and a run of three or more equal answers is
// written once followed by its length in brackets. Example: `sc:0110`, `gpu:0[12]a1`. Only decisions with
// more than one option are recorded, so the token is as short as the execution allows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fencelab {

struct ReplayToken {
  std::string model;
  std::vector<uint32_t> choices;

  std::string encode() const;
  /** The token for a text report: whole up to kDisplayLimit characters; a longer one (a large
   *  grid's random execution takes megabytes) is cut, saying its size and that --json gives
   *  it whole. */
  std::string display() const;
  static constexpr size_t kDisplayLimit = 200;
  /** Parses a token; on failure returns nullopt and sets `error`. */
  static std::optional<ReplayToken> decode(std::string_view text, std::string& error);
};

} // namespace fencelab
