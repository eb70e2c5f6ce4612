// The two inputs of a join, put back into event-time order whatever order they arrived in.
//
// Each side's items (windows, events) must arrive in time order: an item earlier than one already
// received on its side is late (add() refuses it). A side's *progress* is the time of the latest
// item it delivered: nothing earlier can come from it any more. Items of time t are *settled*
// once both sides have progressed past t (or the input has ended): every item of time t of both
// sides has then arrived, and release() hands them over as one batch, earliest time first. Which
// batches are released, and in what order, depends only on each side's own sequence of items,
// never on how the two sides interleave: the joins built on it give the same output under every
// director.
//
// A side that delivers nothing holds the other back: its items wait, and memory grows, until it
// moves on, a progress mark moves it on (advance), or the input ends.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <utility>
#include <vector>

#include "runtime/actor/event.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::actors {

template <typename Item>
class TimeAlignedInputs {
 public:
  static constexpr int kLeft = 0, kRight = 1;
  static constexpr Timestamp kNoTime = std::numeric_limits<Timestamp>::min();
  static constexpr Timestamp kEndOfTime = std::numeric_limits<Timestamp>::max();

  // False when the item is late (earlier than its side's progress): the caller counts it.
  bool add(int side, Timestamp time, Item item) {
    if (time < progress_[side]) return false;
    progress_[side] = time;
    pending_[side].push_back({time, std::move(item)});
    return true;
  }

  // The side got to `time` without an item (a progress mark, Actor::takes_progress): nothing
  // earlier will come from it; items of `time` itself still may.
  void advance(int side, Timestamp time) {
    if (time > progress_[side]) progress_[side] = time;
  }

  // Every item earlier than this has been released (kEndOfTime once the input ended and all
  // were released).
  Timestamp frontier() const { return frontier_; }

  // Hands `batch(t, lefts, rights)` every settled batch, earliest first: the items of time t of
  // each side in arrival order (either may be empty, not both). With `end_of_input` everything
  // still pending is settled.
  template <typename Batch>
  void release(bool end_of_input, Batch&& batch) {
    Timestamp settled = end_of_input ? kEndOfTime : std::min(progress_[kLeft], progress_[kRight]);
    for (;;) {
      Timestamp t = kEndOfTime;
      bool any = false;
      for (const auto& side : pending_)
        if (!side.empty() && (!any || side.front().time < t)) {
          t = side.front().time;
          any = true;
        }
      if (!any || !(t < settled || end_of_input)) break;
      for (int s : {kLeft, kRight}) {
        batch_[s].clear();
        while (!pending_[s].empty() && pending_[s].front().time == t) {
          batch_[s].push_back(std::move(pending_[s].front().item));
          pending_[s].pop_front();
        }
      }
      batch(t, batch_[kLeft], batch_[kRight]);
    }
    frontier_ = std::max(frontier_, settled);
  }

  std::size_t pending() const { return pending_[kLeft].size() + pending_[kRight].size(); }

  // Checkpoints: each side's progress and pending items (`write_item(out, item)`), the frontier.
  template <typename WriteItem>
  void save(SnapshotWriter& out, WriteItem&& write_item) const {
    for (int s : {kLeft, kRight}) {
      out.write_timestamp(progress_[s]);
      out.write_u64(pending_[s].size());
      for (const Pending& p : pending_[s]) {
        out.write_timestamp(p.time);
        write_item(out, p.item);
      }
    }
    out.write_timestamp(frontier_);
  }
  // `read_item(in)` returns an Item. Throws SnapshotError for items out of their side's order.
  template <typename ReadItem>
  void restore(SnapshotReader& in, ReadItem&& read_item) {
    for (int s : {kLeft, kRight}) {
      progress_[s] = in.read_timestamp("a side's progress");
      pending_[s].clear();
      for (std::size_t n = in.read_count("the items pending on a side"); n > 0; --n) {
        Timestamp time = in.read_timestamp("a pending item's time");
        if ((!pending_[s].empty() && time < pending_[s].back().time) || time > progress_[s])
          in.reject("a pending item's time", "out of its side's order");
        pending_[s].push_back({time, read_item(in)});
      }
    }
    frontier_ = in.read_timestamp("the frontier");
  }

 private:
  struct Pending {
    Timestamp time;
    Item item;
  };
  std::deque<Pending> pending_[2];
  Timestamp progress_[2] = {kNoTime, kNoTime};
  Timestamp frontier_ = kNoTime;
  std::vector<Item> batch_[2];  // reused: no allocation per batch once warm
};

}  // namespace cwf::actors
