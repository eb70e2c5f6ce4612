// The workflow units as actors: gsm_pubsub composites (one actor per unit, a bus embedding the
// Broker core) under the scheduled director with 2 workers end every step in the snapshot of the
// centralized BStepEngine, for BLM and CAM; and the YAML of docs/gsm.md loads and runs.
#include <gtest/gtest.h>

#include <fstream>

#include "actors/gsm/synthetic_models.hpp"
#include "actors/gsm/wfu_actors.hpp"
#include "actors/gsm/wfu_source.hpp"
#include "actors/gsm/wfu_unit.hpp"
#include "gsm_test_util.hpp"
#include "gsm_workflow_util.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "schedulers/fifo_scheduler.hpp"
#include "tests/runtime/test_actors.hpp"
#include "wfu_test_util.hpp"

namespace cwf::gsm {
namespace {

using testing::WfuStep;

Value step_record(const Model& model, const WfuStep& step) {
  std::vector<std::string> names;
  std::vector<Value> values;
  for (const DataUpdate& d : step.data) {
    names.push_back(model.data[static_cast<std::size_t>(d.first)].name);
    values.push_back(d.second);
  }
  return Value::record(
      {{"instance", Value(step.instance)},
       {"type", Value(model.events[static_cast<std::size_t>(step.event)].name)},
       {"data",
        names.empty() ? Value() : Value::record(Schema::intern(names), std::move(values))}});
}

// What a `steps` record says, as the plain-C++ sinks would have reported it.
StepCompletion completion_of(const WfuPlan& plan, const Value& record) {
  const Model& model = plan.compiled().model();
  StepCompletion c;
  c.time = record.field("t")->as_int();
  c.instance = record.field("instance")->as_int();
  c.event = *model.find_event(record.field("event")->as_string());
  const Value& values = *record.field("values");
  const auto fields = values.schema()->fields();
  for (std::size_t i = 0; i < fields.size(); ++i) {
    int unit = -1;
    if (auto s = model.find_status(fields[i]))
      unit = plan.gateway(*s);
    else if (auto d = model.find_data(fields[i]))
      unit = plan.data_unit(*d);
    else if (fields[i] == "latestIncEvent")
      unit = plan.data_unit(plan.latest_event_data());
    c.values.emplace_back(unit, values.slots()[i]);
  }
  return c;
}

void run_through_actors(std::shared_ptr<const CompiledModel> compiled, WfuMapping mapping,
                        unsigned seed, int steps, int instances) {
  SCOPED_TRACE(std::string(wfu_mapping_name(mapping)) + " seed " + std::to_string(seed));
  const auto sequence = testing::random_steps(*compiled, seed, steps, instances);
  auto plan = WfuPlan::build(compiled, mapping);
  std::vector<Value> records;
  for (const WfuStep& step : sequence)
    records.push_back(step_record(compiled->model(), step));
  Workflow workflow("outer");
  workflow.emplace<cwf::testing::ListSource>("events", records);
  workflow.add("units", make_gsm_pubsub(plan, 2), "gsm_pubsub");
  auto* collect = new cwf::testing::Collect();
  workflow.add("steps", std::unique_ptr<Actor>(collect));
  workflow.connect("events", "units");
  workflow.connect("units", "steps");
  VirtualClock clock;
  ScheduledDirector director(std::make_unique<cwf::schedulers::FifoScheduler>(), 2);
  RunSummary summary = run_workflow(workflow, director, clock);
  // Events for an instance before its creating event are rejected, as by the gsm actor
  // (wfu_input_agreement_test.cpp has the other invalid records).
  const auto accepted = testing::accepted_steps(compiled->model(), sequence);
  EXPECT_EQ(summary.incomplete(), sequence.size() - accepted.size());
  std::vector<StepCompletion> completions;
  for (const Value& record : collect->tokens())
    completions.push_back(completion_of(*plan, record));
  EXPECT_EQ(testing::compare_completions(
                *plan, accepted, completions,
                testing::expected_snapshots(compiled, BStepEngine::Plan::reachable, accepted)),
            "");
}

TEST(GsmWfuActors, DesignToOrderUnderTwoWorkers) {
  auto compiled = CompiledModel::compile(testing::design_to_order());
  for (WfuMapping mapping : {WfuMapping::blm, WfuMapping::cam})
    for (unsigned seed : {1u, 2u})
      run_through_actors(compiled, mapping, seed, 150, 4);
}

// A checkpoint may be taken before the first step reaches the units: what each unit and the
// source save then (no instances yet) is read back. The numbers a unit checks its plan against
// (units, values and toggles read) are numbers, not counts of items that follow.
TEST(GsmWfuActors, EveryUnitRestoresWhatItSavedBeforeTheFirstStep) {
  auto compiled = CompiledModel::compile(testing::design_to_order());
  for (WfuMapping mapping : {WfuMapping::blm, WfuMapping::cam}) {
    SCOPED_TRACE(wfu_mapping_name(mapping));
    auto plan = WfuPlan::build(compiled, mapping);
    auto round_trip = [](const auto& saved, auto& restored) {
      SnapshotWriter out;
      saved.save(out);
      std::vector<std::uint8_t> bytes = out.take_bytes();
      SnapshotReader in(bytes);
      EXPECT_NO_THROW(restored.restore(in));
    };
    WfuSource source(plan), source_again(plan);
    round_trip(source, source_again);
    for (int unit = 0; unit < static_cast<int>(plan->units().size()); ++unit) {
      if (plan->units()[static_cast<std::size_t>(unit)].kind == WfuKind::source) continue;
      SCOPED_TRACE("unit " + std::to_string(unit));
      auto saved = make_wfu_unit(plan, unit);
      auto restored = make_wfu_unit(plan, unit);
      round_trip(*saved, *restored);
    }
  }
}

TEST(GsmWfuActors, SyntheticModelsUnderTwoWorkers) {
  auto sequence = CompiledModel::compile(load_model_text(sequence_model_yaml(10), "s.yaml"));
  auto split = CompiledModel::compile(load_model_text(split_model_yaml(9), "p.yaml"));
  for (WfuMapping mapping : {WfuMapping::blm, WfuMapping::cam}) {
    run_through_actors(sequence, mapping, 3u, 120, 3);
    run_through_actors(split, mapping, 4u, 120, 3);
  }
}

TEST(GsmWfuActors, TheDocumentedWorkflowRuns) {
  const std::string out = ::testing::TempDir() + "cwf_gsm_pubsub_steps.jsonl";
  const std::string in = ::testing::TempDir() + "cwf_gsm_pubsub_events.jsonl";
  std::ofstream(in)
      << R"({"instance": "order-1", "type": "R:NewOrder", "data": {"customer": "ACME", "requirements": "r1"}}
{"instance": "order-1", "type": "T:EvalCountryRestrictions"}
{"instance": "order-1", "type": "T:RequirementsApproval", "data": {"requirements": "r2"}}
)";
  // As in docs/gsm.md, with the paths made absolute.
  RunSummary summary = testing::run_between_jsonl(
      "type: gsm_pubsub, model: " + testing::source_path("workflows/gsm/design_to_order.yaml") +
          ", mapping: cam, workers: 2",
      in, out);
  EXPECT_EQ(summary.incomplete(), 0u);
  const std::vector<std::string> lines = testing::read_lines(out);
  ASSERT_EQ(lines.size(), 3u);
  // Step 3: approval with countries evaluated opens ED (g3), closes RA, achieves RA:ap.
  EXPECT_NE(lines[2].find(R"("t":3)"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find(R"("RA:ap":true)"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find(R"("ED":true)"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find(R"("RA":false)"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find(R"("requirements":"r2")"), std::string::npos) << lines[2];
}

}  // namespace
}  // namespace cwf::gsm
