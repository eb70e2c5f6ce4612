#include "cli/server/prometheus_metrics.hpp"

#include <sstream>

namespace cwf::cli {

namespace {

// A label value: backslash, double quote and newline escaped.
std::string label(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

struct ActorMetric {
  const char* name;
  const char* type;
  const char* help;
  std::uint64_t ActorSummary::*field;
};

const ActorMetric kActorMetrics[] = {
    {"cwf_actor_firings_total", "counter", "Firings of the actor.", &ActorSummary::firings},
    {"cwf_actor_events_in_total", "counter", "Events the actor took in.", &ActorSummary::events_in},
    {"cwf_actor_events_out_total", "counter", "Events the actor emitted.",
     &ActorSummary::events_out},
    {"cwf_actor_busy_nanoseconds_total", "counter", "Time the actor spent firing.",
     &ActorSummary::cost_ns},
    {"cwf_actor_rejected_total", "counter", "Input the actor refused as invalid.",
     &ActorSummary::rejected},
    {"cwf_actor_failed_total", "counter", "Events whose processing failed.", &ActorSummary::failed},
    {"cwf_actor_dropped_total", "counter", "Events dropped (overload, time limit).",
     &ActorSummary::dropped},
    {"cwf_actor_late_total", "counter", "Events too late for their window.", &ActorSummary::late},
    {"cwf_actor_lost_total", "counter", "Events a sink may have lost.", &ActorSummary::lost},
    {"cwf_actor_queued_events", "gauge", "Events waiting in the actor's input queues.",
     &ActorSummary::queue_length},
};

}  // namespace

std::string prometheus_exposition(const WorkflowCatalog& catalog) {
  auto workflows = catalog.all();
  std::ostringstream out;
  out << "# HELP cwf_workflows Workflows registered.\n# TYPE cwf_workflows gauge\n"
      << "cwf_workflows " << workflows.size() << "\n";
  out << "# HELP cwf_workflow_running Whether the workflow runs (1) or is paused, stopped, "
         "finished or failed (0).\n# TYPE cwf_workflow_running gauge\n";
  for (const auto& w : workflows)
    out << "cwf_workflow_running{workflow=\"" << label(w->name()) << "\"} "
        << (w->state() == WorkflowState::running ? 1 : 0) << "\n";
  out << "# HELP cwf_workflow_uptime_seconds Time since the workflow was started.\n"
         "# TYPE cwf_workflow_uptime_seconds gauge\n";
  for (const auto& w : workflows)
    out << "cwf_workflow_uptime_seconds{workflow=\"" << label(w->name()) << "\"} "
        << w->uptime_seconds() << "\n";
  out << "# HELP cwf_workflow_priority The workflow's priority on the shared workers (higher "
         "first).\n# TYPE cwf_workflow_priority gauge\n";
  for (const auto& w : workflows)
    out << "cwf_workflow_priority{workflow=\"" << label(w->name()) << "\"} " << w->priority()
        << "\n";
  out << "# HELP cwf_workflow_worker_wait_seconds_total Time the workflow's firings waited for "
         "a shared worker.\n# TYPE cwf_workflow_worker_wait_seconds_total counter\n";
  for (const auto& w : workflows)
    out << "cwf_workflow_worker_wait_seconds_total{workflow=\"" << label(w->name()) << "\"} "
        << w->waited_for_workers_seconds() << "\n";
  const SharedWorkers& shared = catalog.workers();
  out << "# HELP cwf_shared_workers Firings that may go on at once over all the workflows.\n"
         "# TYPE cwf_shared_workers gauge\ncwf_shared_workers "
      << shared.workers() << "\n# HELP cwf_shared_workers_busy Shared workers firing now.\n"
      << "# TYPE cwf_shared_workers_busy gauge\ncwf_shared_workers_busy " << shared.busy() << "\n";
  std::vector<std::vector<ActorSummary>> actors;
  for (const auto& w : workflows)
    actors.push_back(w->actors());
  for (const ActorMetric& metric : kActorMetrics) {
    out << "# HELP " << metric.name << " " << metric.help << "\n# TYPE " << metric.name << " "
        << metric.type << "\n";
    for (std::size_t i = 0; i < workflows.size(); ++i)
      for (const ActorSummary& a : actors[i])
        out << metric.name << "{workflow=\"" << label(workflows[i]->name()) << "\",actor=\""
            << label(a.name) << "\"} " << a.*metric.field << "\n";
  }
  return out.str();
}

}  // namespace cwf::cli
