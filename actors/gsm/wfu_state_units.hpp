// The units that own an attribute's value per instance: the status gateway S_s and the data unit
// S_d. Each visits the steps of an instance it takes part in strictly in order (a step carries
// p, the previous step of x the unit took part in: the pseudo-clock), publishes the attribute's
// value at step t for the units that read it, and `visited` (with the value) for the sink.
//
// S_s waits, for step ρ, for the toggles of the rule units S+s / S-s taking part in e's steps
// (the expected toggle cardinality: 1 or 2; always 2 under BLM); s toggles when one of them did.
// Two toggles in one step would break toggle-once; it cannot happen (S+s toggles only from
// false, S-s only from true) and is counted, not hidden.
//
// S_d takes the value the source's datum carries, or keeps its value when the event leaves d.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "actors/gsm/wfu_unit.hpp"

namespace cwf::gsm {

class WfuStatusGateway final : public WfuUnit {
 public:
  WfuStatusGateway(std::shared_ptr<const WfuPlan> plan, int unit);
  void receive(const Value& message, std::vector<Value>& publish) override;
  std::size_t pending() const override { return pending_rows(instances_); }
  std::uint64_t double_toggles() const { return double_toggles_; }
  void save(SnapshotWriter& out) const override;
  void restore(SnapshotReader& in) override;

 private:
  struct Row {
    int event = -1;
    std::int64_t previous = 0;
    int received = 0;
    int toggles = 0;
  };
  struct Instance : WfuStepRows<Row> {
    bool value = false;
  };

  std::shared_ptr<const WfuPlan> plan_;
  int self_;
  int plus_, minus_;
  std::unordered_map<std::int64_t, Instance> instances_;
  std::uint64_t double_toggles_ = 0;
};

class WfuDataUnit final : public WfuUnit {
 public:
  WfuDataUnit(std::shared_ptr<const WfuPlan> plan, int unit);
  void receive(const Value& message, std::vector<Value>& publish) override;
  std::size_t pending() const override { return pending_rows(instances_); }
  void save(SnapshotWriter& out) const override;
  void restore(SnapshotReader& in) override;

 private:
  struct Row {
    int event = -1;
    std::int64_t previous = 0;
    Value carried;  // [new value], or null: unchanged
  };
  struct Instance : WfuStepRows<Row> {
    Value value;
  };

  std::shared_ptr<const WfuPlan> plan_;
  int self_;
  std::unordered_map<std::int64_t, Instance> instances_;
};

}  // namespace cwf::gsm
