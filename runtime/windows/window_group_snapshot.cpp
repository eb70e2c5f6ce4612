// A group's state in a checkpoint (WindowGroup::snapshot / restore). Everything the group decides
// its next windows from is written; what is derived from it (live counts, the wave ordinal index,
// the ready window's copy) is rebuilt when read, and what is reused scratch (the place, the
// leaving list) is not state at all. The storage is written from its head, so a restored group's
// queue starts at storage index 0: the same queue, without the dead prefix.
//
// Layout: arrived; cursor (k, origin, floor, started, parked, awaits_event, base, trigger_time,
// trigger_wave); late_before; the queue (count, then per entry: arrival number, arrival number at
// the port, wave ordinal, gone, and the event, or only its timestamp when it is gone); the wave
// records (base ordinal, count, then per record: root time, root sequence, complete); whether a
// window is ready and, if so, its selection (range or indexes, time, interval, closed by time and
// where).
#include <limits>
#include <string>

#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "runtime/windows/window_group.hpp"

namespace cwf {

void WindowGroup::snapshot(SnapshotWriter& out) const {
  out.write_u64(arrived_);
  out.write_u64(cursor_.k);
  out.write_u64(cursor_.origin);
  out.write_timestamp(cursor_.floor);
  out.write_bool(cursor_.started);
  out.write_bool(cursor_.parked);
  out.write_bool(cursor_.awaits_event);
  out.write_timestamp(cursor_.base);
  out.write_timestamp(cursor_.trigger_time);
  out.write_u64(cursor_.trigger_wave);
  out.write_timestamp(late_before_);

  out.write_u64(queued());
  for (std::size_t i = 0; i < queued(); ++i) {
    out.write_u64(seq(i));
    out.write_u64(port_arrival(i));
    out.write_u64(wave(i));
    out.write_bool(gone(i));
    // A gone entry only keeps its place: its event was used up or sent on as expired.
    if (gone(i))
      out.write_timestamp(event(i).time);
    else
      out.write_event(event(i));
  }

  out.write_u64(waves_ ? waves_->base : 0);
  out.write_u64(wave_records());
  if (waves_)
    for (const WaveRecord& record : waves_->records) {
      out.write_timestamp(record.root.root_time());
      out.write_u64(record.root.root_sequence());
      out.write_bool(record.complete);
    }

  out.write_bool(ready_);
  if (!ready_) return;
  out.write_bool(sel_.range);
  if (sel_.range) {
    out.write_u64(sel_.begin);
    out.write_u64(sel_.end);
  } else {
    out.write_u64(sel_.indexes.size());
    for (std::size_t i : sel_.indexes)
      out.write_u64(i);
  }
  out.write_timestamp(sel_.time);
  out.write_bool(sel_.interval.has_value());
  if (sel_.interval) {
    out.write_timestamp(sel_.interval->start);
    out.write_timestamp(sel_.interval->end);
    out.write_bool(sel_.interval->closed_at_end);
  }
  out.write_bool(sel_.time_closed);
  out.write_timestamp(sel_.closed_end);
}

void WindowGroup::restore(SnapshotReader& in) {
  *live_total_ -= live_;
  events_.clear();
  seqs_.clear();
  entries_.clear();
  head_ = 0;
  gone_queued_ = 0;
  live_ = 0;
  if (waves_) *waves_ = WaveRecords{};
  ready_ = false;
  view_ = false;
  sel_.clear();
  window_.clear();
  window_seqs_.clear();
  window_contiguous_ = true;

  arrived_ = in.read_u64("the group's arrivals");
  cursor_.k = in.read_u64("the window being formed");
  cursor_.origin = in.read_u64("where the windows are counted from");
  cursor_.floor = in.read_timestamp("the cursor's floor");
  cursor_.started = in.read_bool("whether the grid started");
  cursor_.parked = in.read_bool("whether the group is parked");
  cursor_.awaits_event = in.read_bool("whether the step awaits an event");
  cursor_.base = in.read_timestamp("the grid's origin");
  cursor_.trigger_time = in.read_timestamp("the stepping event's time");
  cursor_.trigger_wave = in.read_u64("the stepping event's wave");
  late_before_ = in.read_timestamp("the group's late bound");

  const std::size_t n = in.read_count("the queue's length");
  events_.reserve(n);
  seqs_.reserve(n);
  entries_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t seq = in.read_u64("an arrival number");
    if (seq >= arrived_ || (!seqs_.empty() && seq <= seqs_.back()))
      in.reject("an arrival number",
                std::to_string(seq) + " is not between the previous entry's and the arrivals");
    std::uint64_t port_arrival = in.read_u64("an arrival number at the port");
    if (port_arrival == kNoArrival ||
        (!entries_.empty() && port_arrival <= entries_.back().port_arrival))
      in.reject("an arrival number at the port",
                std::to_string(port_arrival) + " is not after the previous entry's");
    std::uint64_t ordinal = in.read_u64("a wave ordinal");
    bool gone = in.read_bool("a gone mark");
    if (gone)
      events_.push_back(Event{Value(), in.read_timestamp("a gone entry's time"), WaveTag()});
    else
      events_.push_back(in.read_event("a queued event"));
    seqs_.push_back(seq);
    entries_.push_back({port_arrival, ordinal, gone});
    if (gone)
      ++gone_queued_;
    else
      ++live_;
  }

  const std::uint64_t base = in.read_u64("the first wave record's ordinal");
  const std::size_t records = in.read_count("the wave records");
  if ((records > 0 || base > 0) && !waves_)
    in.reject("the wave records", "a window without wave units keeps none");
  if (base > std::numeric_limits<std::uint64_t>::max() - records)
    in.reject("the wave records", "their ordinals overflow");
  if (waves_) waves_->base = base;
  for (std::size_t r = 0; r < records; ++r) {
    Timestamp time = in.read_timestamp("a wave's root time");
    std::uint64_t sequence = in.read_u64("a wave's root sequence");
    bool complete = in.read_bool("whether a wave is complete");
    if (!waves_->ordinal.try_emplace(WaveRoot{time, sequence}, base + r).second)
      in.reject("a wave record", "its wave is recorded twice");
    waves_->records.push_back({WaveTag(time, sequence), 0, complete});
  }
  // Each record counts its queued events; an entry's wave must have a record while it is queued.
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t ordinal = entries_[i].wave;
    if (!spec_.uses_waves()) {
      if (ordinal != 0) in.reject("a wave ordinal", "a window without wave units numbers none");
      continue;
    }
    if (ordinal >= waves_seen() || (!entries_[i].gone && ordinal < waves_->base))
      in.reject("a wave ordinal", std::to_string(ordinal) + " has no wave record");
    if (!entries_[i].gone) ++record(ordinal).live;
  }
  *live_total_ += live_;

  ready_ = in.read_bool("whether a window is ready");
  if (!ready_) return;
  sel_.range = in.read_bool("whether the window is a range");
  if (sel_.range) {
    sel_.begin = in.read_u64("the window's first entry");
    sel_.end = in.read_u64("the window's end");
    if (sel_.begin > sel_.end || sel_.end > n)
      in.reject("the window's entries", "they are not a range of the queue");
  } else {
    const std::size_t count = in.read_count("the window's entry count");
    for (std::size_t j = 0; j < count; ++j) {
      std::uint64_t i = in.read_u64("a window entry");
      if (i >= n || (!sel_.indexes.empty() && i <= sel_.indexes.back()))
        in.reject("a window entry", "not an ascending index of the queue");
      sel_.indexes.push_back(static_cast<std::size_t>(i));
    }
  }
  sel_.time = in.read_timestamp("the window's time");
  if (in.read_bool("whether the window has an interval")) {
    WindowInterval interval;
    interval.start = in.read_timestamp("the interval's start");
    interval.end = in.read_timestamp("the interval's end");
    interval.closed_at_end = in.read_bool("whether the interval is closed at its end");
    sel_.interval = interval;
  }
  sel_.time_closed = in.read_bool("whether the window closed by time");
  sel_.closed_end = in.read_timestamp("where the window closed");
  materialize();
}

}  // namespace cwf
