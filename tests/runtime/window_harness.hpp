// Drives a WindowedReceiver without a cell: events go straight to the window operator, windows
// are taken one by one, expired and late events and wake-up requests are recorded.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "runtime/execution/windowed_receiver.hpp"

namespace cwf::testing {

class WindowHarness : public WindowedReceiver {
 public:
  using WindowedReceiver::WindowedReceiver;

  // `producer`: the connection the event comes through (wave windows complete waves per producer).
  void push(Value token, Timestamp time = 0, WaveTag wave = {}, std::size_t producer = 0) {
    accept(Event{std::move(token), time, std::move(wave)}, producer);
  }
  // Pushes tokens 0, 1, ... n-1 at times 0, 1, ... n-1.
  void push_range(int from, int to) {
    for (int i = from; i < to; ++i)
      push(i, i);
  }

  // Takes every ready window in order. `fires` is the actor's precondition (a window it declines
  // is neither used nor consumed); an actor that fires consumes.
  std::vector<std::vector<Value>> take(
      const std::function<bool(std::span<const Event>)>& fires = nullptr) {
    std::vector<std::vector<Value>> out;
    while (has_window()) {
      Window w = front_window();
      std::vector<Value> tokens;
      for (const Event& e : w.events)
        tokens.push_back(e.token);
      times.push_back(w.time);
      out.push_back(std::move(tokens));
      bool fired = !fires || fires(w.events);
      finish_window(fired, fired);
    }
    return out;
  }
  // advance(now, end_of_input) then take().
  std::vector<std::vector<Value>> at(
      Timestamp now, bool end_of_input = false,
      const std::function<bool(std::span<const Event>)>& fires = nullptr) {
    advance(now, end_of_input);
    return take(fires);
  }
  std::vector<std::vector<Value>> end(
      const std::function<bool(std::span<const Event>)>& fires = nullptr) {
    return at(0, true, fires);
  }
  std::vector<Value> expired_tokens() const {
    std::vector<Value> out;
    for (const Event& e : expired)
      out.push_back(e.token);
    return out;
  }

  std::vector<Event> expired;
  std::vector<Timestamp> times;  // of the windows taken, in order
  std::vector<Timestamp> wakeups;
  int late = 0;

 protected:
  void expire(Event&& event) override { expired.push_back(std::move(event)); }
  void count_late() override { ++late; }
  void wake_at(Timestamp time) override { wakeups.push_back(time); }
};

// Windows as lists of integers, for compact expectations.
using Ints = std::vector<std::vector<int>>;
inline Ints ints(const std::vector<std::vector<Value>>& windows) {
  Ints out;
  for (const auto& w : windows) {
    out.emplace_back();
    for (const Value& v : w)
      out.back().push_back(static_cast<int>(v.as_int()));
  }
  return out;
}
inline std::vector<int> ints(const std::vector<Value>& values) {
  std::vector<int> out;
  for (const Value& v : values)
    out.push_back(static_cast<int>(v.as_int()));
  return out;
}

inline WindowSpec window(const std::string& size, const std::string& step) {
  WindowSpec spec;
  if (!size.empty()) spec.size = parse_window_extent(size);
  if (!step.empty()) spec.step = parse_window_extent(step);
  return spec;
}

// Windows of records {k, v} as "key:v1,v2" ("-" for an empty window).
// A token {k, v}, grouped by `group_by: /k`; show() writes a window of them as "k:v,v".
inline Value keyed(std::string_view k, int v) {
  return Value::record({{"k", Value(k)}, {"v", Value(v)}});
}

inline std::vector<std::string> show(const std::vector<std::vector<Value>>& windows) {
  std::vector<std::string> out;
  for (const auto& w : windows) {
    std::string s = w.empty() ? "-" : std::string(w.front().field("k")->as_string()) + ":";
    for (std::size_t i = 0; i < w.size(); ++i)
      s += (i ? "," : "") + std::to_string(w[i].field("v")->as_int());
    out.push_back(s);
  }
  return out;
}

}  // namespace cwf::testing
