// Composite event detection over a DetectorGraph (EVE §5.1). Each node holds the occurrences not
// yet consumed; a new occurrence is handed to its leaf, every parent checks whether it completes
// a composition with what it holds, and a composite it forms is handed on to its own parents,
// bottom-up. Consumption is *chronicle*: of several candidates the oldest is used and consumed.
//
// State is kept per workflow instance when `same_instance` is set (components must belong to the
// same instance). An occurrence without an instance (a time event) is detected once; it opens the
// absence intervals of REP(a, TIME(s), ...) once for the whole detector (SharedInterval), sets
// the IN intervals it delimits for every instance, and composes in each instance that holds
// state at that moment (instances with no state have nothing it could complete). Time moves
// with the occurrences' timestamps: before an occurrence at time t is detected, every REP interval
// whose deadline is <= t fires (time events from a clock source keep time moving when nothing
// else happens). Occurrences of one instance are expected in timestamp order; REP deadlines are
// global, so with REP and a duration the whole input is expected in timestamp order.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "actors/eca/detector_graph.hpp"
#include "runtime/values/value.hpp"

namespace cwf {
class SnapshotReader;
class SnapshotWriter;
}  // namespace cwf

namespace cwf::eca {

constexpr Timestamp kNeverTime = std::numeric_limits<Timestamp>::max();

struct DetectorOptions {
  bool same_instance = true;
  std::string site = "s1";  // site and raising broker of the composite occurrences
  std::string broker = "detector";
};

// When an occurrence started: its own time for a primitive, the earliest start of its components
// for a composite (whose own time is when it completed). SEQ compares an initiator's end with the
// terminator's start, so that every component of the initiator precedes every component of the
// terminator.
Timestamp start_time(const Value& occurrence);

// Whether two occurrences are, or contain, the same primitive occurrence (same site and id): such
// a pair would combine an occurrence with itself.
bool shares_primitive(const Value& a, const Value& b);

class EventDetector {
 public:
  // Called for the occurrence of every node detected in a cycle: the primitive itself first,
  // then each composite it completes, bottom-up.
  using Listener = std::function<void(int node, const Value& occurrence)>;

  EventDetector(std::shared_ptr<const DetectorGraph> graph, DetectorOptions options);

  // One detection cycle. Occurrences of types no expression uses are ignored.
  void process(const Value& occurrence, const Listener& listener);
  // Fires the REP deadlines up to `time`.
  void advance_to(Timestamp time, const Listener& listener);

  const DetectorGraph& graph() const { return *graph_; }
  // Instances holding unconsumed occurrences or open intervals.
  std::size_t active_instances() const { return instances_.size(); }
  // Unconsumed occurrences held by `node` for `instance` (tests, monitoring).
  std::size_t held(const Value& instance, int node) const;

  // Checkpoints (event_detector_snapshot.cpp): every instance's held occurrences, intervals and
  // IN flags (instances in key order), the pending REP deadlines in the order they fire, the
  // shared intervals, the interval numbering and the site's next occurrence id. restore() reads
  // it into a detector of the same expressions; state for another graph (other node counts, an
  // interval of a node out of range) is refused (SnapshotError).
  void save(SnapshotWriter& out) const;
  void restore(SnapshotReader& in);

 private:
  struct Interval {
    std::uint64_t seq;
    Value start;
    Timestamp deadline;
  };
  // Vectors, not deques: an instance's state is created and dropped per composition, and an
  // empty vector allocates nothing; the queues are short, so erasing at the front is cheap.
  struct NodeState {
    std::vector<Value> side[2];  // unconsumed component occurrences, oldest first
    std::vector<Interval> intervals;
    bool open = false;  // IN: inside the interval
    bool empty() const { return side[0].empty() && side[1].empty() && intervals.empty() && !open; }
  };
  struct InstanceState {
    std::vector<NodeState> nodes;
  };
  // An interval of REP(a, s, ...) opened by an `s` of no instance (a time event): kept once for
  // the whole detector. `instances` are those it applies to: the ones holding state when it
  // opened and those with an occurrence while it is open; each with whether `a` occurred in it.
  struct SharedInterval {
    std::uint64_t seq;
    int node;
    Value start;
    std::map<Value, bool> instances;  // ordered: the absences fire in a reproducible order
  };
  struct Deadline {
    Timestamp time;
    std::uint64_t seq;
    Value instance;
    int node;
    bool shared = false;  // of a SharedInterval
    bool operator>(const Deadline& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };

  InstanceState& state_of(const Value& key);
  // `occurrence` of `node` detected in the instance `key`: reported, then composed in every
  // parent, bottom-up (`climb`: in one parent, through `slot`); detect_in also drops the
  // instance's state when nothing is left.
  void detect_in(const Value& key, int node, const Value& occurrence, const Listener& listener);
  void signal(InstanceState& state, const Value& key, int node, const Value& occurrence,
              const Listener& listener);
  void climb(InstanceState& state, const Value& key, int node, int slot, const Value& occurrence,
             const Listener& listener);
  void compose(InstanceState& state, const Value& key, int node, int slot, const Value& occurrence,
               std::vector<Value>& produced);
  void compose_same(NodeState& held, int node, const Value& key, const Value& occurrence,
                    std::vector<Value>& produced);
  // Chronicle consumption for SEQ, CON and CCR: pairs `occurrence` with the oldest of `partners`
  // that `fits`, consumes that partner and produces the composite (arguments in order:
  // `occurrence_first` when it fills the first one). False when no partner fits.
  template <class Fits>
  bool pair_with_oldest(std::vector<Value>& partners, const Fits& fits, bool occurrence_first,
                        int node, const Value& key, const Value& occurrence,
                        std::vector<Value>& produced);
  void hold(std::vector<Value>& side, const Value& occurrence) const;
  Value composite(int node, const Value& key, std::vector<Value> components, Timestamp time);
  void forget_if_empty(const Value& key);
  void time_event(int node, int slot, const Value& occurrence, const Listener& listener);
  void close_shared(const SharedInterval& interval, Timestamp time, const Value* end,
                    const Listener& listener);
  bool open_for_all(int node) const;

  std::shared_ptr<const DetectorGraph> graph_;
  DetectorOptions options_;
  std::unordered_map<Value, InstanceState, ValueHash> instances_;
  std::priority_queue<Deadline, std::vector<Deadline>, std::greater<>> deadlines_;
  std::vector<SharedInterval> shared_intervals_;
  std::uint64_t next_seq_ = 0;
  Value site_, broker_;
  std::atomic<std::int64_t>* ids_;
};

}  // namespace cwf::eca
