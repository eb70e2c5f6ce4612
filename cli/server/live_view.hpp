// A live view of one connection of a hosted workflow (CWP5, seed 002 l.519: any data exchanged
// inside a running workflow, filtered by a predicate and tagged with the activity it last went
// through): each event the connection's producer sends into it that matches the predicate, as a
// JSON line tagged with the actor and port it came from and its wave, waiting for a reader.
//
// The workflow is never held up by a view: the event is matched on the firing thread and a copy
// kept in a bounded buffer (written out as JSON by the reader); when the reader is slower than
// the workflow, the oldest are dropped and counted (the reader is told how many).
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/execution/output_watcher.hpp"
#include "runtime/expressions/expression.hpp"

namespace cwf::cli {

// A connection of a workflow, by names: "actor.port" at each end.
struct ConnectionName {
  std::string from_actor, from_port, to_actor, to_port;
  std::string from() const { return from_actor + "." + from_port; }
  std::string to() const { return to_actor + "." + to_port; }
  std::string text() const { return from() + " -> " + to(); }
};

class LiveView final : public OutputWatcher {
 public:
  static constexpr std::size_t kDefaultCapacity = 10000;

  // `where`: the predicate, compiled with no variables (`/speed > 50`); none: every event.
  LiveView(ConnectionName connection, std::optional<Expression> where,
           std::size_t capacity = kDefaultCapacity);

  void seen(const Event& event) noexcept override;

  struct Batch {
    std::vector<std::string> lines;  // JSON, oldest first (take())
    std::vector<Event> events;       // the events themselves, oldest first (take_events())
    std::uint64_t dropped = 0;       // lines dropped since the last batch (the reader was slow)
    std::uint64_t errors = 0;        // events the predicate failed on since the last batch
    bool ended = false;              // the workflow's run has ended: no more will come
  };
  // Takes what waits, as lines (view_line).
  Batch take();
  // Takes what waits, as events (a view feeding another workflow).
  Batch take_events();
  // The workflow's run ended (or the view was closed): readers finish with what waits.
  void end();

  const ConnectionName& connection() const { return connection_; }
  const std::optional<Expression>& where() const { return where_; }
  // Every matching event so far, taken or not.
  std::uint64_t matched() const;

 private:
  ConnectionName connection_;
  std::optional<Expression> where_;
  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::deque<Event> events_;
  std::uint64_t dropped_ = 0, errors_ = 0, matched_ = 0;
  bool ended_ = false;
};

// {"actor", "port", "to", "time" (ns on the workflow clock), "wave", "value"}: one line of a view.
std::string view_line(const ConnectionName& connection, const Event& event);

}  // namespace cwf::cli
