// The event stream of the GSM benchmarks (gsm_bstep, gsm_wfu), so that both measure the same kind
// of workload: generated once per model by driving instances forward with the centralized engine.
#pragma once

#include <cstddef>
#include <random>
#include <utility>
#include <vector>

#include "actors/gsm/bstep_engine.hpp"

namespace cwf_bench {

// Adds `instances` instances to `driver` and steps them `steps` times (seed 42): a random instance
// gets, 4 times in 5, the termination event of one of its open atomic stages, else a uniformly
// random event type. `stepped(generated)` sees what each step generated. Returns the stream.
template <class Stepped>
std::vector<std::pair<cwf::gsm::InstanceId, int>> drive_gsm_stream(cwf::gsm::BStepEngine& driver,
                                                                   cwf::gsm::InstanceId instances,
                                                                   std::size_t steps,
                                                                   Stepped&& stepped) {
  using namespace cwf::gsm;
  const Model& m = driver.model();
  // For each atomic stage, the incoming events that achieve one of its milestones.
  std::vector<std::vector<int>> completing(m.stages.size());
  for (const Milestone& ms : m.milestones)
    if (ms.achieving.trigger.kind == Trigger::Kind::external)
      completing[static_cast<std::size_t>(ms.stage)].push_back(ms.achieving.trigger.event);
  for (InstanceId i = 0; i < instances; ++i)
    driver.add_instance();
  std::mt19937 random(42);
  std::uniform_int_distribution<InstanceId> pick_instance(0, instances - 1);
  std::uniform_int_distribution<int> pick_event(0, static_cast<int>(m.events.size()) - 1);
  std::uniform_int_distribution<int> percent(0, 99);
  std::vector<std::pair<InstanceId, int>> stream;
  stream.reserve(steps);
  std::vector<Generated> generated;
  std::vector<int> candidates;
  for (std::size_t s = 0; s < steps; ++s) {
    const InstanceId x = pick_instance(random);
    candidates.clear();
    for (std::size_t stage = 0; stage < m.stages.size(); ++stage)
      if (m.stages[stage].atomic() && driver.status(x, static_cast<int>(stage)))
        candidates.insert(candidates.end(), completing[stage].begin(), completing[stage].end());
    int event = pick_event(random);
    if (!candidates.empty() && percent(random) < 80)
      event = candidates[static_cast<std::size_t>(random() % candidates.size())];
    stream.emplace_back(x, event);
    generated.clear();
    driver.step(x, event, {}, generated);
    stepped(generated);
  }
  return stream;
}

}  // namespace cwf_bench
