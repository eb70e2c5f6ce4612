// Running workflows/linear_road.yaml from tests: the registries of the cwf program, input files
// written from records, and answer files read back as sorted lines without `emit` (the
// workflow's emit depends on timing; the reference's is the input time).
#pragma once

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "actors/register.hpp"
#include "linear_road/answer_sink_actor.hpp"
#include "linear_road/records.hpp"
#include "linear_road/register_actors.hpp"
#include "linear_road/source_actor.hpp"
#include "runtime/execution/director_factory.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/loading/workflow_loader.hpp"
#include "schedulers/register.hpp"
#include "tests/sanitizer_build.hpp"

namespace cwf::lr::testing {

inline const ActorRegistry& workflow_actor_registry() {
  static const ActorRegistry registry = [] {
    ActorRegistry r;
    actors::register_all(r);
    register_actors(r);
    return r;
  }();
  return registry;
}

inline const SchedulerRegistry& workflow_scheduler_registry() {
  static const SchedulerRegistry registry = [] {
    SchedulerRegistry r;
    schedulers::register_all(r);
    return r;
  }();
  return registry;
}

struct DirectorChoice {
  std::string type = "scheduled";
  std::string scheduler = "fifo";
  unsigned workers = 1;
  std::string name() const {
    return type == "threaded" ? type : scheduler + "_" + std::to_string(workers) + "_workers";
  }
};

// The threaded director and the scheduled one with every policy on 1 and 2 workers; under the
// sanitizers (10 to 30 times slower) the threaded director and one scheduled fifo worker: the
// same code, the other policies being what the regular build adds.
inline std::vector<DirectorChoice> every_director() {
  std::vector<DirectorChoice> directors = {{"threaded", "fifo", 1}};
  for (const char* policy : {"fifo", "qbs", "rr", "rb"})
    for (unsigned workers : {1u, 2u})
      if (!cwf::testing::kSanitizerBuild || (std::string_view(policy) == "fifo" && workers == 1))
        directors.push_back({"scheduled", policy, workers});
  return directors;
}

struct WorkflowRun {
  RunSummary summary;
  std::uint64_t source_errors = 0;  // malformed and out-of-order lines
  std::array<std::uint64_t, 4> answers{};
};

inline const std::string kFusedWorkflow = CWF_SOURCE_DIR "/workflows/linear_road.yaml";
inline const std::string kWindowsWorkflow = CWF_SOURCE_DIR "/workflows/linear_road_windows.yaml";
inline const std::string kPartitionedWorkflow =
    CWF_SOURCE_DIR "/workflows/linear_road_partitioned.yaml";

// workflows/linear_road_partitioned.yaml with `replicas` replicas of its per-expressway stages,
// written into `dir`.
inline std::string partitioned_workflow(const std::string& dir, int replicas) {
  std::ifstream in(kPartitionedWorkflow);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string anchor = "&replicas 2";
  std::size_t at = text.find(anchor);
  if (at == std::string::npos) throw std::runtime_error(kPartitionedWorkflow + ": no " + anchor);
  text.replace(at, anchor.size(), "&replicas " + std::to_string(replicas));
  std::string path = dir + "/linear_road_partitioned_" + std::to_string(replicas) + ".yaml";
  std::ofstream(path) << text;
  return path;
}

// Runs `workflow` (workflows/linear_road.yaml by default) on `input`, answers to `output`;
// `extra` are further --set settings (ACTOR.PARAM=VALUE).
inline WorkflowRun run_linear_road(const std::string& input, const std::string& tolls,
                                   const std::string& output, const DirectorChoice& director,
                                   const std::vector<ParamOverride>& extra = {},
                                   const std::string& workflow_path = kFusedWorkflow) {
  std::vector<ParamOverride> overrides = {
      {"input", "path", input}, {"answers", "path", output}, {"expenditures", "tolls", tolls}};
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  auto workflow = load_workflow_file(
      workflow_path, LoadContext{workflow_actor_registry(), workflow_scheduler_registry()},
      overrides);
  workflow->director().type = director.type;
  workflow->director().scheduler = director.scheduler;
  workflow->director().workers = director.workers;
  auto run_director = make_director(workflow->director(), workflow_scheduler_registry());
  RealClock clock;
  WorkflowRun run;
  run.summary = run_workflow(*workflow, *run_director, clock);
  for (ActorId id = 0; id < workflow->size(); ++id) {
    Actor* actor = workflow->actor(id).actor.get();
    if (auto* source = dynamic_cast<SourceActor*>(actor))
      run.source_errors = source->rejects().total() + source->out_of_order();
    if (auto* sink = dynamic_cast<AnswerSinkActor*>(actor)) run.answers = sink->answers();
  }
  return run;
}

// `0,carid,time,emit,lav,toll` and `t,time,emit,...`: the line without its emit field.
inline std::string without_emit(const std::string& line) {
  std::size_t emit_field = line.rfind("0,", 0) == 0 ? 3 : 2;
  std::size_t start = 0;
  for (std::size_t i = 0; i < emit_field; ++i)
    start = line.find(',', start) + 1;
  std::size_t end = line.find(',', start);
  return line.substr(0, start) + line.substr(end == std::string::npos ? line.size() : end + 1);
}

inline std::vector<std::string> answer_lines(const std::string& path, bool drop_emit = true) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    lines.push_back(drop_emit ? without_emit(line) : line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

inline std::string input_line(const InputRecord& r) {
  std::string line;
  for (std::int32_t field : {r.type, r.time, r.carid, r.speed, r.xway, r.lane, r.dir, r.seg, r.pos,
                             r.qid, r.sinit, r.send, r.dow, r.tod, r.day})
    line += (line.empty() ? "" : ",") + std::to_string(field);
  return line;
}

inline void write_input(const std::string& path, const std::vector<InputRecord>& records) {
  std::ofstream out(path);
  for (const InputRecord& r : records)
    out << input_line(r) << "\n";
}

// A fresh directory for one test's files.
// A fresh directory of this test process (ctest runs test cases as parallel processes, so a
// directory shared between them would be removed under another's feet).
inline std::string test_directory(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) /
                              ("cwf_lrwf_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace cwf::lr::testing
