// What a window operator on an input port is asked to do (the seed's window specification,
// 3.2.2.1): size and step, each in tokens, time or waves; group-by keys; whether used events are
// deleted; the formation timeout factor; whether empty windows are suppressed.
//
// Written in a workflow file as the `window:` key of a long-form connection:
//
//   window: {size: 5 min, step: 1 min, group_by: [/user, as_set(/tags)], delete_used: true,
//            timeout: 2, suppress_empty: true, idle: 10 min, expired_to: log.in}
//
// The window belongs to the input port the connection feeds (`expired_to` too, see PortWindow):
// every connection into the port shares it. The semantics are
// described in docs/workflow-yaml.md, "Windows", and implemented by WindowedReceiver.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/expressions/expression.hpp"
#include "runtime/time/clock.hpp"

namespace cwf {

enum class WindowUnit { tokens, time, waves };

// An amount in one unit: a count of tokens or waves, or a duration in nanoseconds.
struct WindowExtent {
  WindowUnit unit = WindowUnit::tokens;
  std::int64_t amount = 1;

  bool operator==(const WindowExtent&) const = default;
  // "5 tokens", "1 wave", "30 s".
  std::string to_string() const;
};

// "5 tokens", "1 token", "2 waves", "1 wave", or a duration ("30 s", "500ms", "1.5 min").
// Throws std::invalid_argument with the reason ("unknown unit 'tokenz' (use tokens, waves or a
// time unit: ns, us, ms, s, min or h)", "must be at least 1 token, got '0 tokens'").
WindowExtent parse_window_extent(std::string_view text);

struct WindowSpec {
  // No step: a window is evaluated on every new event. No size: a window holds everything
  // since the start (or since events were last deleted).
  std::optional<WindowExtent> size;
  std::optional<WindowExtent> step;
  // Group-by keys, evaluated in order on each token; one queue per distinct list of values.
  std::vector<std::string> group_by;
  // Remove the events of a window the actor fired on and consumed (its delete-used signal).
  bool delete_used = false;
  // Formation timeout factor T: a time window [s, e) closes at the latest when the workflow clock
  // reaches e + T x size (T x step for windows without a size), even if no event at or past e has
  // arrived. 0 closes windows as soon as the clock passes their end.
  double timeout = 1.0;
  // Drop the empty windows that time-based windows produce (a group with no event in [s, e)).
  bool suppress_empty = false;
  // With group_by: a group that has had no event for this long (event time: the port's latest
  // event is that far past the group's latest) ends as it would at the end of input (its partial
  // windows close, what is left expires) and is forgotten; its key's next event starts a new
  // group. So memory follows the groups that are live, not every key ever seen.
  std::optional<Duration> idle;

  // Field by field (group_by by source text): whether two declarations ask for the same window.
  bool operator==(const WindowSpec&) const = default;
  // Text for people (graph labels, error messages), never compared:
  // "window(size: 5 tokens, step: 3 tokens, group_by: [/a, /b], delete_used, timeout: 2,
  // suppress_empty)"; defaults are left out.
  std::string describe() const;
  // The compiled group-by keys. Throws ExprError for an expression that does not compile.
  std::vector<Expression> compile_group_by() const;
  // Whether any window closes by time (and so needs the formation timeout and can see late
  // events).
  // A time step, or a time size with a step: such windows close when an event at or past their
  // end arrives, at their formation timeout, or at the end of input.
  bool closes_by_time() const;
  // How long after a window's end (on the workflow clock) it closes at the latest: timeout x the
  // size when the size is a time, else timeout x the step. Very large for windows that do not close
  // by time.
  Duration timeout_after_end() const;
  // The step or the size counts waves (asked per event: inline).
  bool uses_waves() const {
    return (step && step->unit == WindowUnit::waves) || (size && size->unit == WindowUnit::waves);
  }
};

// Why the window of a running port cannot change from `from` to `to`, or nothing when it can:
// only the amounts of its size and step and its formation timeout may differ (the units, whether
// there is a size and a step, group_by, delete_used and suppress_empty decide what the queued
// events and the windows formed so far mean). E.g. "the step is counted in tokens: it cannot
// become 30 s".
std::optional<std::string> reshape_refusal(const WindowSpec& from, const WindowSpec& to);

}  // namespace cwf
