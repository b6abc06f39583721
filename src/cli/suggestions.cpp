// "Did you mean" for a misspelt subcommand or option (issue 71): the command line is read
// before CLI11 parses it, since CLI11 says "A subcommand is required" of `fencelab explor K.cu`
// and "The following arguments were not expected: K.cu --modle" of a misspelt option.
#include "suggestions.h"

#include "commands.h"

#include <algorithm>
#include <fmt/format.h>
#include <string_view>
#include <vector>

namespace fencelab::cli {

size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance: insertions, deletions, substitutions and transpositions
  // of two neighbouring characters each cost 1 ("modle" is one step from "model").
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates) {
  // Near enough to be a slip: at most a third of the name's characters (and at least one),
  // or the name a prefix of exactly one candidate ("expl" is not: explore, explain).
  const size_t allowed = std::max<size_t>(1, name.size() / 3);
  std::string best;
  size_t best_distance = allowed + 1;
  for (const std::string& candidate : candidates) {
    const size_t distance = edit_distance(name, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  if (!best.empty()) return best;
  std::vector<std::string> prefixed;
  for (const std::string& candidate : candidates)
    if (name.size() >= 3 && candidate.starts_with(name)) prefixed.push_back(candidate);
  return prefixed.size() == 1 ? prefixed.front() : std::string();
}

namespace {

/** Every subcommand of `app` (CLI11's get_subcommands() without a filter lists only the
 *  ones given on the command line). */
std::vector<const CLI::App*> all_subcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App*) { return true; });
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* command : all_subcommands(app)) names.push_back(command->get_name());
  return names;
}

/** Every long name ("--model") of `command`'s options, the help flag's included. */
std::vector<std::string> long_option_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options())
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  return names;
}

/** The subcommands that do take `option`, to say where an option left out of one belongs. */
std::vector<std::string> commands_with(const CLI::App& app, const std::string& option) {
  std::vector<std::string> names;
  for (const CLI::App* command : all_subcommands(app)) {
    const std::vector<std::string> options = long_option_names(*command);
    if (std::find(options.begin(), options.end(), option) != options.end()) names.push_back(command->get_name());
  }
  return names;
}

} // namespace

int check_command_line(const CLI::App& app, int argc, const char* const* argv) {
  if (argc < 2) return -1;
  const std::string first = argv[1];
  if (first.empty() || first.front() == '-') return -1; // --help, --version: CLI11's
  const std::vector<std::string> commands = subcommand_names(app);
  if (std::find(commands.begin(), commands.end(), first) == commands.end()) {
    const std::string suggestion = closest_name(first, commands);
    fmt::print(stderr, "fencelab: error: '{}' is not a command{}; the commands are {} (fencelab --help)\n", first,
               suggestion.empty() ? "" : fmt::format(" (did you mean '{}'?)", suggestion), fmt::join(commands, ", "));
    return kBadInput;
  }
  const std::vector<std::string> options = long_option_names(*app.get_subcommand(first));
  for (int i = 2; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--") break; // what follows is positional
    if (!argument.starts_with("--")) continue; // values, files, tokens, and short options (CLI11's)
    const std::string name = argument.substr(0, argument.find('='));
    if (std::find(options.begin(), options.end(), name) != options.end()) continue;
    const std::string suggestion = closest_name(name, options);
    const std::vector<std::string> elsewhere = commands_with(app, name);
    std::string hint;
    if (!suggestion.empty()) hint = fmt::format(" (did you mean '{}'?)", suggestion);
    else if (!elsewhere.empty()) hint = fmt::format(" ({} is an option of {}, not of {})", name, fmt::join(elsewhere, ", "), first);
    fmt::print(stderr, "fencelab {}: error: unknown option '{}'{}; fencelab {} --help lists its options\n", first, name,
               hint, first);
    return kBadInput;
  }
  return -1;
}

} // namespace fencelab::cli
