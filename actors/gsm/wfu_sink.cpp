#include "actors/gsm/wfu_sink.hpp"

#include <algorithm>

#include "actors/gsm/wfu_messages.hpp"

namespace cwf::gsm {

WfuSink::WfuSink(std::shared_ptr<const WfuPlan> plan, int) : plan_(std::move(plan)) {}

void WfuSink::receive(const Value& message, std::vector<Value>&) {
  if (wfu::kind_of(message) != wfu::kVisited) return;
  const std::int64_t x = wfu::int_field(message, wfu::x);
  const std::int64_t t = wfu::int_field(message, wfu::t);
  const int event = static_cast<int>(wfu::int_field(message, wfu::e));
  const int unit = static_cast<int>(wfu::int_field(message, wfu::u));
  auto found = rows_.try_emplace({x, t}).first;
  Row& row = found->second;
  row.completion.event = event;
  row.completion.time = t;
  row.completion.instance = x;
  const WfuKind kind = plan_->units()[static_cast<std::size_t>(unit)].kind;
  if (kind == WfuKind::gateway || kind == WfuKind::data)
    row.completion.values.emplace_back(unit, wfu::field(message, wfu::v));
  if (++row.visited < plan_->expected_visited(event)) return;
  // In unit order, not in the order the reports came: the units run on several threads, and a
  // step's record must read the same in every run.
  std::sort(row.completion.values.begin(), row.completion.values.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  completions_.push_back(std::move(row.completion));
  ++completed_;
  rows_.erase(found);
}

std::vector<StepCompletion> take_completions(const std::vector<WfuSink*>& sinks) {
  std::vector<StepCompletion> all;
  for (WfuSink* sink : sinks) {
    for (StepCompletion& c : sink->completions())
      all.push_back(std::move(c));
    sink->completions().clear();
  }
  return all;
}

}  // namespace cwf::gsm
