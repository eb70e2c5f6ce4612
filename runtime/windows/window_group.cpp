#include "runtime/windows/window_group.hpp"

#include <algorithm>
#include <cstddef>

namespace cwf {

namespace {
constexpr std::size_t kCompactAfter = 8;  // dead entries at the queue's front, at least
}  // namespace

bool WindowGroup::add(Event&& event, std::uint64_t port_arrival) {
  std::uint64_t ordinal = 0;
  bool first_of_wave = false;
  if (uses_waves_) {
    WaveRoot key = event.wave.root();
    auto [it, inserted] = waves_->ordinal.try_emplace(key, waves_seen());
    if (inserted) waves_->records.push_back({WaveTag(key.time, key.sequence), 0, false});
    ordinal = it->second;
    first_of_wave = ++record(ordinal).live == 1;
  }
  if (cursor_.awaits_event) step_->arrived(cursor_, event.time);
  events_.push_back(std::move(event));
  seqs_.push_back(arrived_++);
  entries_.push_back({port_arrival, ordinal, false});
  ++live_;
  ++*live_total_;
  return first_of_wave;
}

void WindowGroup::wave_complete(const WaveTag& root) {
  if (!waves_) return;
  auto it = waves_->ordinal.find(root.root());
  if (it == waves_->ordinal.end()) return;
  record(it->second).complete = true;
  prune_waves();
}

bool WindowGroup::waves_complete(std::uint64_t from, std::uint64_t to) const {
  if (waves_seen() < to) return false;
  // Waves before the base were complete when their records were dropped.
  for (std::uint64_t w = std::max(from, waves_->base); w < to; ++w)
    if (!waves_->records[w - waves_->base].complete) return false;
  return true;
}

std::uint64_t WindowGroup::first_live_seq_from(std::uint64_t seq) const {
  auto begin = seqs_.begin() + static_cast<std::ptrdiff_t>(head_);
  for (auto it = std::lower_bound(begin, seqs_.end(), seq); it != seqs_.end(); ++it)
    if (!gone(static_cast<std::size_t>(it - begin))) return *it;
  return arrived_;
}

void WindowGroup::prune_complete_waves() {
  std::deque<WaveRecord>& records = waves_->records;
  while (!records.empty() && records.front().complete && records.front().live == 0) {
    waves_->ordinal.erase(records.front().root.root());
    records.pop_front();
    ++waves_->base;
  }
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
  entries_[head_ + i].gone = true;
  ++gone_queued_;
  --live_;
  --*live_total_;
  if (uses_waves_) {
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

void WindowGroup::expire_rest(const ExpireFn& expire) {
  drop_ready();
  for (std::size_t i = 0; i < queued(); ++i)
    remove(i, &expire);
  pop_front();
}

void WindowGroup::drop_ready() {
  ready_ = false;
  clear_window();
}

void WindowGroup::expire_late_arrivals(std::uint64_t seq_from, const ExpireFn& expire) {
  expire_front_below(seq_from, expire);
  pop_front();
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
    entries_.clear();
    head_ = 0;
  } else if (head_ >= kCompactAfter && head_ >= queued()) {
    // Compact once the dead prefix outweighs the queue: amortised O(1) per event. Early, since a
    // port may have hundreds of thousands of groups that each keep a few events (a car's last
    // reports): with a later start every group kept that many dead entries.
    auto cut = [this](auto& v) { v.erase(v.begin(), v.begin() + std::ptrdiff_t(head_)); };
    cut(events_);
    cut(seqs_);
    cut(entries_);
    head_ = 0;
  }
  prune_waves();
}

}  // namespace cwf
