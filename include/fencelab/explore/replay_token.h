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
#include <utility>
#include <vector>

namespace fencelab {

struct ReplayToken {
  ReplayToken() = default;
  ReplayToken(std::string model_, std::vector<uint32_t> choices_) : model(std::move(model_)), choices(std::move(choices_)) {}

  std::string model;
  std::vector<uint32_t> choices;
  /** Made with spins awaited (ChoiceSource::awaits_spins) and resumed at the end (the reduction's
   *  executions that ExecutionResult::awaits_released marks): replayed the same way. Written
   *  as "+awaits" after the model ("gpu+awaits:0110"). */
  bool awaits = false;
  /** Where the whole token was written (--witness-dir), for display(); empty: nowhere. */
  std::string saved_to;

  std::string encode() const;
  /** The token for a text report: whole up to kDisplayLimit characters; a longer one (a large
   *  grid's random execution takes megabytes) is cut, saying its size and where it is whole
   *  (the file it was saved to, or --json). */
  std::string display() const;
  static constexpr size_t kDisplayLimit = 200;
  /** The name --witness-dir gives the token's file: "witness-" and a hash of the token, so a
   *  token met in several reports is written once. */
  std::string file_name() const;
  /** Parses a token; on failure returns nullopt and sets `error`. A token of more than
   *  `max_decisions` decisions is refused ("token too long: ...") before its runs are expanded:
   *  the caller passes what the launch it replays could use (Machine::max_decisions). */
  static std::optional<ReplayToken> decode(std::string_view text, std::string& error,
                                           uint64_t max_decisions = kMaxDecisions);
  /** The most decisions a token may hold whatever the launch (1 GiB of them): 50 times those
   *  of a random execution of the 2^20-thread reduction. */
  static constexpr uint64_t kMaxDecisions = uint64_t(1) << 28;
  /** The most characters a token (or its --token-file) may have. */
  static constexpr uint64_t kMaxTextSize = uint64_t(1) << 28;
};

} // namespace fencelab
