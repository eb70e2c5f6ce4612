// S+s / S-s: the unit evaluating the super rule ⟨π, ∨αi, γ⟩ whose consequent γ is +s / -s. For
// step ρ = (e, t, x) it reads the previous values (version ver[S_a], the last earlier step of x in
// which S_a took part) of s and of π, and the step-t values of what the disjuncts read (version t
// when the owning unit takes part in e's steps, else its previous version: the value cannot have
// changed). Every value is unknown until its version has arrived; the unit fires only when all
// are known (three-valued logic, strictly: an unknown input makes the antecedent unknown) and it
// has visited the previous step of x it took part in (the pseudo-clock). It then publishes its
// toggle (v = true) or a no-change (v = false), and `visited`.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "actors/gsm/wfu_unit.hpp"

namespace cwf::gsm {

class WfuRuleUnit final : public WfuUnit {
 public:
  WfuRuleUnit(std::shared_ptr<const WfuPlan> plan, int unit);
  void receive(const Value& message, std::vector<Value>& publish) override;
  std::size_t pending() const override { return pending_rows(instances_); }

  std::uint64_t condition_errors() const { return condition_errors_; }
  void save(SnapshotWriter& out) const override;
  void restore(SnapshotReader& in) override;

 private:
  struct Row {
    int event = -1;
    std::int64_t previous = 0;  // ver[self]
    Value versions;             // the event message's ver array
  };
  struct Instance : WfuStepRows<Row> {
    std::vector<std::map<std::int64_t, Value>> values;  // per reads_values slot, by version
    std::vector<std::map<std::int64_t, bool>> toggles;  // per reads_toggles slot, by step
  };

  Instance& instance(std::int64_t x);
  // Evaluates the head row if every input is known; false when it must wait.
  bool try_fire(std::int64_t x, Instance& state, std::int64_t t, const Row& row,
                std::vector<Value>& publish);

  std::shared_ptr<const WfuPlan> plan_;
  int self_;
  const WfuUnitSpec& spec_;
  std::vector<int> value_slot_;   // per unit: index into reads_values, -1
  std::vector<int> toggle_slot_;  // per unit: index into reads_toggles, -1
  std::unordered_map<std::int64_t, Instance> instances_;
  std::uint64_t condition_errors_ = 0;
  // Scratch for one evaluation, so that a step allocates no vectors: per reads_values slot; the
  // data record of a data condition (all null between conditions); its status variables.
  std::vector<const Value*> now_;
  std::vector<Value> record_slots_;
  std::vector<Value> variables_;
};

}  // namespace cwf::gsm
