// Shared by the workflow-unit tests: random event sequences over a model (with data for the
// events that carry it) run through the centralized engine, giving the snapshot expected after
// every step, and the check that a run of the units ended every step in that snapshot.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "actors/gsm/bstep_engine.hpp"
#include "actors/gsm/wfu_mapping.hpp"
#include "actors/gsm/wfu_unit.hpp"

namespace cwf::gsm::testing {

struct WfuStep {
  std::int64_t instance = 0;
  int event = 0;
  std::vector<DataUpdate> data;
};

// Status attributes, then data attributes, then latestIncEvent (as the event's name).
struct WfuSnapshot {
  std::vector<bool> status;
  std::vector<Value> data;
  friend bool operator==(const WfuSnapshot&, const WfuSnapshot&) = default;
};

// `steps` random steps over `instances` instances; data attributes an event carries get random
// values of their type half of the time.
inline std::vector<WfuStep> random_steps(const CompiledModel& compiled, unsigned seed, int steps,
                                         int instances) {
  const Model& model = compiled.model();
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> pick_event(0, static_cast<int>(model.events.size()) - 1);
  std::uniform_int_distribution<int> pick_instance(0, instances - 1);
  std::uniform_int_distribution<int> number(0, 10000);
  std::vector<WfuStep> out;
  for (int s = 0; s < steps; ++s) {
    WfuStep step{pick_instance(random), pick_event(random), {}};
    const EventType& type = model.events[static_cast<std::size_t>(step.event)];
    for (std::size_t d = 0; d < model.data.size(); ++d) {
      const bool carried = type.updates_all || std::find(type.updates.begin(), type.updates.end(),
                                                         static_cast<int>(d)) != type.updates.end();
      if (!carried || number(random) % 2 == 0) continue;
      const int n = number(random);
      switch (model.data[d].type) {
        case DataType::integer:
          step.data.emplace_back(static_cast<int>(d), Value(n));
          break;
        case DataType::real:
          step.data.emplace_back(static_cast<int>(d), Value(n / 10.0));
          break;
        case DataType::boolean:
          step.data.emplace_back(static_cast<int>(d), Value(n % 2 == 0));
          break;
        default:
          step.data.emplace_back(static_cast<int>(d), Value("v" + std::to_string(n % 7)));
      }
    }
    out.push_back(std::move(step));
  }
  return out;
}

// The steps the gsm and gsm_pubsub actors run of `steps`: those of instances a creating event
// made (see `creates:` in docs/gsm.md), an instance made by its first creating event. The others
// are rejected.
inline std::vector<WfuStep> accepted_steps(const Model& model, const std::vector<WfuStep>& steps) {
  std::set<std::int64_t> created;
  std::vector<WfuStep> out;
  for (const WfuStep& step : steps) {
    if (!created.contains(step.instance) && !model.may_create(step.event)) continue;
    created.insert(step.instance);
    out.push_back(step);
  }
  return out;
}

// The centralized engine's snapshot after each step (index = logical time - 1).
inline std::vector<WfuSnapshot> expected_snapshots(std::shared_ptr<const CompiledModel> compiled,
                                                   BStepEngine::Plan plan,
                                                   const std::vector<WfuStep>& steps) {
  BStepEngine engine(compiled, plan);
  std::vector<WfuSnapshot> out;
  std::vector<Generated> generated;
  const Model& model = compiled->model();
  for (const WfuStep& step : steps) {
    while (engine.instance_count() <= static_cast<std::size_t>(step.instance))
      engine.add_instance();
    const auto x = static_cast<InstanceId>(step.instance);
    generated.clear();
    engine.step(x, step.event, step.data, generated);
    WfuSnapshot snapshot{engine.snapshot(x), {}};
    for (std::size_t d = 0; d < model.data.size(); ++d)
      snapshot.data.push_back(engine.data(x, static_cast<int>(d)));
    snapshot.data.emplace_back(model.events[static_cast<std::size_t>(step.event)].name);
    out.push_back(std::move(snapshot));
  }
  return out;
}

// Replays the completions per instance in time order, each overlaying the values of the units
// that took part on the instance's previous snapshot, and compares each with `expected`.
// Returns "" or the first difference.
inline std::string compare_completions(const WfuPlan& plan, const std::vector<WfuStep>& steps,
                                       std::vector<StepCompletion> completions,
                                       const std::vector<WfuSnapshot>& expected) {
  if (completions.size() != steps.size())
    return std::to_string(completions.size()) + " steps completed of " +
           std::to_string(steps.size());
  std::sort(completions.begin(), completions.end(),
            [](const StepCompletion& a, const StepCompletion& b) { return a.time < b.time; });
  std::map<std::int64_t, WfuSnapshot> current;
  const Model& model = plan.compiled().model();
  for (std::size_t i = 0; i < completions.size(); ++i) {
    const StepCompletion& c = completions[i];
    const std::string where = "step t=" + std::to_string(c.time);
    if (c.time != static_cast<std::int64_t>(i) + 1) return where + ": completed twice or never";
    const WfuStep& step = steps[i];
    if (c.instance != step.instance || c.event != step.event) return where + ": wrong ρ";
    auto [it, fresh] = current.try_emplace(c.instance);
    WfuSnapshot& snapshot = it->second;
    if (fresh) {
      snapshot.status.assign(model.status_count(), false);
      snapshot.data.assign(static_cast<std::size_t>(plan.data_count()), Value());
    }
    for (const auto& [unit, value] : c.values) {
      const WfuUnitSpec& spec = plan.units()[static_cast<std::size_t>(unit)];
      if (spec.kind == WfuKind::gateway)
        snapshot.status[static_cast<std::size_t>(spec.attribute)] = value.as_bool();
      else
        snapshot.data[static_cast<std::size_t>(spec.attribute)] = value;
    }
    if (!(snapshot == expected[i])) {
      std::string diff = where + " (" + model.events[static_cast<std::size_t>(c.event)].name +
                         ", instance " + std::to_string(c.instance) + "):";
      for (std::size_t a = 0; a < snapshot.status.size(); ++a)
        if (snapshot.status[a] != expected[i].status[a])
          diff += " " + model.status_name(static_cast<int>(a)) + " is " +
                  (snapshot.status[a] ? "true" : "false");
      for (std::size_t d = 0; d < snapshot.data.size(); ++d)
        if (!(snapshot.data[d] == expected[i].data[d]))
          diff += " data " + std::to_string(d) + " is " + snapshot.data[d].to_json() +
                  " expected " + expected[i].data[d].to_json();
      return diff;
    }
  }
  return "";
}

}  // namespace cwf::gsm::testing
