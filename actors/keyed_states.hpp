// A table of states by key, as of the latest event time: what `fold` and `lookup` keep. With
// `forget_after`, a key whose latest change is that far behind the latest time is forgotten as
// time moves on, so memory follows the keys still in use.
#pragma once

#include <cstddef>
#include <queue>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/actor/event.hpp"
#include "runtime/time/duration.hpp"
#include "runtime/values/value.hpp"

namespace cwf {
class SnapshotReader;
class SnapshotWriter;
}  // namespace cwf

namespace cwf::actors {

class KeyedStates {
 public:
  struct Entry {
    Value state;
    Timestamp latest = 0;  // time of the key's latest change
  };

  // 0: keys stay until their state is null.
  explicit KeyedStates(Duration forget_after = 0) : forget_after_(forget_after) {}

  // Time moved on to `time` (changes come in time order; an earlier time changes nothing): the
  // keys quiet since `time - forget_after` or earlier are forgotten.
  void advance(Timestamp time);
  Entry* find(const Value& key) {
    auto it = table_.find(key);
    return it == table_.end() ? nullptr : &it->second;
  }
  // The key's state becomes `state` at `time`; a null state forgets the key. `existing`: what
  // find(key) returned (saves a second lookup).
  void set(const Value& key, Value state, Timestamp time, Entry* existing);
  std::size_t size() const { return table_.size(); }

  // Checkpoints: whether any time came and the latest, then the keys in the order of their
  // latest change, then of their text (the same bytes for the same table whatever the hash
  // map's order). restore() rejects null keys or states and keys written twice.
  void save(SnapshotWriter& out) const;
  void restore(SnapshotReader& in);

 private:
  // Not noexcept, so that the map keeps each key's hash in its node (libstdc++ caches hash codes
  // unless the hash is noexcept and deemed fast): rehashing and lookups then do not hash keys
  // (arrays, records) again.
  struct KeyHash {
    std::size_t operator()(const Value& v) const { return v.hash(); }
  };
  Duration forget_after_;
  std::unordered_map<Value, Entry, KeyHash> table_;
  // (latest change when the key was last checked, key); one entry per key of the table.
  using Watch = std::pair<Timestamp, Value>;
  struct Later {
    bool operator()(const Watch& a, const Watch& b) const { return a.first > b.first; }
  };
  std::priority_queue<Watch, std::vector<Watch>, Later> watched_;
  Timestamp latest_ = 0;
  bool any_time_ = false;
};

}  // namespace cwf::actors
