// A windowed receiver in a checkpoint (WindowedReceiver::snapshot / restore).
//
// Layout, after the base receiver's: the shape in effect (size and step, each present or not, with
// unit and amount; the timeout factor: a port reshaped while it ran is restored in the shape its
// groups were in, then reshaped to the spec it was built with); how far time has got (max time,
// clock offset and the time it was learned for, whether it is known, closed_through, whether any
// event came, the end of input, the port's arrivals); the groups in index order (with `idle`:
// whether the slot holds a group, its arrivals, and for a free slot its deadline version only,
// else whether it is ending, watched, its latest event time, when it went quiet, the arrival that
// ended it, the port's progress before that, whether its ready window closed by the end and whether
// the end closes its windows yet; then key when grouped, deadline version, the arrival number of
// its first event, ready, dirty, the group, WindowGroup::snapshot); with `idle`, the free slots and
// the idleness heap; the groups still to evaluate, in order; the ready windows and the deadlines as
// their heaps hold them (so that equal deadlines come out in the same order as they would have);
// the wave completion state; the waves queued in groups. The spec, its parts, the compiled group-by
// keys and the group key index are rebuilt.
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/execution/windowed_receiver.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf {

namespace {
// A priority queue's heap, in its own layout (std::priority_queue keeps it as a protected member).
template <typename Queue>
typename Queue::container_type& heap_of(Queue& queue) {
  struct Access : Queue {
    static typename Queue::container_type& of(Queue& q) { return q.*(&Access::c); }
  };
  return Access::of(queue);
}
template <typename Queue>
const typename Queue::container_type& heap_of(const Queue& queue) {
  return heap_of(const_cast<Queue&>(queue));
}
void write_extent(SnapshotWriter& out, const std::optional<WindowExtent>& extent) {
  out.write_bool(extent.has_value());
  if (!extent) return;
  out.write_u64(static_cast<std::uint64_t>(extent->unit));
  out.write_i64(extent->amount);
}

std::optional<WindowExtent> read_extent(SnapshotReader& in, std::string_view what) {
  if (!in.read_bool(what)) return std::nullopt;
  WindowExtent extent;
  std::uint64_t unit = in.read_u64(what);
  if (unit > static_cast<std::uint64_t>(WindowUnit::waves)) in.reject(what, "no such unit");
  extent.unit = static_cast<WindowUnit>(unit);
  extent.amount = in.read_i64(what);
  if (extent.amount < 1) in.reject(what, "an amount is at least 1");
  return extent;
}

}  // namespace

void WindowedReceiver::snapshot(SnapshotWriter& out) const {
  Receiver::snapshot(out);
  write_extent(out, spec_.size);
  write_extent(out, spec_.step);
  out.write_double(spec_.timeout);
  out.write_timestamp(max_time_);
  out.write_timestamp(clock_offset_);
  out.write_timestamp(offset_learned_for_);
  out.write_bool(offset_known_);
  out.write_timestamp(closed_through_);
  out.write_bool(any_event_);
  out.write_bool(end_of_input_);
  out.write_u64(arrivals_);

  out.write_u64(groups_.size());
  for (const GroupState& state : groups_) {
    if (idle_after_ > 0) {
      out.write_bool(state.group != nullptr);
      out.write_u64(state.arrivals);
      if (!state.group) {
        out.write_u64(state.version);
        continue;
      }
      out.write_bool(state.ending);
      out.write_bool(state.idle_armed);
      out.write_timestamp(state.last_time);
      out.write_timestamp(state.ended_at);
      out.write_u64(state.ended_before);
      out.write_timestamp(state.before_end.closed_through);
      out.write_timestamp(state.before_end.max_time);
      out.write_bool(state.ready_by_end);
      out.write_bool(state.end_reached);
    }
    if (!keys_.empty()) out.write_value(state.key);
    out.write_u64(state.version);
    out.write_u64(state.first_arrival);
    out.write_bool(state.ready);
    out.write_bool(state.dirty);
    state.group->snapshot(out);
  }
  if (idle_after_ > 0) {
    out.write_u64(free_.size());
    for (std::size_t g : free_)
      out.write_u64(g);
    // In (time, group) order, a heap too (restore() takes them into the heap): the same bytes
    // whether a mark was kept in the FIFO or in the heap.
    std::vector<IdleMark> marks = heap_of(idle_marks_);
    marks.insert(marks.end(), idle_fifo_.begin(), idle_fifo_.end());
    std::sort(marks.begin(), marks.end(), std::less<>());
    out.write_u64(marks.size());
    for (const IdleMark& mark : marks) {
      out.write_timestamp(mark.time);
      out.write_u64(mark.group);
    }
  }
  out.write_u64(dirty_.size());
  for (std::size_t g : dirty_)
    out.write_u64(g);
  const auto& ready = heap_of(ready_);
  out.write_u64(ready.size());
  for (const Ready& r : ready) {
    out.write_timestamp(r.time);
    out.write_u64(r.after);
    out.write_u64(r.group);
  }
  const auto& deadlines = heap_of(deadlines_);
  out.write_u64(deadlines.size());
  for (const Deadline& d : deadlines) {
    out.write_timestamp(d.time);
    out.write_u64(d.version);
    out.write_u64(d.group);
  }

  waves_.snapshot(out);
  std::vector<std::pair<WaveRoot, const QueuedWave*>> queued;
  queued.reserve(queued_waves_.size());
  for (const auto& [root, wave] : queued_waves_)
    queued.emplace_back(root, &wave);
  std::sort(queued.begin(), queued.end(), [](const auto& a, const auto& b) {
    return a.first.time != b.first.time ? a.first.time < b.first.time
                                        : a.first.sequence < b.first.sequence;
  });
  out.write_u64(queued.size());
  for (const auto& [root, wave] : queued) {
    out.write_timestamp(root.time);
    out.write_u64(root.sequence);
    out.write_u64(wave->holding);
    out.write_u64(wave->groups.size());
    for (std::size_t g : wave->groups)
      out.write_u64(g);
  }
}

void WindowedReceiver::restore(SnapshotReader& in) {
  Receiver::restore(in);
  WindowSpec built = spec_;
  WindowSpec stored = spec_;
  stored.size = read_extent(in, "the window's size");
  stored.step = read_extent(in, "the window's step");
  stored.timeout = in.read_double("the window's timeout");
  if (!(stored.timeout >= 0 && stored.timeout <= 1e9))
    in.reject("the window's timeout", "a factor from 0 to 1e9");
  const bool reshaped = !(stored == built);
  if (reshaped) {
    if (std::optional<std::string> why = reshape_refusal(stored, built))
      in.reject("the window's shape", "it was " + stored.describe() + ", the port has " +
                                          built.describe() + " now: " + *why);
  }
  max_time_ = in.read_timestamp("the latest event time");
  clock_offset_ = in.read_timestamp("the clock offset");
  offset_learned_for_ = in.read_timestamp("the time the clock offset was learned for");
  offset_known_ = in.read_bool("whether the clock offset is known");
  closed_through_ = in.read_timestamp("how far windows are closed");
  any_event_ = in.read_bool("whether an event came");
  end_of_input_ = in.read_bool("whether the input ended");
  arrivals_ = in.read_u64("the port's arrivals");

  groups_.clear();
  free_.clear();
  idle_fifo_.clear();
  idle_marks_ = {};
  index_.clear();
  dirty_.clear();
  evaluating_.clear();
  ready_ = {};
  deadlines_ = {};
  queued_waves_.clear();
  live_ = 0;
  if (reshaped) adopt_shape(stored);  // no group yet: the parts the groups were in

  const std::size_t groups = in.read_count("the groups");
  auto read_group_index = [&in, groups](std::string_view what) {
    std::uint64_t g = in.read_u64(what);
    if (g >= groups)
      in.reject(what,
                std::to_string(g) + " is not one of the " + std::to_string(groups) + " groups");
    return static_cast<std::size_t>(g);
  };
  std::size_t dirty_groups = 0, ready_groups = 0;
  std::size_t ended_slots = 0;
  for (std::size_t g = 0; g < groups; ++g) {
    std::uint64_t arrivals = 0;
    bool ending = false, armed = false;
    Timestamp last_time = 0, ended_at = 0;
    std::uint64_t ended_before = 0;
    WindowProgress before_end;
    bool ready_by_end = false, end_reached = false;
    if (idle_after_ > 0) {
      const bool alive = in.read_bool("whether a group slot holds a group");
      arrivals = in.read_u64("a group slot's arrivals");
      if (!alive) {
        GroupState ended;
        ended.arrivals = arrivals;
        ended.version = in.read_u64("a free slot's deadline version");
        groups_.push_back(std::move(ended));
        ++ended_slots;
        continue;
      }
      ending = in.read_bool("whether a group is ending");
      armed = in.read_bool("whether a group is watched for idleness");
      last_time = in.read_timestamp("a group's latest event time");
      ended_at = in.read_timestamp("when a group went quiet");
      ended_before = in.read_u64("the arrival that ended a group");
      if (ended_before > arrivals_)
        in.reject("the arrival that ended a group", "it is past the port's arrivals");
      before_end.closed_through =
          in.read_timestamp("how far windows were closed before a group ended");
      before_end.max_time = in.read_timestamp("the latest event time before a group ended");
      ready_by_end = in.read_bool("whether a group's window closed by its end");
      end_reached = in.read_bool("whether a group's end closes its windows");
      if ((ready_by_end && !end_reached) || (end_reached && !ending))
        in.reject("a group", "its windows close by an end it did not reach");
    }
    make_group();  // no slot is free while restoring: appended, index g
    if (!keys_.empty()) {
      Value key = in.read_value("a group's key");
      if (key.is_null()) in.reject("a group's key", "a group's key is never null");
      if (keys_.size() > 1 && (!key.is_array() || key.as_array().size() != keys_.size()))
        in.reject("a group's key", "it is not an array of one value per key expression");
      if (!ending) {
        const std::size_t hash = key.hash();
        if (indexed_group(key, hash) != GroupIndex::npos)
          in.reject("a group's key", "two groups have it");
        index_.insert(hash, g);
      }
      groups_.back().key = std::move(key);
    }
    GroupState& state = groups_.back();
    state.arrivals = arrivals;
    state.ending = ending;
    state.idle_armed = armed;
    state.last_time = last_time;
    state.ended_at = ended_at;
    state.ended_before = ended_before;
    state.before_end = before_end;
    state.ready_by_end = ready_by_end;
    state.end_reached = end_reached;
    state.version = in.read_u64("a group's deadline version");
    state.first_arrival = in.read_u64("the arrival number of a group's first event");
    if (state.first_arrival > arrivals_)
      in.reject("the arrival number of a group's first event", "it is past the port's arrivals");
    state.ready = in.read_bool("whether a group's window is ready");
    state.dirty = in.read_bool("whether a group is to be evaluated");
    state.group->restore(in);
    if (const std::size_t q = state.group->queued();
        q > 0 && state.group->port_arrival(q - 1) >= arrivals_)
      in.reject("a group's queue",
                "an arrival number at the port is not below the port's arrivals");
    if (end_reached) state.group->hide_empty_windows();
    if (state.ready != state.group->has_ready_window())
      in.reject("a group", "its ready window and the receiver's record of it disagree");
    dirty_groups += state.dirty;
    ready_groups += state.ready;
  }
  if (keys_.empty() && groups > 1) in.reject("the groups", "a port without group_by has one");
  if (idle_after_ > 0) {
    const std::size_t free_count = in.read_count("the free group slots");
    if (free_count != ended_slots) in.reject("the free group slots", "they are not the free ones");
    for (std::size_t i = 0; i < free_count; ++i) {
      std::size_t g = read_group_index("a free group slot");
      if (groups_[g].group || std::find(free_.begin(), free_.end(), g) != free_.end())
        in.reject("a free group slot", "it holds a group, or is listed twice");
      free_.push_back(g);
    }
    auto& marks = heap_of(idle_marks_);
    const std::size_t mark_count = in.read_count("the groups watched for idleness");
    for (std::size_t i = 0; i < mark_count; ++i) {
      IdleMark mark;
      mark.time = in.read_timestamp("a group's time watched for idleness");
      mark.group = read_group_index("a group watched for idleness");
      if (!groups_[mark.group].group || !groups_[mark.group].idle_armed)
        in.reject("a group watched for idleness", "it is not a watched group");
      marks.push_back(mark);
    }
    if (!std::is_heap(marks.begin(), marks.end(), std::greater<>()))
      in.reject("the groups watched for idleness", "they are not in heap order");
  }

  const std::size_t dirty = in.read_count("the groups to evaluate");
  std::vector<bool> listed(groups, false);
  for (std::size_t i = 0; i < dirty; ++i) {
    std::size_t g = read_group_index("a group to evaluate");
    if (!groups_[g].dirty || listed[g]) in.reject("a group to evaluate", "not a dirty group");
    listed[g] = true;
    dirty_.push_back(g);
  }
  if (dirty_.size() != dirty_groups)
    in.reject("the groups to evaluate", "a dirty group is missing from the list");

  auto& ready = heap_of(ready_);
  const std::size_t ready_count = in.read_count("the ready windows");
  std::fill(listed.begin(), listed.end(), false);
  for (std::size_t i = 0; i < ready_count; ++i) {
    Ready r;
    r.time = in.read_timestamp("a ready window's time");
    r.after = in.read_u64("a ready window's place in the arrival order");
    r.group = read_group_index("a ready window's group");
    if (!groups_[r.group].ready || listed[r.group])
      in.reject("a ready window", "its group has no window ready, or another one");
    const Ready expected = ready_entry(r.group);
    if (r.time != expected.time || r.after != expected.after)
      in.reject("a ready window", "its time or place is not its group's window's");
    r.tie = expected.tie;
    listed[r.group] = true;
    ready.push_back(r);
  }
  if (ready.size() != ready_groups) in.reject("the ready windows", "a ready group is missing");
  if (!std::is_heap(ready.begin(), ready.end(), std::greater<>()))
    in.reject("the ready windows", "they are not in heap order");

  auto& deadlines = heap_of(deadlines_);
  const std::size_t deadline_count = in.read_count("the deadlines");
  deadlines.reserve(deadline_count);
  for (std::size_t i = 0; i < deadline_count; ++i) {
    Deadline d;
    d.time = in.read_timestamp("a deadline");
    d.version = in.read_u64("a deadline's version");
    d.group = read_group_index("a deadline's group");
    deadlines.push_back(d);
  }
  if (!std::is_heap(deadlines.begin(), deadlines.end(), std::greater<>()))
    in.reject("the deadlines", "they are not in heap order");
  for (const Deadline& d : deadlines) {  // the entry of a group's version is its armed one
    GroupState& state = groups_[d.group];
    if (d.version == state.version && !state.ready) state.armed = d.time;
  }

  waves_.restore(in);
  const std::size_t queued = in.read_count("the waves queued in groups");
  for (std::size_t i = 0; i < queued; ++i) {
    WaveRoot root;
    root.time = in.read_timestamp("a queued wave's root time");
    root.sequence = in.read_u64("a queued wave's root sequence");
    auto [it, inserted] = queued_waves_.try_emplace(root);
    if (!inserted) in.reject("a queued wave", "it is written twice");
    it->second.holding = in.read_u64("the groups holding a wave");
    const std::size_t holders = in.read_count("the groups that received a wave");
    for (std::size_t j = 0; j < holders; ++j)
      it->second.groups.push_back(read_group_index("a group that received a wave"));
    if (it->second.holding > holders)
      in.reject("the groups holding a wave", "more than received it");
  }
  if (reshaped) {
    holding_ = true;  // until the receiver is next used: the other cells are restored by then
    reshape(built);
  }
}

}  // namespace cwf
