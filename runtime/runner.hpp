// Runs a whole workflow: initialize every actor, let the director drive it to the end, wrap up.
#pragma once

#include "runtime/director.hpp"
#include "runtime/workflow.hpp"

namespace cwf {

struct ActorSummary {
  std::string name;
  bool is_source;
  std::uint64_t firings, cost_ns, events_in, events_out, errors, warnings, dropped, late, expired,
      queue_length;
};

struct RunSummary {
  std::string director;
  Duration wall_time = 0;
  std::vector<ActorSummary> actors;
  std::uint64_t total_errors() const;
};

std::vector<ActorSummary> snapshot(const Execution& execution);

// The caller keeps `workflow`, `director` and `clock` alive for the call.
RunSummary run_workflow(Workflow& workflow, Director& director, Clock& clock,
                        const RunOptions& options = {},
                        const std::function<void(const Execution&)>& on_progress = {});

}  // namespace cwf
