// A group's queue with a port's window parts, for tests that ask one part (WindowStep,
// WindowSize) its decisions directly. Events are added to the group's storage; the step's
// per-group state is the test's own cursor.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "runtime/windows/window_group.hpp"
#include "runtime/windows/window_parts.hpp"
#include "window_harness.hpp"

namespace cwf::testing {

struct PartsFixture {
  PartsFixture(const std::string& size, const std::string& step)
      : PartsFixture(window(size, step)) {}
  explicit PartsFixture(WindowSpec spec_in)
      : spec(std::move(spec_in)), parts(make_window_parts(spec)), group(spec, parts, &live) {
    cursor.awaits_event = parts.step->watches_arrivals();
  }

  // Token `v` at time t (default: t = v), in wave `wave` (a root) when given.
  void add(int v, Timestamp t, WaveTag wave = {}) {
    if (cursor.awaits_event) parts.step->arrived(cursor, t);
    group.add(Event{Value(v), t, std::move(wave)}, port_arrivals++);
  }
  void add(int v) { add(v, v); }

  std::uint64_t port_arrivals = 0;

  static WindowProgress open(Timestamp closed_through) { return {closed_through, 0, false}; }
  static WindowProgress ended(Timestamp max_time) {
    return {std::numeric_limits<Timestamp>::max(), max_time, true};
  }

  // The step's place for the cursor's window; fails the test when it is not reached.
  WindowPlace place(const WindowProgress& p = open(0)) {
    WindowPlace out;
    placed = parts.step->place(group, cursor, p, out);
    return out;
  }
  // The lower bound of the cursor's window alone.
  WindowPlace bounds() {
    WindowPlace out;
    parts.step->bounds(cursor, out);
    return out;
  }
  // The size's selection from the step's place, as the tokens (queue values) it holds.
  std::vector<int> select(const WindowProgress& p) {
    sel.clear();
    deadline = kNoDeadline;
    ready = false;
    WindowPlace where;
    ready = parts.shape->select(group, cursor, p, where, sel, &deadline);
    return tokens();
  }
  // Looking back from the queue entry with arrival number `stepping`.
  std::vector<int> select_back(std::size_t stepping) {
    sel.clear();
    cursor.trigger_time = group.event(stepping).time;
    cursor.trigger_wave = group.wave(stepping);
    parts.size->select_back(group, stepping, cursor, sel);
    return tokens();
  }
  std::vector<int> tokens() const {
    std::vector<int> out;
    if (sel.range)
      for (std::size_t i = sel.begin; i < sel.end; ++i)
        out.push_back(static_cast<int>(group.event(i).token.as_int()));
    else
      for (std::size_t i : sel.indexes)
        out.push_back(static_cast<int>(group.event(i).token.as_int()));
    return out;
  }
  // The tokens the size lets go before the stepping event with arrival number `next`, oldest
  // first.
  std::vector<int> leaving_back(std::uint64_t next) {
    std::vector<std::size_t> leaving;
    parts.size->leaving_back(group, cursor, next, leaving);
    std::vector<int> out;
    for (auto i = leaving.rbegin(); i != leaving.rend(); ++i)
      out.push_back(static_cast<int>(group.event(*i).token.as_int()));
    return out;
  }

  // Restores the group's own state (WindowGroup::restore) as that of a group forming window `k`
  // (counted from 0) that received `arrived` events, of which those `queued` (arrival number,
  // token; the token is also the time) are still in its queue: a checkpoint can say so however
  // far the window is behind the arrivals. Written in WindowGroup::snapshot's layout
  // (window_group_snapshot.cpp): no sequence of events makes this state, and a change of layout
  // makes the restore throw, not pass quietly.
  void restore_behind(std::uint64_t k, std::uint64_t arrived,
                      const std::vector<std::pair<std::uint64_t, int>>& queued) {
    SnapshotWriter out;
    out.write_u64(arrived);
    out.write_u64(k);
    out.write_u64(0);  // origin
    out.write_timestamp(std::numeric_limits<Timestamp>::min());
    out.write_bool(false);  // started
    out.write_bool(false);  // parked
    out.write_bool(parts.step->watches_arrivals());
    out.write_timestamp(0);                                      // base
    out.write_timestamp(0);                                      // trigger time
    out.write_u64(0);                                            // trigger wave
    out.write_timestamp(std::numeric_limits<Timestamp>::min());  // late bound
    out.write_u64(queued.size());
    for (const auto& [seq, token] : queued) {
      out.write_u64(seq);
      out.write_u64(port_arrivals++);
      out.write_u64(0);  // wave ordinal
      out.write_bool(false);
      out.write_event(Event{Value(token), token, WaveTag()});
    }
    out.write_u64(0);  // wave records: base, count
    out.write_u64(0);
    out.write_bool(false);  // no window ready
    std::vector<std::uint8_t> bytes = out.take_bytes();
    SnapshotReader in(bytes);
    group.restore(in);
  }
  // The group's next window, as its tokens; empty when none is ready.
  std::vector<int> next_window(const WindowProgress& p = open(0)) {
    std::vector<int> out;
    Timestamp until = kNoDeadline;
    if (!group.evaluate(p, &until, [this](Event&& e) { expired.push_back(e.token.as_int()); }))
      return out;
    for (const Event& e : group.window_events())
      out.push_back(static_cast<int>(e.token.as_int()));
    return out;
  }
  std::vector<std::int64_t> expired;  // tokens next_window() saw leave

  WindowSpec spec;
  WindowParts parts;
  std::size_t live = 0;
  WindowGroup group;
  WindowCursor cursor;
  WindowSelection sel;
  Timestamp deadline = kNoDeadline;
  bool placed = false;
  bool ready = false;
};

}  // namespace cwf::testing
