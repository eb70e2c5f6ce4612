// Invariants of the B-step on random event sequences (fixed seeds, a few thousand steps): GSM-1
// and GSM-2 after every step, toggle-once, what a step reports equals what changed, and the
// engine equals a direct interpretation of the PAC rules in dependency-graph order over all
// rules (so evaluating only the event's ePDG loses nothing on these models).
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "actors/gsm/bstep_engine.hpp"
#include "actors/gsm/condition_analysis.hpp"
#include "actors/gsm/invariants.hpp"
#include "actors/gsm/synthetic_models.hpp"
#include "gsm_test_util.hpp"

namespace cwf::gsm {
namespace {

// The semantics written down directly: every rule, at its consequent's node, in graph order.
class ReferenceStep {
 public:
  explicit ReferenceStep(const CompiledModel& compiled) : c_(compiled) {}

  // `data` is the instance's data record (data attributes, then latestIncEvent) after the event.
  std::vector<bool> step(const std::vector<bool>& before, int event, const Value& data = {}) const {
    const Model& model = c_.model();
    std::vector<bool> now = before, changed(before.size(), false);
    for (int node : c_.graph().order()) {
      for (const PacRule& rule : c_.rules().rules) {
        if (rule.vacuous || pdg_node(rule.consequent) != node) continue;
        const auto target = static_cast<std::size_t>(rule.consequent.attribute);
        if (changed[target]) continue;
        if (before[static_cast<std::size_t>(rule.prerequisite.attribute)] !=
            rule.prerequisite.value)
          continue;
        if (rule.trigger.kind == Trigger::Kind::external && rule.trigger.event != event) continue;
        if (rule.trigger.kind == Trigger::Kind::status) {
          const auto a = static_cast<std::size_t>(rule.trigger.attribute);
          if (!changed[a] || now[a] != rule.trigger.value) continue;
        }
        if (rule.parent_open >= 0 && !now[static_cast<std::size_t>(rule.parent_open)]) continue;
        if (rule.condition >= 0) {
          const ConditionInfo& info = model.conditions[static_cast<std::size_t>(rule.condition)];
          bool holds = true;
          if (info.literals) {
            for (const StatusLiteral& l : *info.literals)
              holds = holds && now[static_cast<std::size_t>(l.attribute)] == l.value;
          } else {
            ExprEnvironment environment;
            std::vector<Value> variables;
            for (int a : info.status_read) {
              environment.declare(status_variable(model.status_name(a)));
              variables.emplace_back(static_cast<bool>(now[static_cast<std::size_t>(a)]));
            }
            holds = Expression::compile(info.expression, environment)
                        .matches(data, Variables(variables));
          }
          if (!holds) continue;
        }
        if (now[target] == rule.consequent.value) continue;
        now[target] = rule.consequent.value;
        changed[target] = true;
      }
    }
    return now;
  }

 private:
  const CompiledModel& c_;
};

void run_random(const std::shared_ptr<const CompiledModel>& compiled, unsigned seed, int steps,
                int instances) {
  const Model& model = compiled->model();
  BStepEngine engine(compiled);
  BStepEngine all_rules(compiled, BStepEngine::Plan::all_rules);
  ReferenceStep reference(*compiled);
  for (int i = 0; i < instances; ++i) {
    engine.add_instance();
    all_rules.add_instance();
  }
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> pick_event(0, static_cast<int>(model.events.size()) - 1);
  std::uniform_int_distribution<int> pick_instance(0, instances - 1);
  std::vector<Generated> generated, generated_all;
  for (int s = 0; s < steps; ++s) {
    const auto x = static_cast<InstanceId>(pick_instance(random));
    const int event = pick_event(random);
    const std::vector<bool> before = engine.snapshot(x);
    generated.clear();
    generated_all.clear();
    engine.step(x, event, {}, generated);
    all_rules.step(x, event, {}, generated_all);
    const std::vector<bool> after = engine.snapshot(x);
    SCOPED_TRACE("step " + std::to_string(s) + ", event " +
                 model.events[static_cast<std::size_t>(event)].name);
    ASSERT_EQ(check_invariants(model, after), "");
    // Toggle-once, and the reported changes are exactly the differences.
    std::set<int> toggled;
    for (const Generated& g : generated) {
      if (g.kind != Generated::Kind::status) continue;
      ASSERT_TRUE(toggled.insert(g.attribute).second) << model.status_name(g.attribute) << " twice";
      ASSERT_EQ(after[static_cast<std::size_t>(g.attribute)], g.value);
      ASSERT_NE(before[static_cast<std::size_t>(g.attribute)], g.value);
    }
    for (std::size_t a = 0; a < after.size(); ++a)
      ASSERT_EQ(before[a] != after[a], toggled.count(static_cast<int>(a)) == 1);
    // Termination: at most one micro-step per status attribute.
    ASSERT_LE(toggled.size(), model.status_count());
    ASSERT_EQ(generated, generated_all);
    ASSERT_EQ(all_rules.snapshot(x), after);
    ASSERT_EQ(reference.step(before, event), after);
  }
  // The ePDG plan evaluates fewer rules for the same result.
  EXPECT_LE(engine.rules_evaluated(), all_rules.rules_evaluated());
}

TEST(GsmBStepProperty, DesignToOrder) {
  auto compiled = CompiledModel::compile(testing::design_to_order());
  for (unsigned seed : {1u, 2u, 3u})
    run_random(compiled, seed, 3000, 5);
}

TEST(GsmBStepProperty, Sequences) {
  for (int k : {2, 4, 10})
    run_random(CompiledModel::compile(load_model_text(sequence_model_yaml(k), "seq.yaml")), 7u,
               2000, 4);
}

TEST(GsmBStepProperty, Splits) {
  for (int n : {3, 9})
    run_random(CompiledModel::compile(load_model_text(split_model_yaml(n), "split.yaml")), 11u,
               2000, 4);
}

TEST(GsmBStepProperty, ModelWithMoreThan64StatusAttributes) {
  // 40 stages and 40 milestones: status bitsets of two words.
  run_random(CompiledModel::compile(load_model_text(sequence_model_yaml(40), "seq.yaml")), 5u, 3000,
             3);
}

}  // namespace
}  // namespace cwf::gsm

namespace cwf::gsm {
namespace {

// Where evaluating only the ePDG differs from evaluating every rule (docs/gsm.md): a condition-only
// guard that already holds for a new instance waits for one of its inputs to change.
TEST(GsmBStepProperty, AGuardTrueFromTheStartWaitsForItsInputsUnderThePdgPlan) {
  auto compiled = CompiledModel::compile(load_model_text(R"(artifact: waiting
stages:
  A:
    guards: [on R:Go]
    milestones: {done: on T:A}
  B:
    guards: [if not A:done]
    milestones: {done: on T:B}
)",
                                                         "waiting.yaml"));
  const Model& m = compiled->model();
  BStepEngine engine(compiled), all_rules(compiled, BStepEngine::Plan::all_rules);
  InstanceId x = engine.add_instance();
  all_rules.add_instance();
  std::vector<Generated> generated;
  const int b = *m.find_status("B");
  engine.step(x, *m.find_event("T:B"), {}, generated);
  all_rules.step(x, *m.find_event("T:B"), {}, generated);
  EXPECT_FALSE(engine.status(x, b));  // T:B reaches nothing that B's guard reads
  EXPECT_TRUE(all_rules.status(x, b));
  // R:Go can change A:done (opening A invalidates it), so its ePDG holds B's guard: B opens.
  engine.step(x, *m.find_event("R:Go"), {}, generated);
  EXPECT_TRUE(engine.status(x, b));
  EXPECT_TRUE(engine.status(x, *m.find_status("A")));
}

}  // namespace
}  // namespace cwf::gsm

namespace cwf::gsm {
namespace {

// Events that carry data, sentries with data conditions (all with an event: see docs/gsm.md for
// condition-only sentries), and the engine against the reference on random sequences.
TEST(GsmBStepProperty, DataConditionsOnRandomEventsWithData) {
  auto compiled = CompiledModel::compile(testing::claim_model());
  const Model& m = compiled->model();
  BStepEngine engine(compiled), all_rules(compiled, BStepEngine::Plan::all_rules);
  ReferenceStep reference(*compiled);
  constexpr int kInstances = 4;
  for (int i = 0; i < kInstances; ++i) {
    engine.add_instance();
    all_rules.add_instance();
  }
  std::mt19937 random(3);
  std::uniform_int_distribution<int> pick_event(0, static_cast<int>(m.events.size()) - 1);
  std::uniform_int_distribution<int> pick_instance(0, kInstances - 1);
  std::uniform_int_distribution<int> amount(0, 10000);
  const int amount_attribute = *m.find_data("amount"), flagged = *m.find_data("flagged");
  std::vector<Generated> generated, generated_all;
  std::size_t changes = 0;
  for (int s = 0; s < 3000; ++s) {
    const auto x = static_cast<InstanceId>(pick_instance(random));
    const int event = pick_event(random);
    std::vector<DataUpdate> data;
    const std::string& name = m.events[static_cast<std::size_t>(event)].name;
    if (name == "R:Submit") data.emplace_back(amount_attribute, Value(amount(random)));
    if (name == "R:Flag") data.emplace_back(flagged, Value(amount(random) % 2 == 0));
    const std::vector<bool> before = engine.snapshot(x);
    generated.clear();
    generated_all.clear();
    engine.step(x, event, data, generated);
    all_rules.step(x, event, data, generated_all);
    changes += generated.size();
    SCOPED_TRACE("step " + std::to_string(s) + ", event " + name);
    const std::vector<bool> after = engine.snapshot(x);
    ASSERT_EQ(check_invariants(m, after), "");
    ASSERT_EQ(generated, generated_all);
    const Value record = Value::record({{"amount", engine.data(x, amount_attribute)},
                                        {"flagged", engine.data(x, flagged)},
                                        {"latestIncEvent", Value(name)}});
    ASSERT_EQ(reference.step(before, event, record), after);
  }
  EXPECT_EQ(engine.condition_errors(), 0u);
  EXPECT_GT(changes, 1000u);  // the sequence does exercise the model
}

}  // namespace
}  // namespace cwf::gsm
