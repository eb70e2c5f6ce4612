#include "actors/eca/event_detector.hpp"

#include <algorithm>

#include "actors/eca/occurrence.hpp"

namespace cwf::eca {

EventDetector::EventDetector(std::shared_ptr<const DetectorGraph> graph, DetectorOptions options)
    : graph_(std::move(graph)),
      options_(std::move(options)),
      site_(options_.site),
      broker_(options_.broker),
      ids_(&site_ids(options_.site)) {}

bool shares_primitive(const Value& a, const Value& b) {
  // Descends into both composites' components without collecting the primitives first: this
  // runs for every CON and CCR partner considered, so it must not allocate.
  if (const auto& parts = field(a, kComponents).as_array(); !parts.empty())
    return std::any_of(parts.begin(), parts.end(),
                       [&](const Value& c) { return shares_primitive(c, b); });
  if (const auto& parts = field(b, kComponents).as_array(); !parts.empty())
    return std::any_of(parts.begin(), parts.end(),
                       [&](const Value& c) { return shares_primitive(a, c); });
  return field(a, kId) == field(b, kId) && field(a, kSite) == field(b, kSite);
}

Timestamp start_time(const Value& occurrence) {
  const auto& components = field(occurrence, kComponents).as_array();
  if (components.empty()) return occurrence_time(occurrence);
  Timestamp start = kNeverTime;
  for (const Value& c : components)
    start = std::min(start, start_time(c));
  return start;
}

EventDetector::InstanceState& EventDetector::state_of(const Value& key) {
  auto [it, inserted] = instances_.try_emplace(key);
  if (inserted) it->second.nodes.resize(graph_->size());
  return it->second;
}

void EventDetector::forget_if_empty(const Value& key) {
  auto it = instances_.find(key);
  if (it == instances_.end()) return;
  for (const NodeState& n : it->second.nodes)
    if (!n.empty()) return;
  instances_.erase(it);
}

std::size_t EventDetector::held(const Value& instance, int node) const {
  auto it = instances_.find(options_.same_instance ? instance : Value());
  if (it == instances_.end()) return 0;
  const NodeState& n = it->second.nodes[static_cast<std::size_t>(node)];
  return n.side[0].size() + n.side[1].size() + n.intervals.size();
}

bool EventDetector::open_for_all(int node) const {
  // An interval delimited by events of no instance (time events) is open for every instance.
  auto it = instances_.find(Value());
  return it != instances_.end() && it->second.nodes[static_cast<std::size_t>(node)].open;
}

void EventDetector::process(const Value& occurrence, const Listener& listener) {
  advance_to(occurrence_time(occurrence), listener);
  int leaf = graph_->leaf(occurrence_type(occurrence));
  if (leaf < 0) return;
  const Value& instance = field(occurrence, kInstance);
  if (!options_.same_instance) {
    detect_in(Value(), leaf, occurrence, listener);
    return;
  }
  if (instance.is_null()) {
    listener(leaf, occurrence);  // detected once
    for (auto [parent, slot] : graph_->node(leaf).parents)
      time_event(parent, slot, occurrence, listener);
    return;
  }
  // The instance is active while the shared intervals are open: their absences apply to it.
  for (SharedInterval& interval : shared_intervals_)
    interval.instances.try_emplace(instance, false);
  detect_in(instance, leaf, occurrence, listener);
}

void EventDetector::time_event(int node, int slot, const Value& occurrence,
                               const Listener& listener) {
  // A time event belongs to no instance (same_instance detectors only).
  const DetectorNode& type = graph_->node(node);
  std::vector<Value> keys;
  for (const auto& [key, state] : instances_)
    if (!key.is_null()) keys.push_back(key);
  if (type.op == EventOp::rep && slot == 1) {
    // An absence interval for every instance, kept once rather than per instance, so that
    // instances that start later are checked too.
    SharedInterval interval{next_seq_++, node, occurrence, {}};
    for (const Value& key : keys)
      interval.instances.emplace(key, false);
    if (type.within > 0)
      deadlines_.push(
          {occurrence_time(occurrence) + type.within, interval.seq, Value(), node, true});
    shared_intervals_.push_back(std::move(interval));
    return;
  }
  if (type.op == EventOp::rep && slot == 2) {
    // The end closes the shared intervals of the node as well as each instance's.
    std::vector<SharedInterval> closing;
    std::erase_if(shared_intervals_, [&](SharedInterval& i) {
      if (i.node != node) return false;
      closing.push_back(std::move(i));
      return true;
    });
    for (const SharedInterval& i : closing)
      close_shared(i, occurrence_time(occurrence), &occurrence, listener);
  }
  if (type.op == EventOp::rep && slot == 0)
    std::erase_if(shared_intervals_, [&](const SharedInterval& i) { return i.node == node; });
  if (type.op == EventOp::in && slot > 0) {
    // The interval is open for every instance (open_for_all).
    Value none;
    std::vector<Value> produced;
    compose(state_of(none), none, node, slot, occurrence, produced);
    forget_if_empty(none);
    return;
  }
  // Otherwise it composes in every instance that holds something.
  for (const Value& key : keys) {
    climb(state_of(key), key, node, slot, occurrence, listener);
    forget_if_empty(key);
  }
}

void EventDetector::detect_in(const Value& key, int node, const Value& occurrence,
                              const Listener& listener) {
  signal(state_of(key), key, node, occurrence, listener);
  forget_if_empty(key);
}

void EventDetector::close_shared(const SharedInterval& interval, Timestamp time, const Value* end,
                                 const Listener& listener) {
  // One absence per instance the interval applies to in which `a` did not occur; none for the
  // time event's own (null) instance.
  for (const auto& [instance, seen] : interval.instances) {
    if (seen) continue;
    std::vector<Value> components{interval.start};
    if (end) components.push_back(*end);
    detect_in(instance, interval.node,
              composite(interval.node, instance, std::move(components), time), listener);
  }
}

void EventDetector::advance_to(Timestamp time, const Listener& listener) {
  while (!deadlines_.empty() && deadlines_.top().time <= time) {
    Deadline due = deadlines_.top();
    deadlines_.pop();
    if (due.shared) {
      auto found = std::find_if(shared_intervals_.begin(), shared_intervals_.end(),
                                [&](const SharedInterval& i) { return i.seq == due.seq; });
      if (found == shared_intervals_.end()) continue;
      SharedInterval interval = std::move(*found);
      shared_intervals_.erase(found);
      close_shared(interval, due.time, nullptr, listener);
      continue;
    }
    auto it = instances_.find(due.instance);
    if (it == instances_.end()) continue;
    auto& intervals = it->second.nodes[static_cast<std::size_t>(due.node)].intervals;
    auto found = std::find_if(intervals.begin(), intervals.end(),
                              [&](const Interval& i) { return i.seq == due.seq; });
    if (found == intervals.end()) continue;  // the component occurred: no absence
    Value start = std::move(found->start);
    intervals.erase(found);
    // The REP occurrence climbs the graph like any other.
    detect_in(due.instance, due.node,
              composite(due.node, due.instance, {std::move(start)}, due.time), listener);
  }
}

void EventDetector::signal(InstanceState& state, const Value& key, int node,
                           const Value& occurrence, const Listener& listener) {
  listener(node, occurrence);
  for (auto [parent, slot] : graph_->node(node).parents)
    climb(state, key, parent, slot, occurrence, listener);
}

void EventDetector::climb(InstanceState& state, const Value& key, int node, int slot,
                          const Value& occurrence, const Listener& listener) {
  std::vector<Value> produced;
  compose(state, key, node, slot, occurrence, produced);
  for (const Value& p : produced)
    signal(state, key, node, p, listener);
}

template <class Fits>
bool EventDetector::pair_with_oldest(std::vector<Value>& partners, const Fits& fits,
                                     bool occurrence_first, int node, const Value& key,
                                     const Value& occurrence, std::vector<Value>& produced) {
  auto it = std::find_if(partners.begin(), partners.end(), fits);
  if (it == partners.end()) return false;
  Value partner = std::move(*it);
  partners.erase(it);
  Timestamp time = std::max(occurrence_time(partner), occurrence_time(occurrence));
  produced.push_back(occurrence_first
                         ? composite(node, key, {occurrence, std::move(partner)}, time)
                         : composite(node, key, {std::move(partner), occurrence}, time));
  return true;
}

namespace {

// CCR: occurrences older than `t` can no longer meet a partner at their own time.
void drop_before(std::vector<Value>& side, Timestamp t) {
  side.erase(side.begin(), std::find_if(side.begin(), side.end(),
                                        [&](const Value& o) { return occurrence_time(o) >= t; }));
}

}  // namespace

void EventDetector::hold(std::vector<Value>& side, const Value& occurrence) const {
  // A time event (no instance) reaches every instance holding state, so periodic ones would
  // pile up in each of them without bound: an instance keeps only the latest unconsumed time
  // event per argument. Composing with it uses the most recent tick, not the oldest.
  if (options_.same_instance && field(occurrence, kInstance).is_null())
    std::erase_if(side, [](const Value& o) { return field(o, kInstance).is_null(); });
  side.push_back(occurrence);
}

Value EventDetector::composite(int node, const Value& key, std::vector<Value> components,
                               Timestamp time) {
  const Value& instance =
      options_.same_instance || components.empty() ? key : field(components.back(), kInstance);
  return make_composite_occurrence(graph_->node(node).type_value, site_, next_occurrence_id(*ids_),
                                   time, instance, broker_, std::move(components));
}

void EventDetector::compose(InstanceState& state, const Value& key, int node, int slot,
                            const Value& occurrence, std::vector<Value>& produced) {
  const DetectorNode& type = graph_->node(node);
  NodeState& held = state.nodes[static_cast<std::size_t>(node)];
  Timestamp t = occurrence_time(occurrence);
  if (slot == kBothSlots) {
    compose_same(held, node, key, occurrence, produced);
    return;
  }
  // An occurrence is never paired with one that is, or contains, the same primitive: in
  // CON(REQ(a), SEQ(REQ(a), REQ(b))) one REQ(a) reaches both arguments.
  auto distinct = [&](const Value& o) { return !shares_primitive(o, occurrence); };
  switch (type.op) {
    case EventOp::primitive:
      break;
    case EventOp::seq:
      if (slot == 0) {
        hold(held.side[0], occurrence);
      } else {
        // Chronicle: the oldest initiator that ended strictly before the terminator started (a
        // composite's time is its last component's, so comparing times alone would accept
        // SEQ(a, CON(b, c)) for b < a < c). A terminator without one is not kept: it cannot be
        // the second event of a later sequence.
        Timestamp start = start_time(occurrence);
        pair_with_oldest(
            held.side[0], [&](const Value& a) { return occurrence_time(a) < start; }, false, node,
            key, occurrence, produced);
      }
      break;
    case EventOp::con:
      if (!pair_with_oldest(held.side[1 - slot], distinct, slot == 0, node, key, occurrence,
                            produced))
        hold(held.side[slot], occurrence);
      break;
    case EventOp::dex: {
      // Exclusive: the first of a and b fires; the other's next occurrence in the instance is
      // the excluded alternative and is consumed silently (an a and a b make one DEX, so
      // RPL(PrepAccept.Done) then a late RPL(PrepReject.Done) is one decision, not two).
      auto& other = held.side[1 - slot];
      if (!other.empty()) {
        other.erase(other.begin());
      } else {
        hold(held.side[slot], occurrence);
        produced.push_back(composite(node, key, {occurrence}, t));
      }
      break;
    }
    case EventOp::ccr:
      for (auto& side : held.side)
        drop_before(side, t);
      if (!pair_with_oldest(
              held.side[1 - slot],
              [&](const Value& b) { return occurrence_time(b) == t && distinct(b); }, slot == 0,
              node, key, occurrence, produced))
        hold(held.side[slot], occurrence);
      break;
    case EventOp::rep:
      if (slot == 0) {
        held.intervals.clear();  // it occurred inside every open interval
        for (SharedInterval& i : shared_intervals_)
          if (i.node == node && !key.is_null()) i.instances[key] = true;
      } else if (slot == 1) {
        std::uint64_t seq = next_seq_++;
        Timestamp deadline = type.within > 0 ? t + type.within : kNeverTime;
        held.intervals.push_back({seq, occurrence, deadline});
        if (type.within > 0) deadlines_.push({deadline, seq, key, node});
      } else {
        // An instance's own `e` ends the shared intervals (opened by a time event) for it.
        if (!key.is_null())
          for (SharedInterval& i : shared_intervals_) {
            auto found = i.node == node ? i.instances.find(key) : i.instances.end();
            if (found == i.instances.end() || found->second) continue;
            found->second = true;  // decided for this instance
            produced.push_back(composite(node, key, {i.start, occurrence}, t));
          }
        // `a` did not occur between any open `s` and this `e`: every open interval ends here,
        // one absence each, oldest first.
        for (Interval& open : held.intervals)
          produced.push_back(composite(node, key, {std::move(open.start), occurrence}, t));
        held.intervals.clear();
      }
      break;
    case EventOp::in:
      if (slot == 1)
        held.open = true;
      else if (slot == 2)
        held.open = false;
      else if (held.open || open_for_all(node))
        produced.push_back(composite(node, key, {occurrence}, t));
      break;
  }
}

void EventDetector::compose_same(NodeState& held, int node, const Value& key,
                                 const Value& occurrence, std::vector<Value>& produced) {
  // Both arguments are the same type: the occurrence first tries to complete a composite with an
  // earlier, distinct occurrence it holds (chronicle: the oldest); used so, it is consumed;
  // otherwise it is held as the first component of a later one. It is never its own partner.
  const DetectorNode& type = graph_->node(node);
  Timestamp t = occurrence_time(occurrence);
  auto& waiting = held.side[0];
  auto pair_or_hold = [&](const auto& fits) {
    if (!pair_with_oldest(waiting, fits, false, node, key, occurrence, produced))
      hold(waiting, occurrence);
  };
  switch (type.op) {
    case EventOp::dex:
      produced.push_back(composite(node, key, {occurrence}, t));
      return;
    case EventOp::seq: {
      Timestamp start = start_time(occurrence);
      pair_or_hold([&](const Value& a) { return occurrence_time(a) < start; });
      return;
    }
    case EventOp::con:
      pair_or_hold([](const Value&) { return true; });
      return;
    case EventOp::ccr:
      drop_before(waiting, t);
      pair_or_hold([&](const Value& b) { return occurrence_time(b) == t; });
      return;
    default:
      return;  // REP and IN keep their slots (DetectorGraph::add)
  }
}

}  // namespace cwf::eca
