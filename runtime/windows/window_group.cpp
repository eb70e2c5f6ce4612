#include "runtime/windows/window_group.hpp"

#include <algorithm>
#include <cstddef>

namespace cwf {

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
  if (cursor_.awaits_event) step_->arrived(cursor_, event.time);
  events_.push_back(std::move(event));
  seqs_.push_back(arrived_++);
  ordinals_.push_back(ordinal);
  gone_.push_back(0);
  ++live_;
  ++*live_total_;
  return first_of_wave;
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
  if (bounds_by_arrival_) expire_below_arrival_bound(expire);
  for (;;) {
    if (!select(p, deadline)) return false;
    if (sel_.time_closed) late_before_ = std::max(late_before_, sel_.closed_end);
    if (sel_.count() > 0 || show_empty_) {
      materialize();
      ready_ = true;
      return true;
    }
    next_window(expire);
    if (!step_->skip_empty(*this, cursor_)) return false;
  }
}

bool WindowGroup::select(const WindowProgress& p, Timestamp* deadline) {
  *deadline = kNoDeadline;
  sel_.clear();
  if (looks_back_) return select_backwards();
  if (!step_->place(*this, cursor_, p, place_)) return false;
  return size_->select(*this, *step_, place_, p, sel_, deadline);
}

bool WindowGroup::select_backwards() {
  // Window k ends at its stepping event and looks back from it.
  const std::uint64_t stepping = step_->stepping_seq(cursor_);
  if (arrived_ <= stepping) return false;
  auto begin = seqs_.begin() + static_cast<std::ptrdiff_t>(head_);
  auto it = std::lower_bound(begin, seqs_.end(), stepping);
  if (it == seqs_.end() || *it != stepping) return true;  // used up: an empty window
  std::size_t ti = static_cast<std::size_t>(it - begin);
  if (gone(ti)) return true;
  cursor_.trigger_time = event(ti).time;
  cursor_.trigger_wave = wave(ti);
  sel_.time = cursor_.trigger_time;
  size_->select_back(*this, ti, cursor_, sel_);
  return true;
}

void WindowGroup::materialize() {
  window_.clear();
  window_seqs_.clear();
  window_contiguous_ = true;
  // Selected entries side by side in the queue (none gone between them): a view, no copy.
  std::vector<std::size_t>& selected = sel_.indexes;
  if (!sel_.range && !selected.empty() &&
      selected.back() - selected.front() + 1 == selected.size()) {
    sel_.range = true;
    sel_.begin = selected.front();
    sel_.end = selected.back() + 1;
    selected.clear();
  }
  view_ = sel_.range;
  if (view_) return;
  window_.reserve(selected.size());
  std::size_t previous = 0;
  for (std::size_t i : selected) {
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
  if (expire) (*expire)(std::move(stored(i)));
}

std::size_t WindowGroup::remove_case(const std::function<bool(const Event&)>& belongs) {
  std::size_t removed = 0;
  for (std::size_t i = 0; i < queued(); ++i)
    if (!gone(i) && belongs(event(i))) {
      remove(i, nullptr);  // as deleted as used: the case's events do not expire
      ++removed;
    }
  if (removed == 0) return 0;
  // A ready window may hold removed events: it is selected again from what is left.
  drop_ready();
  pop_front();
  return removed;
}

void WindowGroup::drop_ready() {
  ready_ = false;
  view_ = false;
  sel_.clear();
  window_.clear();
  window_seqs_.clear();
}

void WindowGroup::finish(bool delete_used, const ExpireFn& expire) {
  if (delete_used) {
    if (sel_.range)
      for (std::size_t i = sel_.begin; i < sel_.end; ++i)
        remove(i, nullptr);
    else
      for (std::size_t i : sel_.indexes)
        remove(i, nullptr);
  }
  next_window(expire);
}

void WindowGroup::next_window(const ExpireFn& expire) {
  ready_ = false;
  view_ = false;
  sel_.clear();
  window_.clear();
  window_seqs_.clear();
  step_->next(cursor_);
  if (!bounded_) {
    pop_front();  // unbounded: events leave only when used
    return;
  }
  if (looks_back_) {
    // Later windows look back from later events; the size says which events before the next
    // stepping one they can no longer hold. What leaves, leaves oldest first (CWP6).
    leaving_.clear();
    size_->leaving_back(*this, cursor_, step_->stepping_seq(cursor_), leaving_);
    for (auto i = leaving_.rbegin(); i != leaving_.rend(); ++i)
      remove(*i, &expire);
  } else {
    // Later windows start at or past the next window's lower bound: what lies below it leaves.
    WindowPlace& next = place_;
    step_->bounds(cursor_, next);
    if (next.by_arrival_only()) {
      expire_front_below(next.seq_from, expire);
    } else {
      for (std::size_t i = 0; i < queued(); ++i)
        if (!gone(i) && !at_or_past(next, i)) remove(i, &expire);
    }
  }
  pop_front();
}

void WindowGroup::expire_below_arrival_bound(const ExpireFn& expire) {
  // An event that arrives after the windows its arrival number falls into were finished (a token
  // step: between two windows, or after the last) is held by no window: it expires now instead
  // of waiting in the queue for a window that never comes.
  if (queued() == 0) return;
  step_->bounds(cursor_, place_);
  if (!place_.by_arrival_only() || seq(0) >= place_.seq_from) return;
  expire_front_below(place_.seq_from, expire);
  pop_front();
}

void WindowGroup::expire_front_below(std::uint64_t seq_from, const ExpireFn& expire) {
  // Arrival numbers ascend through the queue: only its front can fall below the bound.
  for (std::size_t i = 0; i < queued() && seq(i) < seq_from; ++i)
    remove(i, &expire);
}

void WindowGroup::pop_front() {
  while (queued() > 0 && gone(0)) {
    Event drop(std::move(events_[head_]));  // release what a used event still holds
    ++head_;
    --gone_queued_;
  }
  if (queued() == 0) {
    events_.clear();
    seqs_.clear();
    ordinals_.clear();
    gone_.clear();
    head_ = 0;
  } else if (head_ >= 1024 && head_ >= queued()) {
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
