#include <algorithm>

#include "actors/eca/event_detector.hpp"
#include "actors/eca/site_ids_snapshot.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::eca {

namespace {

void write_values(SnapshotWriter& out, const std::vector<Value>& values) {
  out.write_u64(values.size());
  for (const Value& value : values)
    out.write_value(value);
}

std::vector<Value> read_values(SnapshotReader& in, std::string_view what) {
  std::vector<Value> values(in.read_count(what));
  for (Value& value : values)
    value = in.read_value(what);
  return values;
}

}  // namespace

void EventDetector::save(SnapshotWriter& out) const {
  const std::size_t nodes = graph_->size();
  out.write_u64(nodes);
  // By key, so that equal detectors write equal bytes whatever the map's order.
  std::vector<const Value*> keys;
  keys.reserve(instances_.size());
  for (const auto& entry : instances_)
    keys.push_back(&entry.first);
  std::sort(keys.begin(), keys.end(), [](const Value* a, const Value* b) { return *a < *b; });
  out.write_u64(keys.size());
  for (const Value* key : keys) {
    out.write_value(*key);
    const InstanceState& state = instances_.at(*key);
    for (const NodeState& node : state.nodes) {
      write_values(out, node.side[0]);
      write_values(out, node.side[1]);
      out.write_u64(node.intervals.size());
      for (const Interval& interval : node.intervals) {
        out.write_u64(interval.seq);
        out.write_value(interval.start);
        out.write_timestamp(interval.deadline);
      }
      out.write_bool(node.open);
    }
  }
  // In the order they fire: (time, seq) orders them completely.
  auto deadlines = deadlines_;
  out.write_u64(deadlines.size());
  for (; !deadlines.empty(); deadlines.pop()) {
    const Deadline& d = deadlines.top();
    out.write_timestamp(d.time);
    out.write_u64(d.seq);
    out.write_value(d.instance);
    out.write_i64(d.node);
    out.write_bool(d.shared);
  }
  out.write_u64(shared_intervals_.size());
  for (const SharedInterval& interval : shared_intervals_) {
    out.write_u64(interval.seq);
    out.write_i64(interval.node);
    out.write_value(interval.start);
    out.write_u64(interval.instances.size());
    for (const auto& [instance, occurred] : interval.instances) {
      out.write_value(instance);
      out.write_bool(occurred);
    }
  }
  out.write_u64(next_seq_);
  save_site_ids(out, *ids_);
}

void EventDetector::restore(SnapshotReader& in) {
  const std::size_t nodes = graph_->size();
  if (in.read_u64("the detector's nodes") != nodes)
    in.reject("the detector's nodes", "the event expressions have another number of nodes");
  auto read_node = [&](std::string_view what) {
    std::int64_t node = in.read_i64(what);
    if (node < 0 || static_cast<std::size_t>(node) >= nodes) in.reject(what, "no such node");
    return static_cast<int>(node);
  };
  decltype(instances_) instances;
  for (std::size_t n = in.read_count("the instances"); n > 0; --n) {
    Value key = in.read_value("an instance");
    InstanceState state;
    state.nodes.resize(nodes);
    for (NodeState& node : state.nodes) {
      node.side[0] = read_values(in, "the occurrences held");
      node.side[1] = read_values(in, "the occurrences held");
      node.intervals.resize(in.read_count("the intervals"));
      for (Interval& interval : node.intervals) {
        interval.seq = in.read_u64("an interval's number");
        interval.start = in.read_value("an interval's start");
        interval.deadline = in.read_timestamp("an interval's deadline");
      }
      node.open = in.read_bool("whether an IN interval is open");
    }
    if (!instances.emplace(std::move(key), std::move(state)).second)
      in.reject("an instance", "it is there twice");
  }
  decltype(deadlines_) deadlines;
  for (std::size_t n = in.read_count("the deadlines"); n > 0; --n) {
    Deadline d;
    d.time = in.read_timestamp("a deadline");
    d.seq = in.read_u64("a deadline's interval");
    d.instance = in.read_value("a deadline's instance");
    d.node = read_node("a deadline's node");
    d.shared = in.read_bool("whether a deadline is of a shared interval");
    deadlines.push(std::move(d));
  }
  std::vector<SharedInterval> shared(in.read_count("the shared intervals"));
  for (SharedInterval& interval : shared) {
    interval.seq = in.read_u64("a shared interval's number");
    interval.node = read_node("a shared interval's node");
    interval.start = in.read_value("a shared interval's start");
    for (std::size_t n = in.read_count("a shared interval's instances"); n > 0; --n) {
      Value instance = in.read_value("a shared interval's instance");
      interval.instances[std::move(instance)] = in.read_bool("whether it occurred");
    }
  }
  std::uint64_t next_seq = in.read_u64("the next interval number");
  std::int64_t next_id = read_site_ids(in);
  instances_ = std::move(instances);
  deadlines_ = std::move(deadlines);
  shared_intervals_ = std::move(shared);
  next_seq_ = next_seq;
  apply_site_ids(*ids_, next_id);
}

}  // namespace cwf::eca
