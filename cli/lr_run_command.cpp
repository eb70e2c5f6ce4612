// `cwf lr run`: the Linear Road workflow (workflows/linear_road.yaml) over an input file, with
// the input, answer and historical-toll paths set on its actors, and a summary of the answers.
#include <unistd.h>

#include <filesystem>
#include <iomanip>
#include <ostream>
#include <string>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/director_options.hpp"
#include "cli/exit_status.hpp"
#include "cli/load.hpp"
#include "cli/lr_paths.hpp"
#include "cli/registries.hpp"
#include "cli/summary.hpp"
#include "linear_road/answer_sink_actor.hpp"
#include "linear_road/source_actor.hpp"
#include "linear_road/workflow_location.hpp"
#include "runtime/execution/director_factory.hpp"
#include "runtime/execution/runner.hpp"

namespace cwf::cli {

namespace fs = std::filesystem;

namespace {

const char* kRunUsage =
    R"(usage: cwf lr run --input FILE --out FILE [--tolls FILE] [options]

Runs the Linear Road workflow over an input file and writes its answers, one per line, in the
product format (as cwf lr reference does), then prints the answers per type, the malformed input
lines (skipped), the position reports kept without their speed (outside 0..100; warnings) and
the speed.

  --input FILE        the input (15 comma-separated fields a line); FILE.xz is read decompressed
  --out FILE          where the answers go
  --tolls FILE        historical tolls for daily-expenditure queries; default
                      historical-tolls.dat or historical-tolls.dat.xz beside the input, if present
  --workflow FILE     the workflow to run; default workflows/linear_road.yaml in the current
                      directory, else beside the cwf program's source tree
  --compression K     release the tuple with Time t at t/K seconds (default 0: as fast as possible);
                      emit = time + response delay * K
  --director scheduled|threaded, --scheduler fifo|qbs|rr|rb, --workers N
                      override the workflow's director
  --set ACTOR.PARAM=VALUE
                      set a parameter of an actor of the workflow (repeatable; as cwf run
                      --set), after the paths above
  --stats             print per-actor statistics too
  --max-errors N|all  accept up to N input lines or events not processed completely (exit 0)

Exit status: 0 when every input line was processed and every answer written; 3 when lines were
rejected (malformed, out of time order) or answers may be lost; 2 for bad usage; 1 when the
run could not start.
)";

std::string absolute(const std::string& path) {
  return fs::absolute(path).lexically_normal().string();
}

template <class T>
T* find_actor(Workflow& workflow, const std::string& type) {
  for (ActorId id = 0; id < workflow.size(); ++id)
    if (workflow.actor(id).type == type) return dynamic_cast<T*>(workflow.actor(id).actor.get());
  return nullptr;
}

}  // namespace

int lr_run_command(const Words& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) {
    out << kRunUsage;
    return 0;
  }
  std::unique_ptr<Workflow> workflow;
  std::unique_ptr<Director> director;
  std::string input, output;
  bool stats = false;
  LossTolerance tolerance;
  try {
    Arguments parsed(args, {"stats"},
                     {"input", "out", "tolls", "workflow", "compression", "director", "scheduler",
                      "workers", "max-errors", "set"});
    if (!parsed.positional().empty())
      throw UsageError("unexpected argument '" + parsed.positional()[0] + "'");
    if (!parsed.value("input")) throw UsageError("--input FILE is required");
    if (!parsed.value("out")) throw UsageError("--out FILE is required");
    input = *parsed.value("input");
    output = *parsed.value("out");
    std::string tolls = parsed.value("tolls").value_or(default_tolls_path(input));
    std::string path = parsed.value("workflow").value_or(lr::find_linear_road_workflow());
    if (path.empty())
      throw UsageError(
          "cannot find workflows/linear_road.yaml (in the current directory or the source tree "
          "of this program); name it with --workflow FILE");
    stats = parsed.flag("stats");
    tolerance = LossTolerance::parse(parsed.value("max-errors"));
    // Paths given here are relative to the current directory, those in the file to the file.
    std::vector<ParamOverride> overrides = {
        {"input", "path", absolute(input)},
        {"answers", "path", absolute(output)},
        {"expenditures", "tolls", tolls.empty() ? "" : absolute(tolls)}};
    if (auto k = parsed.value("compression")) {
      overrides.push_back({"input", "compression", *k});
      overrides.push_back({"answers", "compression", *k});
    }
    for (ParamOverride& setting : param_overrides(parsed))
      overrides.push_back(std::move(setting));  // after ours: the user's have the last word
    workflow = load_or_report(path, err, overrides);
    if (!workflow) return 2;
    apply_director_options(parsed, workflow->director());
    director = make_director(workflow->director(), scheduler_registry());
  } catch (const std::exception& e) {
    err << "cwf lr run: " << e.what() << " (cwf lr run --help)\n";
    return 2;
  }

  auto* source = find_actor<lr::SourceActor>(*workflow, "lr_source");
  auto* sink = find_actor<lr::AnswerSinkActor>(*workflow, "lr_answer_sink");
  RealClock clock;
  RunSummary summary;
  try {
    summary = run_workflow(*workflow, *director, clock);
  } catch (const std::exception& e) {
    err << "cwf lr run: " << e.what() << "\n";
    return 1;
  }
  Timestamp finished = clock.now();

  out << "workflow: " << workflow->name() << ", director " << summary.director << "\n";
  if (source) {
    out << "input: " << source->lines() << " lines, " << source->emitted() << " tuples\n";
    print_rejects(source->rejects(), out);
    print_speeds_left_out(source->speeds_left_out(), out);
    if (source->out_of_order() > 0)
      out << "out of time order (skipped): " << source->out_of_order() << "\n";
  }
  if (sink) {
    const auto& a = sink->answers();
    out << "answers: " << (a[0] + a[1] + a[2] + a[3]) << " lines to " << output << "\n"
        << "  0 toll notifications:  " << a[0] << "\n"
        << "  1 accident alerts:     " << a[1] << "\n"
        << "  2 account balances:    " << a[2] << "\n"
        << "  3 daily expenditures:  " << a[3] << "\n";
  }
  if (source && source->first_fired() >= 0) {
    double seconds = static_cast<double>(finished - source->first_fired()) / kSecond;
    double rate = seconds > 0 ? static_cast<double>(source->lines()) / seconds : 0;
    out << "time: " << std::fixed << std::setprecision(2) << seconds << " s, "
        << std::setprecision(0) << rate << " tuples/s (from the first tuple to the last answer; "
        << std::setprecision(2) << static_cast<double>(summary.wall_time) / kSecond
        << " s with loading)\n";
  }
  if (stats) print_summary(summary, out);
  print_problems(summary, tolerance, err);
  return exit_status_of(summary, tolerance);
}

}  // namespace cwf::cli
