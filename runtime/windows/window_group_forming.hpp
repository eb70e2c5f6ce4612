// How a group forms its windows with the port's step and size: WindowGroup's evaluate and finish,
// written once as templates over the two parts' types. WindowShapeOf compiles them for the
// port's pair of kinds, so that the parts' per-window calls are direct and inline (see
// window_shape.hpp). Included where the shapes are made (window_parts.cpp), and by tests of them.
#pragma once

#include <algorithm>
#include <cstddef>

#include "runtime/windows/window_group.hpp"

namespace cwf {

// Window k forward from its lower bound: where the step places it, then what the size selects
// from there (false: the place is not reached, or the window is not ready).
template <class Step, class Size>
bool select_forward(const Step& step, const Size& size, const WindowGroup& group,
                    const WindowCursor& cursor, const WindowProgress& progress, WindowPlace& place,
                    WindowSelection& out, Timestamp* deadline) {
  return step.place(group, cursor, progress, place) &&
         size.select(group, step, place, progress, out, deadline);
}

template <class Step, class Size>
bool WindowGroup::evaluate_as(const Step& step, const Size& size, const WindowProgress& p,
                              Timestamp* deadline, const ExpireFn& expire) {
  *deadline = kNoDeadline;
  if (ready_) return true;
  if (bounds_by_arrival_) expire_below_arrival_bound_as(step, expire);
  for (;;) {
    if (!select_as(step, size, p, deadline)) return false;
    if (sel_.time_closed) late_before_ = std::max(late_before_, sel_.closed_end);
    if (sel_.count() > 0 || show_empty_) {
      materialize();
      ready_ = true;
      return true;
    }
    next_window_as(step, size, expire);
    const std::uint64_t passed_to = cursor_.k;
    if (!step.skip_empty(*this, cursor_)) return false;
    // Windows that look back let events leave as the cursor passes them: those no window from the
    // one jumped to on can hold leave now, as they would have window by window.
    if (looks_back_ && bounded_ && cursor_.k != passed_to) leave_back_as(step, size, expire);
  }
}

template <class Step, class Size>
bool WindowGroup::select_as(const Step& step, const Size& size, const WindowProgress& p,
                            Timestamp* deadline) {
  *deadline = kNoDeadline;
  sel_.clear();
  if (looks_back_) return select_backwards_as(step, size);
  WindowPlace place;
  return select_forward(step, size, *this, cursor_, p, place, sel_, deadline);
}

template <class Step, class Size>
bool WindowGroup::select_backwards_as(const Step& step, const Size& size) {
  // Window k ends at its stepping event and looks back from it.
  const std::uint64_t stepping = step.stepping_seq(cursor_);
  if (arrived_ <= stepping) return false;
  auto begin = seqs_.begin() + static_cast<std::ptrdiff_t>(head_);
  auto it = std::lower_bound(begin, seqs_.end(), stepping);
  if (it == seqs_.end() || *it != stepping) return true;  // used up: an empty window
  std::size_t ti = static_cast<std::size_t>(it - begin);
  if (gone(ti)) return true;
  cursor_.trigger_time = event(ti).time;
  cursor_.trigger_wave = wave(ti);
  sel_.time = cursor_.trigger_time;
  size.select_back(*this, ti, cursor_, sel_);
  return true;
}

template <class Step, class Size>
void WindowGroup::finish_as(const Step& step, const Size& size, bool delete_used,
                            const ExpireFn& expire) {
  if (delete_used) {
    if (sel_.range)
      for (std::size_t i = sel_.begin; i < sel_.end; ++i)
        remove(i, nullptr);
    else
      for (std::size_t i : sel_.indexes)
        remove(i, nullptr);
  }
  next_window_as(step, size, expire);
}

template <class Step, class Size>
void WindowGroup::next_window_as(const Step& step, const Size& size, const ExpireFn& expire) {
  ready_ = false;
  clear_window();
  step.next(cursor_);
  if (!bounded_) {
    pop_front();  // unbounded: events leave only when used
    return;
  }
  if (looks_back_) {
    leave_back_as(step, size, expire);
    return;
  }
  // Later windows start at or past the next window's lower bound: what lies below it leaves.
  WindowPlace next;
  step.bounds(cursor_, next);
  if (next.by_arrival_only()) {
    expire_front_below(next.seq_from, expire);
  } else {
    for (std::size_t i = 0; i < queued(); ++i)
      if (!gone(i) && !at_or_past(next, i)) remove(i, &expire);
  }
  pop_front();
}

template <class Step, class Size>
void WindowGroup::leave_back_as(const Step& step, const Size& size, const ExpireFn& expire) {
  // Later windows look back from later events; the size says which events before the cursor's
  // stepping one they can no longer hold. What leaves, leaves oldest first (CWP6).
  leaving_.clear();
  size.leaving_back(*this, cursor_, step.stepping_seq(cursor_), leaving_);
  for (auto i = leaving_.rbegin(); i != leaving_.rend(); ++i)
    remove(*i, &expire);
  pop_front();
}

template <class Step>
void WindowGroup::expire_below_arrival_bound_as(const Step& step, const ExpireFn& expire) {
  // An event that arrives after the windows its arrival number falls into were finished (a token
  // step: between two windows, or after the last) is held by no window: it expires now instead
  // of waiting in the queue for a window that never comes.
  if (queued() == 0) return;
  WindowPlace below;
  step.bounds(cursor_, below);
  if (below.by_arrival_only() && seq(0) < below.seq_from)
    expire_late_arrivals(below.seq_from, expire);
}

}  // namespace cwf
