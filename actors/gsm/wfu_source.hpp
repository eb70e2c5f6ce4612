// S_source: the single entry point. It gives each external event the next logical time t and
// publishes, for step ρ = (e, t, x), the event (to the rule units) with the version vector of
// instance x (for each unit the last earlier step of x it took part in: what it must read and
// the order in which it visits x's steps), and one datum per data unit taking part.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "actors/gsm/bstep_engine.hpp"
#include "actors/gsm/wfu_mapping.hpp"
#include "runtime/values/value.hpp"

namespace cwf {
class SnapshotReader;
class SnapshotWriter;
}  // namespace cwf

namespace cwf::gsm {

class WfuSource {
 public:
  explicit WfuSource(std::shared_ptr<const WfuPlan> plan);

  // Publishes step (event, t, instance) and returns t. Throws std::invalid_argument for data
  // the event type does not carry or of the wrong type.
  std::int64_t submit(std::int64_t instance, int event, std::span<const DataUpdate> data,
                      std::vector<Value>& publish);
  std::int64_t clock() const { return clock_; }
  // Checkpoints (wfu_snapshot.cpp): the logical time and every instance's version vector.
  void save(SnapshotWriter& out) const;
  void restore(SnapshotReader& in);

 private:
  std::shared_ptr<const WfuPlan> plan_;
  std::int64_t clock_ = 0;
  std::unordered_map<std::int64_t, std::vector<std::int64_t>> versions_;  // per instance
  std::vector<Value> scratch_;
  // Per event type: whether some rule unit takes part in its steps (then the event is published).
  std::vector<bool> rules_take_part_;
};

}  // namespace cwf::gsm
