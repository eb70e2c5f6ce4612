// S_sink: completes step ρ = (e, t, x) when every unit taking part in e's steps has reported
// `visited` for it (BLM: one sink for every event type; CAM: one sink per event type, waiting
// only for the units in e's ePDG and e's data units). What it completed is taken by the caller.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "actors/gsm/wfu_unit.hpp"

namespace cwf::gsm {

class WfuSink final : public WfuUnit {
 public:
  WfuSink(std::shared_ptr<const WfuPlan> plan, int unit);
  void receive(const Value& message, std::vector<Value>& publish) override;
  std::size_t pending() const override { return rows_.size(); }

  std::vector<StepCompletion>& completions() { return completions_; }
  std::uint64_t completed() const { return completed_; }
  // Completions not taken yet are not saved: the actor takes them after every firing.
  void save(SnapshotWriter& out) const override;
  void restore(SnapshotReader& in) override;

 private:
  struct Row {
    int visited = 0;
    StepCompletion completion;
  };
  std::shared_ptr<const WfuPlan> plan_;
  std::map<std::pair<std::int64_t, std::int64_t>, Row> rows_;  // by (x, t)
  std::vector<StepCompletion> completions_;
  std::uint64_t completed_ = 0;
};

// What the sinks completed since the last call, sink by sink.
std::vector<StepCompletion> take_completions(const std::vector<WfuSink*>& sinks);

}  // namespace cwf::gsm
