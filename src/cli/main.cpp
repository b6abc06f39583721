// fencelab: a GPU memory-model simulator. See README.md for the commands.
#include "commands.h"
#include "suggestions.h"

#include <exception>
#include <fmt/format.h>

int main(int argc, char** argv) {
  using namespace fencelab::cli;
  CLI::App app{"fencelab: run CUDA kernels on a weakly ordered software GPU and list every outcome"};
  app.set_version_flag("--version", FENCELAB_VERSION);
  app.require_subcommand(1);
  app.footer(kExitCodeTable);
  int exit_code = kSuccess;
  add_run_command(app, exit_code);
  add_explore_command(app, exit_code);
  add_replay_command(app, exit_code);
  add_list_command(app, exit_code);
  add_explain_command(app, exit_code);
  add_check_command(app, exit_code);
  add_gpu_command(app, exit_code);
  add_compare_command(app, exit_code);
  add_draw_command(app, exit_code);
  add_report_command(app, exit_code);
  add_ptx_litmus_command(app, exit_code);
  // A misspelt command or option is named with the nearest one (suggestions.h).
  if (const int refused = check_command_line(app, argc, argv); refused >= 0) return refused;
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "fencelab: internal error: {}\n", e.what());
    return kInternalError;
  }
  return exit_code;
}
