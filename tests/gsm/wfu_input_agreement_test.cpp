// The differential check on invalid input: the centralized `gsm` actor and `gsm_pubsub` (BLM and
// CAM) read the same records, so they must accept the same ones, reject the others with the same
// message, count the rejections on the actor the workflow names, and run the accepted ones into
// the same snapshots. An event for an instance no creating event has made is the case the
// model's `creates:` is about (Design-to-order: only R:NewOrder creates an order, 000 §4.1.2);
// malformed records (no id, an unknown event type, data that is not a record, an attribute the
// model or the event does not have, a value of the wrong type) are the others.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <tuple>

#include "actors/gsm/wfu_mapping.hpp"
#include "gsm_test_util.hpp"
#include "gsm_workflow_util.hpp"
#include "runtime/values/value_json.hpp"
#include "wfu_test_util.hpp"

namespace cwf::gsm {
namespace {

using testing::WfuStep;

const std::vector<std::string> kActors = {"type: gsm", "type: gsm_pubsub, mapping: blm",
                                          "type: gsm_pubsub, mapping: cam"};

// What one actor made of a stream of records.
struct Verdicts {
  std::uint64_t errors = 0;           // counted on the actor `orders`
  std::vector<std::string> reported;  // the lines of standard error that name `orders`
  std::vector<std::string> out;       // its output records
};

// Runs `records` (JSON lines) through `actor` (a YAML flow map without braces, the model added)
// and collects what it counted, reported and emitted.
Verdicts run_actor(const std::string& actor, const std::string& model_path,
                   const std::string& records) {
  const std::string name = std::to_string(std::hash<std::string>()(actor + records));
  const std::string in = ::testing::TempDir() + "cwf_gsm_agreement_" + name + ".jsonl";
  const std::string out = ::testing::TempDir() + "cwf_gsm_agreement_" + name + "_out.jsonl";
  std::ofstream(in) << records;
  ::testing::internal::CaptureStderr();
  RunSummary summary = testing::run_between_jsonl(actor + ", model: " + model_path, in, out);
  const std::string err = ::testing::internal::GetCapturedStderr();
  Verdicts v;
  for (const auto& a : summary.actors)
    if (a.name == "orders") v.errors = a.rejected + a.failed;
  std::size_t start = 0;
  while (start < err.size()) {
    std::size_t end = err.find('\n', start);
    if (end == std::string::npos) end = err.size();
    // "cwf: FILE:LINE: actor 'orders' (TYPE) rejected an event: MESSAGE": the message, which
    // both actor types must word alike.
    const std::string line = err.substr(start, end - start);
    const std::string rejected = "actor 'orders' (";
    if (std::size_t at = line.find(") rejected an event: ");
        line.find(rejected) != std::string::npos && at != std::string::npos)
      v.reported.push_back(line.substr(at + std::string(") rejected an event: ").size()));
    start = end + 1;
  }
  v.out = testing::read_lines(out);
  return v;
}

// (step, instance, event) of every B-step an actor ran, as far as its output shows: every step
// of gsm_pubsub (`t`), the steps of gsm that generated something (`step`).
using StepKey = std::tuple<std::int64_t, std::string, std::string>;
std::vector<StepKey> steps_of(const std::vector<std::string>& out) {
  std::vector<StepKey> steps;
  for (const std::string& line : out) {
    const Value record = parse_json(line);
    const Value* t = record.field("t");
    if (t == nullptr) t = record.field("step");
    StepKey key{t->as_int(), record.field("instance")->to_json(),
                std::string(record.field("event")->as_string())};
    if (steps.empty() || steps.back() != key) steps.push_back(key);
  }
  return steps;
}

// Whether `text` contains each of `messages`, in that order.
std::string find_in_order(const std::vector<std::string>& lines,
                          const std::vector<std::string>& messages) {
  std::size_t line = 0;
  for (const std::string& message : messages) {
    while (line < lines.size() && lines[line].find(message) == std::string::npos)
      ++line;
    if (line == lines.size()) return "not reported (in this order): " + message;
    ++line;
  }
  return "";
}

TEST(GsmInputAgreement, EachKindOfInvalidRecordIsRejectedAlikeWithTheSameMessage) {
  const std::string records =
      // An unknown instance whose event does not create one (only R:NewOrder does).
      R"({"instance": "o1", "type": "T:EngineeringDesign", "data": {"design": "d0"}})"
      "\n"
      R"({"instance": "o1", "type": "R:NewOrder", "data": {"customer": "acme"}})"
      "\n"
      R"({"instance": "o1", "type": "R:NoSuchEvent"})"
      "\n"
      R"({"instance": "o1", "type": 7})"
      "\n"
      R"({"type": "R:NewOrder"})"
      "\n"
      R"({"instance": {"id": 1}, "type": "R:NewOrder"})"
      "\n"
      R"({"instance": "o1", "type": "T:RequirementsApproval", "data": "approved"})"
      "\n"
      R"({"instance": "o1", "type": "R:CustomerChange", "data": {"colour": "red"}})"
      "\n"
      R"({"instance": "o1", "type": "R:CustomerChange", "data": {"design": "d1"}})"
      "\n"
      R"({"instance": "o1", "type": "R:CustomerChange", "data": {"requirements": 5}})"
      "\n"
      R"({"instance": "o2", "type": "R:CustomerChange", "data": {"requirements": "r"}})"
      "\n"
      R"({"instance": "o1", "type": "T:EvalCountryRestrictions", "data": null})"
      "\n"
      R"({"instance": 2, "type": "R:NewOrder"})"
      "\n"
      // Ids are values: the string "2" is not the number 2.
      R"({"instance": "2", "type": "T:RequirementsApproval"})"
      "\n"
      R"({"instance": 2, "type": "T:RequirementsApproval", "data": {"requirements": "r2"}})"
      "\n"
      R"({"instance": "o1", "type": "T:RequirementsApproval"})"
      "\n";
  const std::vector<std::string> messages = {
      R"(gsm: no instance "o1" and T:EngineeringDesign does not create one)",
      R"(gsm: unknown event type "R:NoSuchEvent" for model DesignToOrder)",
      R"(gsm: unknown event type 7 for model DesignToOrder)",
      R"(gsm: expected an instance id (a string or a number), got null)",
      R"(gsm: expected an instance id (a string or a number), got {"id":1})",
      R"(gsm: expected the data of a T:RequirementsApproval event to be a record, got "approved")",
      R"(gsm: R:CustomerChange event carries 'colour', which is not a data attribute of DesignToOrder)",
      R"(gsm: R:CustomerChange events do not update 'design' (see its 'updates' in the model))",
      R"(gsm: expected string for 'requirements', got 5)",
      R"(gsm: no instance "o2" and R:CustomerChange does not create one)",
      R"(gsm: no instance "2" and T:RequirementsApproval does not create one)",
  };
  const std::vector<StepKey> accepted = {{1, R"("o1")", "R:NewOrder"},
                                         {2, R"("o1")", "T:EvalCountryRestrictions"},
                                         {3, "2", "R:NewOrder"},
                                         {4, "2", "T:RequirementsApproval"},
                                         {5, R"("o1")", "T:RequirementsApproval"}};
  const std::string model = testing::source_path("workflows/gsm/design_to_order.yaml");
  const Verdicts gsm = run_actor(kActors[0], model, records);
  for (const std::string& actor : kActors) {
    SCOPED_TRACE(actor);
    const Verdicts v = actor == kActors[0] ? gsm : run_actor(actor, model, records);
    EXPECT_EQ(v.errors, messages.size());
    // The runtime prints the first ten problems of an actor; the rest are counted.
    EXPECT_EQ(v.reported, std::vector<std::string>(messages.begin(), messages.begin() + 10));
    EXPECT_EQ(v.reported, gsm.reported);   // word for word, as the same actor name reports them
    EXPECT_EQ(steps_of(v.out), accepted);  // every accepted step generates something here
  }
}

TEST(GsmInputAgreement, TheShippedEventsAreJudgedAlike) {
  // The last shipped event names order-3, which no R:NewOrder created: rejected on purpose.
  const std::string records = [] {
    std::ifstream in(testing::source_path("workflows/gsm/data/design_to_order_events.jsonl"));
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }();
  const std::string model = testing::source_path("workflows/gsm/design_to_order.yaml");
  for (const std::string& actor : kActors) {
    SCOPED_TRACE(actor);
    const Verdicts v = run_actor(actor, model, records);
    EXPECT_EQ(v.errors, 1u);
    EXPECT_EQ(find_in_order(
                  v.reported,
                  {R"(gsm: no instance "order-3" and T:EngineeringDesign does not create one)"}),
              "");
    const std::vector<StepKey> steps = steps_of(v.out);
    ASSERT_EQ(steps.size(), 8u);
    EXPECT_EQ(steps.back(), (StepKey{8, R"("order-1")", "T:PreparingExportDocs"}));
  }
}

// Random streams: the steps of testing::random_steps (events of any type for instances 0..n-1,
// so many name an instance before its R:NewOrder) with malformed records mixed in. The test's
// own account of what is valid (testing::accepted_steps, and the malformed records) decides; both
// actors must count exactly those rejections, gsm_pubsub must end every accepted step in the
// centralized engine's snapshot over the accepted steps alone, and gsm's step numbers must follow
// the accepted steps too.
TEST(GsmInputAgreement, RandomStreamsWithInvalidRecords) {
  const auto compiled = CompiledModel::compile(testing::design_to_order());
  const Model& model = compiled->model();
  const std::string model_path = testing::source_path("workflows/gsm/design_to_order.yaml");
  for (unsigned seed : {41u, 42u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const std::vector<WfuStep> steps = testing::random_steps(*compiled, seed, 160, 4);
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> pick(0, 9);
    std::string records;
    std::uint64_t malformed_records = 0;
    const char* malformed[] = {
        R"({"instance": 1, "type": "R:Unknown"})",
        R"({"type": "T:EngineeringDesign"})",
        R"({"instance": 1, "type": "R:NewOrder", "data": ["acme"]})",
        R"({"instance": 1, "type": "R:NewOrder", "data": {"price": 3}})",
        R"({"instance": 1, "type": "R:NewOrder", "data": {"design": "d"}})",
        R"({"instance": 1, "type": "R:NewOrder", "data": {"customer": true}})",
    };
    for (const WfuStep& step : steps) {
      if (pick(random) == 0) {
        records += std::string(malformed[pick(random) % 6]) + "\n";
        ++malformed_records;
      }
      std::vector<std::string> names;
      std::vector<Value> values;
      for (const DataUpdate& d : step.data) {
        names.push_back(model.data[static_cast<std::size_t>(d.first)].name);
        values.push_back(d.second);
      }
      const Value record = Value::record(
          {{"instance", Value(step.instance)},
           {"type", Value(model.events[static_cast<std::size_t>(step.event)].name)},
           {"data",
            names.empty() ? Value() : Value::record(Schema::intern(names), std::move(values))}});
      records += record.to_json() + "\n";
    }
    const std::vector<WfuStep> accepted = testing::accepted_steps(model, steps);
    const std::uint64_t rejected = malformed_records + (steps.size() - accepted.size());
    ASSERT_GT(rejected, 20u);
    ASSERT_GT(accepted.size(), 100u);
    for (const std::string& actor : kActors) {
      SCOPED_TRACE(actor);
      const Verdicts v = run_actor(actor, model_path, records);
      EXPECT_EQ(v.errors, rejected);
      if (actor == kActors[0]) {
        for (const auto& [t, instance, event] : steps_of(v.out)) {
          const WfuStep& step = accepted.at(static_cast<std::size_t>(t - 1));
          EXPECT_EQ(instance, std::to_string(step.instance)) << "step " << t;
          EXPECT_EQ(event, model.events[static_cast<std::size_t>(step.event)].name);
        }
        continue;
      }
      const auto plan =
          WfuPlan::build(compiled, actor.ends_with("blm") ? WfuMapping::blm : WfuMapping::cam);
      std::vector<StepCompletion> completions;
      for (const std::string& line : v.out) {
        const Value record = parse_json(line);
        StepCompletion c;
        c.time = record.field("t")->as_int();
        c.instance = record.field("instance")->as_int();
        c.event = *model.find_event(record.field("event")->as_string());
        const Value& values = *record.field("values");
        const auto fields = values.schema()->fields();
        for (std::size_t i = 0; i < fields.size(); ++i) {
          int unit = plan->data_unit(plan->latest_event_data());
          if (auto s = model.find_status(fields[i]))
            unit = plan->gateway(*s);
          else if (auto d = model.find_data(fields[i]))
            unit = plan->data_unit(*d);
          c.values.emplace_back(unit, values.slots()[i]);
        }
        completions.push_back(std::move(c));
      }
      EXPECT_EQ(testing::compare_completions(
                    *plan, accepted, completions,
                    testing::expected_snapshots(compiled, BStepEngine::Plan::reachable, accepted)),
                "");
    }
  }
}

}  // namespace
}  // namespace cwf::gsm
