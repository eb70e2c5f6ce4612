// The window operator on an input port (WindowSpec): splits the stream by the group-by key into
// WindowGroups, tracks how far time has got (event timestamps, the formation timeout on the
// workflow clock, the end of input), and hands the actor the earliest ready window among all
// groups: by window time, ties by the order in which windows became ready.
//
// A window's time (what the time keeper stamps the firing's outputs with) is its end for windows
// that close by time ([s, e) gives e), else the timestamp of its last event; its wave is the last
// event's wave (none for an empty window).
//
// Events whose timestamp falls into a window that has already closed (by a later event, by the
// formation timeout) are discarded and counted as late. Events that no later window can hold,
// and that were not deleted as used, leave through the port's expired route (CWP6).
#pragma once

#include <cstddef>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

#include "runtime/expression.hpp"
#include "runtime/receiver.hpp"
#include "runtime/value.hpp"
#include "runtime/window_group.hpp"
#include "runtime/window_spec.hpp"

namespace cwf {

class WindowedReceiver : public Receiver {
 public:
  explicit WindowedReceiver(WindowSpec spec);

  bool has_window() const override { return !ready_.empty(); }
  Window front_window() override;
  void finish_window(bool fired, bool consumed) override;
  void advance(Timestamp now, bool end_of_input) override;
  std::size_t buffered() const override { return live_; }

  const WindowSpec& spec() const { return spec_; }
  std::size_t groups() const { return groups_.size(); }

 protected:
  void accept(Event&& event) override;

  // What the operator asks of its cell; tests that drive a receiver without one override them.
  virtual void expire(Event&& event);
  virtual void count_late();
  virtual void wake_at(Timestamp time);

 private:
  struct Ready {
    Timestamp time;
    std::uint64_t order;
    std::size_t group;
    bool operator>(const Ready& o) const {
      return time != o.time ? time > o.time : order > o.order;
    }
  };
  struct Deadline {
    Timestamp time;
    std::uint64_t version;
    std::size_t group;
    bool operator>(const Deadline& o) const { return time > o.time; }
  };
  struct GroupState {
    std::unique_ptr<WindowGroup> group;
    std::uint64_t version = 0;
    bool ready = false;
    bool dirty = false;
  };

  std::size_t group_of(const Event& event);
  void evaluate(std::size_t g);
  WindowProgress progress() const;

  WindowSpec spec_;
  std::vector<Expression> keys_;
  Duration timeout_after_end_;
  std::vector<GroupState> groups_;
  std::unordered_map<Value, std::size_t, ValueHash> index_;
  std::vector<std::size_t> dirty_;
  std::priority_queue<Ready, std::vector<Ready>, std::greater<>> ready_;
  std::priority_queue<Deadline, std::vector<Deadline>, std::greater<>> deadlines_;
  std::uint64_t ready_order_ = 0;
  std::size_t live_ = 0;
  bool any_event_ = false;
  Timestamp max_time_ = 0;
  Timestamp closed_through_ = 0;
  bool end_of_input_ = false;
  WindowGroup::ExpireFn expire_fn_;
};

}  // namespace cwf
