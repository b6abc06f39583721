// "Did you mean": misspelt subcommands and options named with the nearest that exists.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace fencelab::cli {

/** Optimal string alignment distance (Levenshtein with transpositions of neighbours). */
size_t edit_distance(std::string_view a, std::string_view b);

/** The candidate nearest `name` if it is near enough to be a slip (at most a third of its
 *  characters off, at least one), else the one candidate `name` begins (3+ characters); else "". */
std::string closest_name(std::string_view name, const std::vector<std::string>& candidates);

/** Reads the command line before CLI11 does: an unknown subcommand (argv[1]) or an unknown long
 *  option of the subcommand is reported with the nearest name ("did you mean") or, for an option
 *  of other commands, which ones take it. Returns kBadInput after printing, or -1 to go on. */
int check_command_line(const CLI::App& app, int argc, const char* const* argv);

} // namespace fencelab::cli
