#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/load.hpp"
#include "cli/registries.hpp"
#include "cli/summary.hpp"
#include "runtime/director_factory.hpp"
#include "runtime/duration.hpp"
#include "runtime/runner.hpp"

namespace cwf::cli {

namespace {

std::atomic<bool> g_stop_requested{false};

// First Ctrl-C: stop the sources and drain (the summary still prints, exit 0). Second: leave now.
extern "C" void on_interrupt(int) {
  if (g_stop_requested.exchange(true)) _exit(130);
}

double parse_number(const std::string& text, const char* option) {
  try {
    std::size_t used = 0;
    double value = std::stod(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  throw UsageError(std::string(option) + " expects a number (got '" + text + "')");
}

std::unique_ptr<Clock> make_clock(const Arguments& args) {
  if (args.value("speed") && args.value("clock").value_or("real") != "scaled")
    throw UsageError("--speed needs --clock scaled");
  std::string kind = args.value("clock").value_or("real");
  if (kind == "real") return std::make_unique<RealClock>();
  if (kind == "virtual") return std::make_unique<VirtualClock>();
  if (kind == "scaled") {
    double speed = parse_number(args.value("speed").value_or("1"), "--speed");
    if (!(speed > 0)) throw UsageError("--speed must be positive");
    return std::make_unique<ScaledClock>(RealClock().now(), speed);
  }
  throw UsageError("--clock must be real, virtual or scaled (got '" + kind + "')");
}

void apply_overrides(const Arguments& args, DirectorConfig& config) {
  if (auto d = args.value("director")) config.type = *d;
  if (auto s = args.value("scheduler")) {
    config.scheduler = *s;
    config.type = "scheduled";
  }
  if (auto w = args.value("workers")) {
    double number = parse_number(*w, "--workers");
    if (number != static_cast<int>(number) || number > 4096)
      throw UsageError("--workers must be a whole number up to 4096 (got '" + *w + "')");
    int workers = static_cast<int>(number);
    if (workers < 1) throw UsageError("--workers must be at least 1");
    config.workers = static_cast<unsigned>(workers);
  }
}

}  // namespace

int run_command(const Words& words, std::ostream& out, std::ostream& err) {
  std::unique_ptr<Workflow> workflow;
  std::unique_ptr<Director> director;
  std::unique_ptr<Clock> clock;
  RunOptions options;
  bool stats = false, progress = false;
  try {
    Arguments args(words, {"stats", "progress"},
                   {"director", "scheduler", "workers", "for", "clock", "speed", "set"});
    std::string path = workflow_path(args, "run");
    std::vector<ParamOverride> overrides;
    for (const std::string& text : args.values("set"))
      overrides.push_back(parse_param_override(text));
    workflow = load_or_report(path, err, overrides);
    if (!workflow) return 2;
    apply_overrides(args, workflow->director());
    director = make_director(workflow->director(), scheduler_registry());
    clock = make_clock(args);
    if (auto duration = args.value("for")) options.run_for = parse_duration(*duration);
    stats = args.flag("stats");
    progress = args.flag("progress") || isatty(STDERR_FILENO);
  } catch (const std::exception& e) {
    err << "cwf run: " << e.what() << "\n";
    return 2;
  }
  (void)out;

  g_stop_requested = false;
  options.stop_requested = &g_stop_requested;
  auto previous = std::signal(SIGINT, on_interrupt);
  auto started = std::chrono::steady_clock::now();
  std::function<void(const Execution&)> on_progress;
  if (progress)
    on_progress = [&](const Execution& execution) {
      print_progress(snapshot(execution),
                     std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now() - started)
                         .count(),
                     err);
    };
  int status = 0;
  try {
    RunSummary summary = run_workflow(*workflow, *director, *clock, options, on_progress);
    if (g_stop_requested) err << "cwf run: interrupted; sources stopped and queues drained\n";
    if (stats) print_summary(summary, err);
  } catch (const std::exception& e) {
    err << "cwf run: " << workflow->name() << ": " << e.what() << "\n";
    status = 1;
  }
  std::signal(SIGINT, previous);
  return status;
}

}  // namespace cwf::cli
