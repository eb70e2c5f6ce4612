// Shared by the GSM tests that run YAML workflows: the registries, and one actor between a JSON
// lines source and a JSON lines sink.
#pragma once

#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "actors/gsm/register_actors.hpp"
#include "actors/register.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/loading/workflow_loader.hpp"
#include "schedulers/fifo_scheduler.hpp"
#include "schedulers/register.hpp"

namespace cwf::gsm::testing {

// The library's actors and GSM's, and the scheduling policies; built once per test process.
inline const LoadContext& load_context() {
  static const LoadContext* context = [] {
    auto* actors = new ActorRegistry();
    actors::register_all(*actors);
    register_actors(*actors);
    auto* schedulers = new SchedulerRegistry();
    cwf::schedulers::register_all(*schedulers);
    return new LoadContext{*actors, *schedulers};
  }();
  return *context;
}

inline std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

// Runs `events -> orders -> out`: a jsonl_source of `in`, the actor `orders` (a YAML flow map
// without its braces, e.g. "type: gsm, model: m.yaml") and a jsonl_sink writing `out`, under
// the scheduled director (FIFO) on a virtual clock.
inline RunSummary run_between_jsonl(const std::string& orders, const std::string& in,
                                    const std::string& out) {
  auto workflow =
      load_workflow_text("actors:\n  events: {type: jsonl_source, path: " + in + "}\n  orders: {" +
                             orders + "}\n  out: {type: jsonl_sink, path: " + out +
                             "}\nconnections:\n  - events -> orders\n"
                             "  - orders -> out\n",
                         "test.yaml", ::testing::TempDir(), load_context());
  VirtualClock clock;
  ScheduledDirector director(std::make_unique<cwf::schedulers::FifoScheduler>());
  return run_workflow(*workflow, director, clock);
}

}  // namespace cwf::gsm::testing
