// Size D (a duration): window k holds the events at or past its step's lower bound with a
// timestamp in [t0, t0 + D), t0 being the step's start (a time step's L, else the timestamp of the
// event at the lower bound); it closes by time at t0 + D. Looking back from a stepping event at t
// (no step, or a token step): the events in (t - D, t].
#pragma once

#include <cstdint>

#include "runtime/windows/window_group.hpp"
#include "runtime/windows/window_size.hpp"

namespace cwf {

class WindowSizeTime final : public WindowSize {
 public:
  explicit WindowSizeTime(Duration d) : d_(d) {}

  // Forward selection (see WindowSize).
  template <class Step>
  bool select(const WindowGroup& group, const Step& step, const WindowPlace& place,
              const WindowProgress& progress, WindowSelection& out, Timestamp* deadline) const;
  void select_back(const WindowGroup& group, std::size_t stepping, const WindowCursor& cursor,
                   WindowSelection& out) const override;
  void leaving_back(const WindowGroup& group, const WindowCursor& cursor,
                    std::uint64_t next_stepping, std::vector<std::size_t>& leaving) const override;
  // "The last D, every N tokens": a token step's window ends at its stepping token.
  bool reaches_back_from_end() const override { return true; }
  std::optional<Duration> time_extent() const override { return d_; }

 private:
  Duration d_;
};

template <class Step>
bool WindowSizeTime::select(const WindowGroup& group, const Step& step, const WindowPlace& place,
                            const WindowProgress& progress, WindowSelection& out,
                            Timestamp* deadline) const {
  if (place.missing_first) return false;
  const Timestamp t0 = step.start_time(group, place), end = t0 + d_;
  if (end > progress.closed_through) {
    *deadline = end;
    return false;
  }
  out.interval = WindowInterval{t0, end};
  for (std::size_t i = place.first; i < group.queued(); ++i) {
    Timestamp t = group.event(i).time;
    if (!group.gone(i) && group.at_or_past(place, i) && t >= t0 && t < end)
      out.indexes.push_back(i);
  }
  out.time_closed = true;
  out.closed_end = end;
  out.time = end;
  return true;
}

}  // namespace cwf
