#include "actors/keyed_states.hpp"

#include <algorithm>
#include <limits>

#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::actors {

void KeyedStates::advance(Timestamp time) {
  if (any_time_ && time <= latest_) return;
  latest_ = time;
  any_time_ = true;
  if (forget_after_ <= 0 || time < std::numeric_limits<Timestamp>::min() + forget_after_) return;
  const Timestamp quiet_through = time - forget_after_;
  while (!watched_.empty() && watched_.top().first <= quiet_through) {
    Watch watch = watched_.top();
    watched_.pop();
    auto it = table_.find(watch.second);
    if (it == table_.end()) continue;  // forgotten by a null state meanwhile
    if (it->second.latest > quiet_through)
      watched_.push({it->second.latest, std::move(watch.second)});  // it changed since
    else
      table_.erase(it);
  }
}

void KeyedStates::set(const Value& key, Value state, Timestamp time, Entry* existing) {
  if (state.is_null()) {
    if (existing) table_.erase(key);
  } else if (!existing) {
    table_.emplace(key, Entry{std::move(state), time});
    if (forget_after_ > 0) watched_.push({time, key});
  } else {
    existing->state = std::move(state);
    existing->latest = std::max(existing->latest, time);
  }
}

void KeyedStates::save(SnapshotWriter& out) const {
  std::vector<const std::pair<const Value, Entry>*> entries;
  entries.reserve(table_.size());
  for (const auto& entry : table_)
    entries.push_back(&entry);
  std::sort(entries.begin(), entries.end(), [](const auto* a, const auto* b) {
    if (a->second.latest != b->second.latest) return a->second.latest < b->second.latest;
    return a->first.to_json() < b->first.to_json();
  });
  out.write_bool(any_time_);
  out.write_timestamp(latest_);
  out.write_u64(entries.size());
  for (const auto* entry : entries) {
    out.write_value(entry->first);
    out.write_value(entry->second.state);
    out.write_timestamp(entry->second.latest);
  }
}

void KeyedStates::restore(SnapshotReader& in) {
  table_.clear();
  watched_ = {};
  any_time_ = in.read_bool("whether an event came");
  latest_ = in.read_timestamp("the latest event time");
  for (std::size_t n = in.read_count("the number of keys"); n > 0; --n) {
    Value key = in.read_value("a key");
    Value state = in.read_value("a key's state");
    Timestamp latest = in.read_timestamp("a key's latest event time");
    if (key.is_null() || state.is_null()) in.reject("a key", "neither a key nor a state is null");
    if (!table_.emplace(key, Entry{std::move(state), latest}).second)
      in.reject("a key", "it is written twice");
    if (forget_after_ > 0) watched_.push({latest, std::move(key)});
  }
}

}  // namespace cwf::actors
