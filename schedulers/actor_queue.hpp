// A priority queue of actors: smallest key first, first-come first-served among equal keys (the
// seed's active and waiting queues, ordered by the policy's comparator expressed as a key).
// Any actor can be removed, which a heap cannot do cheaply. Swapping two queues (the seed's queue
// swap) is safe: membership is kept as flags, not as end() iterators.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "runtime/actor/port.hpp"

namespace cwf::schedulers {

class ActorQueue {
 public:
  void resize(std::size_t actors) {
    where_.assign(actors, {});
    queued_.assign(actors, false);
  }
  // Enqueues behind every actor with the same key; an actor already queued is moved.
  void push(ActorId actor, double key) {
    erase(actor);
    where_[actor] = entries_.emplace(key, next_sequence_++, actor).first;
    queued_[actor] = true;
  }
  std::optional<ActorId> pop() {
    if (entries_.empty()) return std::nullopt;
    ActorId actor = std::get<2>(*entries_.begin());
    entries_.erase(entries_.begin());
    queued_[actor] = false;
    return actor;
  }
  std::optional<ActorId> front() const {
    if (entries_.empty()) return std::nullopt;
    return std::get<2>(*entries_.begin());
  }
  bool erase(ActorId actor) {
    if (!queued_[actor]) return false;
    entries_.erase(where_[actor]);
    queued_[actor] = false;
    return true;
  }
  bool contains(ActorId actor) const { return queued_[actor]; }
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }
  // The queued actors, first to last.
  std::vector<ActorId> actors() const {
    std::vector<ActorId> out;
    for (const auto& entry : entries_)
      out.push_back(std::get<2>(entry));
    return out;
  }

 private:
  using Entry = std::tuple<double, std::uint64_t, ActorId>;
  std::set<Entry> entries_;
  std::vector<std::set<Entry>::iterator> where_;  // valid where queued_
  std::vector<bool> queued_;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace cwf::schedulers
