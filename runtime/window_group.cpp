#include "runtime/window_group.hpp"

#include <algorithm>
#include <cstddef>

namespace cwf {

namespace {

constexpr Timestamp kNoDeadline = std::numeric_limits<Timestamp>::max();

Timestamp floor_div(Timestamp a, Timestamp b) {
  Timestamp q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

}  // namespace

Timestamp WindowGroup::late_before() const {
  if (step_is(WindowUnit::time) && started_ && !parked_)
    return std::max(late_before_, lower_time(k_));
  return late_before_;
}

bool WindowGroup::add(Event&& event) {
  std::uint64_t ordinal = 0;
  bool first_of_wave = false;
  if (spec_.uses_waves()) {
    WaveRoot key = event.wave.root();
    auto [it, inserted] = wave_ordinal_.try_emplace(key, waves_seen());
    if (inserted) waves_.push_back({WaveTag(key.time, key.sequence), 0, false});
    ordinal = it->second;
    first_of_wave = ++record(ordinal).live == 1;
  }
  if (step_is(WindowUnit::time)) {
    Timestamp t = event.time;
    if (!started_) {
      base_ = floor_div(t, x()) * x();
      started_ = true;
    } else if (parked_) {
      k_ = first_window_holding(t);
      parked_ = false;
    }
  }
  events_.push_back(std::move(event));
  seqs_.push_back(arrived_++);
  ordinals_.push_back(ordinal);
  gone_.push_back(0);
  ++live_;
  ++*live_total_;
  return first_of_wave;
}

std::uint64_t WindowGroup::first_window_holding(Timestamp t) const {
  Timestamp k =
      size_is(WindowUnit::time) ? floor_div(t - y() - base_, x()) + 1 : floor_div(t - base_, x());
  return std::max<std::uint64_t>(k_, k < 0 ? 0 : static_cast<std::uint64_t>(k));
}

void WindowGroup::wave_complete(const WaveTag& root) {
  auto it = wave_ordinal_.find(root.root());
  if (it == wave_ordinal_.end()) return;
  record(it->second).complete = true;
  prune_waves();
}

bool WindowGroup::waves_complete(std::uint64_t from, std::uint64_t to) const {
  if (waves_seen() < to) return false;
  // Waves before wave_base_ were complete when their records were dropped.
  for (std::uint64_t w = std::max(from, wave_base_); w < to; ++w)
    if (!waves_[w - wave_base_].complete) return false;
  return true;
}

void WindowGroup::prune_waves() {
  while (!waves_.empty() && waves_.front().complete && waves_.front().live == 0) {
    const WaveTag& root = waves_.front().root;
    wave_ordinal_.erase(root.root());
    waves_.pop_front();
    ++wave_base_;
  }
}

bool WindowGroup::evaluate(const WindowProgress& p, Timestamp* deadline, const ExpireFn& expire) {
  *deadline = kNoDeadline;
  if (ready_) return true;
  for (;;) {
    bool time_closed = false;
    if (!select(p, deadline, &time_closed)) return false;
    if (time_closed) late_before_ = std::max(late_before_, ready_end_);
    bool show_empty = spec_.closes_by_time() && !spec_.suppress_empty;
    if (selected_count() > 0 || show_empty) {
      materialize();
      ready_ = true;
      return true;
    }
    next_window(expire);
    if (step_is(WindowUnit::time)) {
      // Jump over the empty windows up to the first one that can hold a queued event.
      Timestamp earliest = kNoDeadline;
      for (std::size_t i = 0; i < size(); ++i)
        if (!gone(i)) earliest = std::min(earliest, event(i).time);
      if (earliest == kNoDeadline) {
        parked_ = true;
        return false;
      }
      k_ = first_window_holding(earliest);
    }
  }
}

bool WindowGroup::select(const WindowProgress& p, Timestamp* deadline, bool* time_closed) {
  selected_.clear();
  range_ = false;
  window_interval_.reset();
  if (looks_back()) return select_backwards(p);
  const bool eoi = p.end_of_input;
  auto last_time = [this](Timestamp otherwise) {
    return selected_count() == 0 ? otherwise : event(last_selected()).time;
  };

  if (step_is(WindowUnit::time)) {
    if (!started_ || parked_) return false;
    Timestamp lower = lower_time(k_);
    if (eoi && lower > p.max_time) return false;  // nothing can reach this window any more
    Timestamp period_end = lower + x();
    if (!spec_.size || size_is(WindowUnit::time)) {
      Timestamp end = spec_.size ? lower + y() : period_end;
      window_interval_ = WindowInterval{lower, end};
      for (std::size_t i = 0; i < size(); ++i) {
        Timestamp t = event(i).time;
        if (!gone(i) && t < end && (!spec_.size || t >= lower)) selected_.push_back(i);
      }
      if (end > p.closed_through) {
        *deadline = end;
        return false;
      }
      *time_closed = true;
      ready_end_ = end;
      window_time_ = end;
      return true;
    }
    bool period_closed = period_end <= p.closed_through;
    window_interval_ = WindowInterval{lower, period_end};
    if (size_is(WindowUnit::tokens)) {
      for (std::size_t i = 0; i < size() && selected_.size() < std::size_t(y()); ++i) {
        Timestamp t = event(i).time;
        if (!gone(i) && t >= lower && t < period_end) selected_.push_back(i);
      }
      if (selected_.size() < std::size_t(y()) && !period_closed) {
        *deadline = period_end;
        return false;
      }
    } else {  // waves
      std::optional<std::uint64_t> first;
      for (std::size_t i = 0; i < size(); ++i)
        if (!gone(i) && event(i).time >= lower && event(i).time < period_end &&
            (!first || wave(i) < *first))
          first = wave(i);
      if (!first) {
        if (!period_closed) {
          *deadline = period_end;
          return false;
        }
      } else {
        std::uint64_t to = *first + std::uint64_t(y());
        if (!eoi && !waves_complete(*first, to)) return false;
        for (std::size_t i = 0; i < size(); ++i)
          if (!gone(i) && event(i).time >= lower && wave(i) >= *first && wave(i) < to)
            selected_.push_back(i);
      }
    }
    if (period_closed) {
      *time_closed = true;
      ready_end_ = period_end;
    }
    window_time_ = last_time(period_end);
    return true;
  }

  // Token or wave step: the lower bound is an arrival position or a wave ordinal.
  const bool by_tokens = step_is(WindowUnit::tokens);
  const std::uint64_t lower = k_ * std::uint64_t(x());
  const std::uint64_t reached = by_tokens ? arrived_ : waves_seen();
  if (reached <= lower) return false;
  auto position = [this, by_tokens](std::size_t i) { return by_tokens ? seq(i) : wave(i); };

  if (!spec_.size) {
    const std::uint64_t upper = lower + std::uint64_t(x());
    bool complete = by_tokens ? arrived_ >= upper : waves_complete(lower, upper);
    if (!complete && !eoi) return false;
    for (std::size_t i = 0; i < size(); ++i)
      if (!gone(i) && position(i) < upper) selected_.push_back(i);
    window_time_ = last_time(0);
    return true;
  }
  // With no entry gone the queue holds consecutive arrival numbers from seq(0) on: a token
  // window is found by position, without a scan.
  const bool dense = by_tokens && gone_queued_ == 0;
  std::size_t first = 0;
  if (dense) {
    if (size() > 0 && lower > seq(0))
      first = static_cast<std::size_t>(std::min<std::uint64_t>(lower - seq(0), size()));
  } else {
    while (first < size() && (gone(first) || position(first) < lower))
      ++first;
  }
  if (first == size()) return false;  // the events at the lower bound were all used
  if (size_is(WindowUnit::tokens)) {
    if (dense) {
      range_ = true;
      sel_begin_ = first;
      sel_end_ = first + std::min<std::size_t>(std::size_t(y()), size() - first);
    } else {
      for (std::size_t i = first; i < size() && selected_.size() < std::size_t(y()); ++i)
        if (!gone(i) && position(i) >= lower) selected_.push_back(i);
    }
    if (selected_count() < std::size_t(y()) && !eoi) return false;
  } else if (size_is(WindowUnit::time)) {
    Timestamp t0 = event(first).time, end = t0 + y();
    window_interval_ = WindowInterval{t0, end};
    for (std::size_t i = first; i < size(); ++i) {
      Timestamp t = event(i).time;
      if (!gone(i) && position(i) >= lower && t >= t0 && t < end) selected_.push_back(i);
    }
    if (end > p.closed_through) {
      *deadline = end;
      return false;
    }
    *time_closed = true;
    ready_end_ = end;
    window_time_ = end;
    return true;
  } else {  // waves
    std::uint64_t w0 = wave(first), to = w0 + std::uint64_t(y());
    if (!eoi && !waves_complete(w0, to)) return false;
    for (std::size_t i = first; i < size(); ++i)
      if (!gone(i) && position(i) >= lower && wave(i) >= w0 && wave(i) < to) selected_.push_back(i);
  }
  window_time_ = last_time(0);
  return true;
}

bool WindowGroup::select_backwards(const WindowProgress&) {
  // Window k ends at its stepping event and looks back from it.
  const std::uint64_t stepping = stepping_seq();
  if (arrived_ <= stepping) return false;
  auto begin = seqs_.begin() + static_cast<std::ptrdiff_t>(head_);
  auto it = std::lower_bound(begin, seqs_.end(), stepping);
  if (it == seqs_.end() || *it != stepping) return true;  // used up: an empty window
  std::size_t ti = static_cast<std::size_t>(it - begin);
  if (gone(ti)) return true;
  const Event& trigger = event(ti);
  trigger_time_ = trigger.time;
  trigger_wave_ = wave(ti);
  window_time_ = trigger.time;
  if (size_is(WindowUnit::time))
    window_interval_ = WindowInterval{trigger_time_ - y(), trigger_time_, true};
  if (size_is(WindowUnit::tokens)) {
    for (std::size_t i = ti + 1; i-- > 0 && selected_.size() < std::size_t(y());)
      if (!gone(i)) selected_.push_back(i);
    std::reverse(selected_.begin(), selected_.end());
    return true;
  }
  for (std::size_t i = 0; i <= ti; ++i) {
    if (gone(i)) continue;
    Timestamp t = event(i).time;
    if (size_is(WindowUnit::time) && (t > trigger_time_ || t <= trigger_time_ - y())) continue;
    if (size_is(WindowUnit::waves) &&
        (wave(i) > trigger_wave_ || wave(i) + std::uint64_t(y()) <= trigger_wave_))
      continue;
    selected_.push_back(i);
  }
  return true;
}

void WindowGroup::materialize() {
  window_.clear();
  window_seqs_.clear();
  window_contiguous_ = true;
  // Selected entries side by side in the queue (none gone between them): a view, no copy.
  if (!range_ && !selected_.empty() &&
      selected_.back() - selected_.front() + 1 == selected_.size()) {
    range_ = true;
    sel_begin_ = selected_.front();
    sel_end_ = selected_.back() + 1;
    selected_.clear();
  }
  view_ = range_;
  if (view_) return;
  window_.reserve(selected_.size());
  std::size_t previous = 0;
  for (std::size_t i : selected_) {
    window_.push_back(event(i));
    window_seqs_.push_back(seq(i));
    // Contiguous when every entry between two selected ones is gone.
    if (window_seqs_.size() > 1)
      for (std::size_t j = previous + 1; j < i && window_contiguous_; ++j)
        if (!gone(j)) window_contiguous_ = false;
    previous = i;
  }
}

void WindowGroup::remove(std::size_t i, const ExpireFn* expire) {
  if (gone(i)) return;
  gone_[head_ + i] = 1;
  ++gone_queued_;
  --live_;
  --*live_total_;
  if (spec_.uses_waves()) {
    WaveRecord& rec = record(wave(i));
    if (--rec.live == 0 && wave_left_) wave_left_(rec.root);
  }
  if (expire) (*expire)(std::move(event(i)));
}

std::size_t WindowGroup::remove_case(const std::function<bool(const Event&)>& belongs) {
  std::size_t removed = 0;
  for (std::size_t i = 0; i < size(); ++i)
    if (!gone(i) && belongs(event(i))) {
      remove(i, nullptr);
      ++removed;
    }
  if (removed == 0) return 0;
  ready_ = false;
  view_ = false;
  range_ = false;
  selected_.clear();
  window_.clear();
  window_seqs_.clear();
  pop_front();
  return removed;
}

void WindowGroup::finish(bool delete_used, const ExpireFn& expire) {
  if (delete_used) {
    if (range_)
      for (std::size_t i = sel_begin_; i < sel_end_; ++i)
        remove(i, nullptr);
    else
      for (std::size_t i : selected_)
        remove(i, nullptr);
  }
  next_window(expire);
}

void WindowGroup::next_window(const ExpireFn& expire) {
  ready_ = false;
  view_ = false;
  range_ = false;
  selected_.clear();
  window_.clear();
  window_seqs_.clear();
  ++k_;
  if (!spec_.size) {
    pop_front();  // unbounded: events leave only when used
    return;
  }
  if (looks_back()) {
    // Later windows look back from later events: they hold the last `size` of the events before
    // the next stepping one at most. What leaves, leaves oldest first (CWP6).
    const std::uint64_t next_stepping = stepping_seq();
    std::int64_t kept = 0;
    leaving_.clear();
    for (std::size_t i = size(); i-- > 0;) {
      if (gone(i) || seq(i) >= next_stepping) continue;
      bool keep = size_is(WindowUnit::tokens) ? ++kept < y()
                  : size_is(WindowUnit::time) ? event(i).time > trigger_time_ - y()
                                              : wave(i) + std::uint64_t(y()) > trigger_wave_;
      if (!keep) leaving_.push_back(i);
    }
    for (auto i = leaving_.rbegin(); i != leaving_.rend(); ++i)
      remove(*i, &expire);
  } else if (step_is(WindowUnit::time)) {
    Timestamp lower = lower_time(k_);
    for (std::size_t i = 0; i < size(); ++i)
      if (!gone(i) && event(i).time < lower) remove(i, &expire);
  } else if (step_is(WindowUnit::tokens)) {
    // Arrival numbers ascend through the queue: only its front can fall below the bound.
    const std::uint64_t lower = k_ * std::uint64_t(x());
    for (std::size_t i = 0; i < size() && seq(i) < lower; ++i)
      remove(i, &expire);
  } else {
    const std::uint64_t lower = k_ * std::uint64_t(x());
    for (std::size_t i = 0; i < size(); ++i)
      if (!gone(i) && wave(i) < lower) remove(i, &expire);
  }
  pop_front();
}

void WindowGroup::pop_front() {
  while (size() > 0 && gone(0)) {
    Event drop(std::move(events_[head_]));  // release what a used event still holds
    ++head_;
    --gone_queued_;
  }
  if (size() == 0) {
    events_.clear();
    seqs_.clear();
    ordinals_.clear();
    gone_.clear();
    head_ = 0;
  } else if (head_ >= 1024 && head_ >= size()) {
    // Compact once the dead prefix outweighs the queue: amortised O(1) per event.
    auto cut = [this](auto& v) { v.erase(v.begin(), v.begin() + std::ptrdiff_t(head_)); };
    cut(events_);
    cut(seqs_);
    cut(ordinals_);
    cut(gone_);
    head_ = 0;
  }
  prune_waves();
}

}  // namespace cwf
