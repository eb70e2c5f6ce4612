#include "cli/server/live_view.hpp"

#include "runtime/values/value_json.hpp"

namespace cwf::cli {

std::string view_line(const ConnectionName& connection, const Event& event) {
  return Value::record({{"actor", Value(connection.from_actor)},
                        {"port", Value(connection.from_port)},
                        {"to", Value(connection.to())},
                        {"time", Value(static_cast<std::int64_t>(event.time))},
                        {"wave", Value(event.wave.to_string())},
                        {"value", event.token}})
      .to_json();
}

LiveView::LiveView(ConnectionName connection, std::optional<Expression> where, std::size_t capacity)
    : connection_(std::move(connection)), where_(std::move(where)), capacity_(capacity) {}

void LiveView::seen(const Event& event) noexcept {
  try {
    if (where_ && !where_->matches(event.token)) return;
  } catch (const std::exception&) {
    std::lock_guard lock(mutex_);
    ++errors_;
    return;
  }
  try {
    std::lock_guard lock(mutex_);
    if (ended_) return;
    ++matched_;
    if (events_.size() == capacity_) {
      events_.pop_front();
      ++dropped_;
    }
    events_.push_back(event);
  } catch (const std::exception&) {  // no memory for the copy: dropped like an overflow
    std::lock_guard lock(mutex_);
    ++dropped_;
  }
}

LiveView::Batch LiveView::take_events() {
  std::lock_guard lock(mutex_);
  Batch batch;
  batch.events.assign(std::make_move_iterator(events_.begin()),
                      std::make_move_iterator(events_.end()));
  events_.clear();
  batch.dropped = std::exchange(dropped_, 0);
  batch.errors = std::exchange(errors_, 0);
  batch.ended = ended_;
  return batch;
}

LiveView::Batch LiveView::take() {
  Batch batch = take_events();
  batch.lines.reserve(batch.events.size());
  for (const Event& event : batch.events)
    batch.lines.push_back(view_line(connection_, event));
  batch.events.clear();
  return batch;
}

void LiveView::end() {
  std::lock_guard lock(mutex_);
  ended_ = true;
}

std::uint64_t LiveView::matched() const {
  std::lock_guard lock(mutex_);
  return matched_;
}

}  // namespace cwf::cli
