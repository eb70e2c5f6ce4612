#include "runtime/window_group.hpp"

#include <algorithm>

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
  Entry entry{std::move(event), arrived_++, 0, false};
  bool first_of_wave = false;
  if (spec_.uses_waves()) {
    WaveRoot key = entry.event.wave.root();
    auto [it, inserted] = wave_ordinal_.try_emplace(key, waves_seen());
    if (inserted) waves_.push_back({WaveTag(key.time, key.sequence), 0, false});
    entry.wave = it->second;
    first_of_wave = ++record(entry.wave).live == 1;
  }
  if (step_is(WindowUnit::time)) {
    Timestamp t = entry.event.time;
    if (!started_) {
      base_ = floor_div(t, x()) * x();
      started_ = true;
    } else if (parked_) {
      k_ = first_window_holding(t);
      parked_ = false;
    }
  }
  queue_.push_back(std::move(entry));
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
    if (!selected_.empty() || show_empty) {
      materialize();
      ready_ = true;
      return true;
    }
    next_window(expire);
    if (step_is(WindowUnit::time)) {
      // Jump over the empty windows up to the first one that can hold a queued event.
      Timestamp earliest = kNoDeadline;
      for (const Entry& e : queue_)
        if (!e.gone) earliest = std::min(earliest, e.event.time);
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
  if (!spec_.step) return select_backwards(p);
  const bool eoi = p.end_of_input;
  auto last_time = [this](Timestamp otherwise) {
    return selected_.empty() ? otherwise : queue_[selected_.back()].event.time;
  };

  if (step_is(WindowUnit::time)) {
    if (!started_ || parked_) return false;
    Timestamp lower = lower_time(k_);
    if (eoi && lower > p.max_time) return false;  // nothing can reach this window any more
    Timestamp period_end = lower + x();
    if (!spec_.size || size_is(WindowUnit::time)) {
      Timestamp end = spec_.size ? lower + y() : period_end;
      for (std::size_t i = 0; i < queue_.size(); ++i) {
        const Entry& e = queue_[i];
        if (!e.gone && e.event.time < end && (!spec_.size || e.event.time >= lower))
          selected_.push_back(i);
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
    if (size_is(WindowUnit::tokens)) {
      for (std::size_t i = 0; i < queue_.size() && selected_.size() < std::size_t(y()); ++i) {
        const Entry& e = queue_[i];
        if (!e.gone && e.event.time >= lower && e.event.time < period_end) selected_.push_back(i);
      }
      if (selected_.size() < std::size_t(y()) && !period_closed) {
        *deadline = period_end;
        return false;
      }
    } else {  // waves
      std::optional<std::uint64_t> first;
      for (const Entry& e : queue_)
        if (!e.gone && e.event.time >= lower && e.event.time < period_end &&
            (!first || e.wave < *first))
          first = e.wave;
      if (!first) {
        if (!period_closed) {
          *deadline = period_end;
          return false;
        }
      } else {
        std::uint64_t to = *first + std::uint64_t(y());
        if (!eoi && !waves_complete(*first, to)) return false;
        for (std::size_t i = 0; i < queue_.size(); ++i) {
          const Entry& e = queue_[i];
          if (!e.gone && e.event.time >= lower && e.wave >= *first && e.wave < to)
            selected_.push_back(i);
        }
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
  auto position = [by_tokens](const Entry& e) { return by_tokens ? e.seq : e.wave; };

  if (!spec_.size) {
    const std::uint64_t upper = lower + std::uint64_t(x());
    bool complete = by_tokens ? arrived_ >= upper : waves_complete(lower, upper);
    if (!complete && !eoi) return false;
    for (std::size_t i = 0; i < queue_.size(); ++i)
      if (!queue_[i].gone && position(queue_[i]) < upper) selected_.push_back(i);
    window_time_ = last_time(0);
    return true;
  }
  std::size_t first = 0;
  while (first < queue_.size() && (queue_[first].gone || position(queue_[first]) < lower))
    ++first;
  if (first == queue_.size()) return false;  // the events at the lower bound were all used
  if (size_is(WindowUnit::tokens)) {
    for (std::size_t i = first; i < queue_.size() && selected_.size() < std::size_t(y()); ++i)
      if (!queue_[i].gone && position(queue_[i]) >= lower) selected_.push_back(i);
    if (selected_.size() < std::size_t(y()) && !eoi) return false;
  } else if (size_is(WindowUnit::time)) {
    Timestamp t0 = queue_[first].event.time, end = t0 + y();
    for (std::size_t i = first; i < queue_.size(); ++i) {
      const Entry& e = queue_[i];
      if (!e.gone && position(e) >= lower && e.event.time >= t0 && e.event.time < end)
        selected_.push_back(i);
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
    std::uint64_t w0 = queue_[first].wave, to = w0 + std::uint64_t(y());
    if (!eoi && !waves_complete(w0, to)) return false;
    for (std::size_t i = first; i < queue_.size(); ++i) {
      const Entry& e = queue_[i];
      if (!e.gone && position(e) >= lower && e.wave >= w0 && e.wave < to) selected_.push_back(i);
    }
  }
  window_time_ = last_time(0);
  return true;
}

bool WindowGroup::select_backwards(const WindowProgress&) {
  // No step: window k is the k-th event's, looking back from it.
  if (arrived_ <= k_) return false;
  auto it = std::lower_bound(queue_.begin(), queue_.end(), k_,
                             [](const Entry& e, std::uint64_t seq) { return e.seq < seq; });
  if (it == queue_.end() || it->seq != k_ || it->gone) return true;  // used up: an empty window
  const Entry& trigger = *it;
  std::size_t ti = static_cast<std::size_t>(it - queue_.begin());
  trigger_time_ = trigger.event.time;
  trigger_wave_ = trigger.wave;
  window_time_ = trigger.event.time;
  if (size_is(WindowUnit::tokens)) {
    for (std::size_t i = ti + 1; i-- > 0 && selected_.size() < std::size_t(y());)
      if (!queue_[i].gone) selected_.push_back(i);
    std::reverse(selected_.begin(), selected_.end());
    return true;
  }
  for (std::size_t i = 0; i <= ti; ++i) {
    const Entry& e = queue_[i];
    if (e.gone) continue;
    if (size_is(WindowUnit::time) &&
        (e.event.time > trigger_time_ || e.event.time <= trigger_time_ - y()))
      continue;
    if (size_is(WindowUnit::waves) &&
        (e.wave > trigger_wave_ || e.wave + std::uint64_t(y()) <= trigger_wave_))
      continue;
    selected_.push_back(i);
  }
  return true;
}

void WindowGroup::materialize() {
  window_.clear();
  window_.reserve(selected_.size());
  window_seqs_.clear();
  window_contiguous_ = true;
  std::size_t previous = 0;
  for (std::size_t i : selected_) {
    window_.push_back(queue_[i].event);
    window_seqs_.push_back(queue_[i].seq);
    // Contiguous when every entry between two selected ones is gone.
    if (window_seqs_.size() > 1)
      for (std::size_t j = previous + 1; j < i && window_contiguous_; ++j)
        if (!queue_[j].gone) window_contiguous_ = false;
    previous = i;
  }
}

void WindowGroup::remove(Entry& e, const ExpireFn* expire) {
  if (e.gone) return;
  e.gone = true;
  --live_;
  --*live_total_;
  if (spec_.uses_waves()) {
    WaveRecord& wave = record(e.wave);
    if (--wave.live == 0 && wave_left_) wave_left_(wave.root);
  }
  if (expire) (*expire)(std::move(e.event));
}

void WindowGroup::finish(bool delete_used, const ExpireFn& expire) {
  if (delete_used)
    for (std::size_t i : selected_)
      remove(queue_[i], nullptr);
  next_window(expire);
}

void WindowGroup::next_window(const ExpireFn& expire) {
  ready_ = false;
  selected_.clear();
  window_.clear();
  window_seqs_.clear();
  ++k_;
  if (!spec_.size) {
    pop_front();  // unbounded: events leave only when used
    return;
  }
  if (!spec_.step) {
    // Later windows look back from later events: they hold the last `size` of the triggered
    // events at most.
    std::uint64_t triggered = k_;
    std::int64_t kept = 0;
    for (std::size_t i = queue_.size(); i-- > 0;) {
      Entry& e = queue_[i];
      if (e.gone || e.seq >= triggered) continue;
      bool keep = size_is(WindowUnit::tokens) ? ++kept < y()
                  : size_is(WindowUnit::time) ? e.event.time > trigger_time_ - y()
                                              : e.wave + std::uint64_t(y()) > trigger_wave_;
      if (!keep) remove(e, &expire);
    }
  } else if (step_is(WindowUnit::time)) {
    Timestamp lower = lower_time(k_);
    for (Entry& e : queue_)
      if (!e.gone && e.event.time < lower) remove(e, &expire);
  } else {
    const std::uint64_t lower = k_ * std::uint64_t(x());
    const bool by_tokens = step_is(WindowUnit::tokens);
    for (Entry& e : queue_)
      if (!e.gone && (by_tokens ? e.seq : e.wave) < lower) remove(e, &expire);
  }
  pop_front();
}

void WindowGroup::pop_front() {
  while (!queue_.empty() && queue_.front().gone)
    queue_.pop_front();
  prune_waves();
}

}  // namespace cwf
