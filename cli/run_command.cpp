#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <optional>
#include <ostream>
#include <set>

#include "actors/stdout_sink.hpp"
#include "cli/commands.hpp"
#include "cli/director_options.hpp"
#include "cli/load.hpp"
#include "cli/process_options.hpp"
#include "cli/registries.hpp"
#include "cli/resumable_run.hpp"
#include "cli/run_checkpoints.hpp"
#include "cli/summary.hpp"
#include "runtime/execution/director_factory.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/time/duration.hpp"

namespace cwf::cli {

namespace {

const char* kRunUsage =
    R"(usage: cwf run FILE.yaml [options]

Runs a workflow until its sources are exhausted (or --for, or Ctrl-C: the first stops the sources
and drains what is queued, the second leaves at once).

  --director scheduled|threaded   override the workflow's director
  --scheduler NAME                scheduling policy of the scheduled director: fifo, qbs, rr, rb
  --workers N                     worker threads of the scheduled director (default: cores)
  --for DURATION                  stop the sources after this long (e.g. 60s, 5 min), then drain
  --grace DURATION                with --for: how long the run may take after it to process
                                  what is queued (default 5s); what is left is dropped
  --max-errors N|all              accept up to N events not processed completely (exit 0)
  --capacity N|unbounded          events a connection may hold (default: the file's `queues:`,
                                  else 16384); connections that set their own keep it
  --clock real|virtual|scaled     workflow clock (default: the file's `clock:`, else real);
                                  --speed K for scaled
  --stats                         print per-actor statistics and the peak memory at the end
  --progress                      print a progress line every few seconds (default on a terminal)
  --set ACTOR.PARAM=VALUE         set a parameter of an actor of the file before it is built
                                  (repeatable; VALUE as in YAML; a relative path is relative to
                                  the current directory); ACTOR.PORT.window.FIELD=VALUE sets the
                                  size, step, timeout, delete_used or suppress_empty of the
                                  window on an input port
  --line-buffered                 write every line of the stdout actors as soon as it is made,
                                  also into a pipe or a file (default: in blocks there, per
                                  firing on a terminal)

Several processes (docs/workflow-yaml.md, "Processes"; `cwf deploy` starts them all):
  --process K/N                   run only the actors that process K of N runs (the file's
                                  `placement:`, else replica r in process r mod N and every other
                                  actor in 0); connections to the others go over NATS
  --nats URL                      the NATS server of the links (default nats://127.0.0.1:4222)
  --run-id ID                     keeps the links of one deployment apart from another's on the
                                  same server (default: run)
  --place ACTOR=K                 run ACTOR (an actor, all its replicas, or one: tolls[1]) in
                                  process K (repeatable; after the file's placement)

Checkpoints (docs/architecture.md, "Checkpoints"):
  --checkpoint-dir DIR            write a checkpoint of the whole run into DIR (created if
                                  missing) every --checkpoint-every (default 10s)
  --checkpoint-keep N             checkpoints kept in DIR (default 3)
  --resume DIR                    continue from DIR's latest checkpoint that reads, verifies and
                                  fits the workflow (from the beginning when DIR has none), and
                                  write on into DIR: file sinks are cut back to the checkpoint,
                                  so a run killed at any moment and resumed writes each line
                                  once; standard output repeats what followed the checkpoint

Exit status: 0 everything was processed and every sink confirmed its output; 1 the run could not
start or failed; 2 bad usage or a file that does not load; 3 events were rejected, failed,
dropped, late or possibly lost (listed per actor on standard error).
)";

std::atomic<bool> g_stop_requested{false};

// First Ctrl-C: stop the sources and drain (the summary still prints, exit 0). Second: leave now.
extern "C" void on_interrupt(int) {
  if (g_stop_requested.exchange(true)) _exit(130);
}

// --clock, else the clock the workflow file asks for, else the real clock.
std::unique_ptr<Clock> make_clock(const Arguments& args, const Workflow& workflow) {
  if (args.value("speed") && args.value("clock").value_or("real") != "scaled")
    throw UsageError("--speed needs --clock scaled");
  std::string kind =
      args.value("clock").value_or(workflow.clock().empty() ? "real" : workflow.clock());
  if (kind == "real") return std::make_unique<RealClock>();
  if (kind == "virtual") return std::make_unique<VirtualClock>();
  if (kind == "scaled") {
    double speed = parse_number(args.value("speed").value_or("1"), "--speed");
    if (!(speed > 0)) throw UsageError("--speed must be positive");
    return std::make_unique<ScaledClock>(RealClock().now(), speed);
  }
  throw UsageError("--clock must be real, virtual or scaled (got '" + kind + "')");
}

}  // namespace

int run_command(const Words& words, std::ostream& out, std::ostream& err) {
  if (wants_help(words)) {
    out << kRunUsage;
    return 0;
  }
  BuiltRun run;
  RunOptions options;
  bool stats = false, progress = false;
  LossTolerance tolerance;
  CheckpointOptions checkpoint_options;
  std::optional<Arguments> parsed;
  std::string path;
  ProcessOptions process_options;
  // The workflow, its director and its clock, built again for each checkpoint a resumed run
  // tries (a failed restore leaves the workflow unusable). False: reported, exit 2.
  auto build = [&](BuiltRun& into) -> bool {
    const Arguments& args = *parsed;
    // A process needs the files of its own actors only: the others' are looked at once the
    // placement says whose they are.
    std::vector<LoadWarning> missing_inputs;
    into.workflow = load_or_report(path, err, param_overrides(args),
                                   process_options.enabled() ? &missing_inputs : nullptr);
    if (!into.workflow) return false;
    // An actor of a sub-workflow is not placed by name: its composite's process needs its files.
    std::vector<bool> top_level;
    for (const LoadWarning& missing : missing_inputs)
      top_level.push_back(ProcessOptions::runs(*into.workflow, missing.actor));
    try {
      process_options.apply(into.workflow);
    } catch (const WorkflowError& e) {
      err << "cwf run: " << path << ": " << e.what() << "\n";
      return false;
    }
    bool inputs_missing = false;
    for (std::size_t i = 0; i < missing_inputs.size(); ++i)
      if (!top_level[i] || ProcessOptions::runs(*into.workflow, missing_inputs[i].actor)) {
        err << "cwf: " << missing_inputs[i].location.to_string() << ": "
            << missing_inputs[i].message << "\n";
        inputs_missing = true;
      }
    if (inputs_missing) return false;
    Workflow* workflow = into.workflow.get();
    apply_director_options(args, workflow->director());
    if (auto capacity = args.value("capacity")) {
      QueueLimits limits = workflow->queue_defaults();
      if (*capacity == "unbounded") {
        limits.capacity = QueueLimits::kUnbounded;
      } else {
        double n = parse_number(*capacity, "--capacity");
        if (!(n >= 1) || n != static_cast<double>(static_cast<std::uint64_t>(n)))
          throw UsageError("--capacity must be a positive number of events or unbounded (got '" +
                           *capacity + "')");
        limits.capacity = static_cast<std::uint64_t>(n);
      }
      workflow->set_queue_defaults(limits);
    }
    into.director = make_director(workflow->director(), scheduler_registry());
    into.clock = make_clock(args, *workflow);
    return true;
  };
  try {
    std::set<std::string> valued = {"director", "scheduler", "workers", "for",        "grace",
                                    "clock",    "speed",     "set",     "max-errors", "capacity"};
    valued.insert(std::begin(kCheckpointValuedOptions), std::end(kCheckpointValuedOptions));
    valued.insert(std::begin(kProcessValuedOptions), std::end(kProcessValuedOptions));
    parsed.emplace(words, std::set<std::string>{"stats", "progress", "line-buffered"}, valued);
    const Arguments& args = *parsed;
    path = workflow_path(args, "run");
    checkpoint_options = CheckpointOptions::parse(args);
    process_options = ProcessOptions::parse(args);
    if (process_options.enabled() && checkpoint_options.enabled())
      throw UsageError(
          "checkpoints do not cover a workflow over several processes yet: "
          "--process cannot go with --checkpoint-dir or --resume");
    if (!build(run)) return kExitUsage;
    if (checkpoint_options.enabled())
      if (std::string refusal = RunCheckpoints::refusal(*run.workflow); !refusal.empty()) {
        err << "cwf run: " << path << ": " << refusal << "\n";
        return kExitUsage;
      }
    if (auto duration = args.value("for")) options.run_for = parse_duration(*duration);
    if (auto grace = args.value("grace")) {
      if (!options.run_for) throw UsageError("--grace only applies with --for");
      options.finish_grace = parse_duration(*grace);
    }
    tolerance = LossTolerance::parse(args.value("max-errors"));
    stats = args.flag("stats");
    actors::set_stdout_line_buffered(args.flag("line-buffered"));
    progress = args.flag("progress") || isatty(STDERR_FILENO);
  } catch (const std::exception& e) {
    err << "cwf run: " << e.what() << "\n";
    return kExitUsage;
  }

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
  int status = kExitOk;
  std::unique_ptr<RunCheckpoints> checkpoints;
  try {
    if (checkpoint_options.enabled()) {
      checkpoints = std::make_unique<RunCheckpoints>(checkpoint_options);
      options.checkpoint_every = checkpoint_options.every;
      options.checkpoint_skipped = [&] { checkpoints->skipped(err); };
      if (checkpoint_options.resume && checkpoints->numbers_newest_first().empty())
        err << "cwf run: no checkpoint in " << checkpoint_options.directory->string()
            << " yet: starting from the beginning\n";
    }
    RunSummary summary = run_resuming(run, build, checkpoints.get(), checkpoint_options.resume,
                                      options, on_progress, "cwf run", err);
    if (g_stop_requested) err << "cwf run: interrupted; sources stopped and queues drained\n";
    if (checkpoints) checkpoints->report(err);
    if (stats) {
      print_summary(summary, err);
      rusage usage{};
      if (getrusage(RUSAGE_SELF, &usage) == 0)
        err << "peak memory " << (usage.ru_maxrss + 512) / 1024 << " MB (resident)\n";
    }
    print_problems(summary, tolerance, err);
    status = exit_status_of(summary, tolerance);
  } catch (const std::exception& e) {
    err << "cwf run: " << (run.workflow ? run.workflow->name() : path) << ": " << e.what() << "\n";
    status = kExitFailed;
  }
  std::signal(SIGINT, previous);
  return status;
}

}  // namespace cwf::cli
