// A group's queue with a port's window parts, for tests that ask one part (WindowStep,
// WindowSize) its decisions directly. Events are added to the group's storage; the step's
// per-group state is the test's own cursor.
#pragma once

#include <string>

#include "runtime/windows/window_group.hpp"
#include "runtime/windows/window_parts.hpp"
#include "window_harness.hpp"

namespace cwf::testing {

struct PartsFixture {
  PartsFixture(const std::string& size, const std::string& step)
      : spec(window(size, step)), parts(make_window_parts(spec)), group(spec, parts, &live) {
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
