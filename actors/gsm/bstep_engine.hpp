// The centralized B-step engine: many instances of one compiled model, each a status bitset, the
// type of its latest incoming event and its data attributes. step() processes one incoming event
// for one instance: apply its data, set latestIncEvent, then evaluate the event's planned rules in
// dependency-graph order; a rule fires when its prerequisite held before the step and its
// antecedent holds now; every status attribute changes at most once (toggle-once).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "actors/gsm/compiled_model.hpp"
#include "runtime/values/value.hpp"

namespace cwf {
class SnapshotReader;
class SnapshotWriter;
}  // namespace cwf

namespace cwf::gsm {

using InstanceId = std::uint32_t;

// What a step generates, in the order it happened.
struct Generated {
  enum class Kind : std::uint8_t { status, invoke };
  Kind kind = Kind::status;
  int attribute = 0;  // status: the attribute that changed; invoke: the atomic stage that opened
  bool value = true;  // status: its new value
  friend bool operator==(const Generated&, const Generated&) = default;
};

// (data attribute index, new value); the value must have the attribute's type or be null.
using DataUpdate = std::pair<int, Value>;

// Whether a value may be stored in an attribute of this type (null always may).
bool fits(DataType type, const Value& value);

class BStepEngine {
 public:
  // Which rules a step evaluates: those of the event's ePDG, or every rule (a baseline).
  enum class Plan : std::uint8_t { reachable, all_rules };

  explicit BStepEngine(std::shared_ptr<const CompiledModel> model, Plan plan = Plan::reachable);

  const CompiledModel& compiled() const { return *compiled_; }
  const Model& model() const { return compiled_->model(); }

  // A new instance: every status attribute false, data null, no event yet.
  InstanceId add_instance();
  std::size_t instance_count() const { return latest_.size(); }
  void reserve(std::size_t instances);

  // One B-step; appends what it generates to `generated`. Data updates are applied in order.
  void step(InstanceId instance, int event, std::span<const DataUpdate> data,
            std::vector<Generated>& generated);

  bool status(InstanceId instance, int attribute) const {
    return (status_[instance * words_ + static_cast<std::size_t>(attribute) / 64] >>
            (attribute % 64)) &
           1;
  }
  std::vector<bool> snapshot(InstanceId instance) const;
  const Value& data(InstanceId instance, int attribute) const {
    return data_[instance * data_count_ + static_cast<std::size_t>(attribute)];
  }
  int latest_event(InstanceId instance) const { return latest_[instance]; }

  std::uint64_t steps() const { return steps_; }
  std::uint64_t rules_evaluated() const { return rules_evaluated_; }
  // Conditions that failed to evaluate (a type error in the data) and counted as false.
  std::uint64_t condition_errors() const { return condition_errors_; }
  const std::string& last_condition_error() const { return last_condition_error_; }

  // Checkpoints: every instance's status attributes, latest event and data, and the counters.
  // restore replaces what the engine held; a state that does not fit the model (another number of
  // status words or data attributes, a value of another type than its attribute's) is refused.
  void save(SnapshotWriter& out) const;
  void restore(SnapshotReader& in);

 private:
  bool condition_holds(const CompiledCondition& condition, const std::uint64_t* current,
                       InstanceId instance);

  std::shared_ptr<const CompiledModel> compiled_;
  Plan plan_;
  std::size_t words_;
  std::size_t data_count_;
  std::vector<std::uint64_t> status_;   // words_ per instance
  std::vector<std::int32_t> latest_;    // latestIncEvent per instance, -1 before the first
  std::vector<Value> data_;             // data_count_ per instance
  std::vector<std::uint64_t> changed_;  // this step's toggles, words_
  std::vector<Value> variables_;
  Value record_;  // the instance's data as a record, built when a condition needs it
  bool record_valid_ = false;
  std::uint64_t steps_ = 0;
  std::uint64_t rules_evaluated_ = 0;
  std::uint64_t condition_errors_ = 0;
  std::string last_condition_error_;
};

}  // namespace cwf::gsm
