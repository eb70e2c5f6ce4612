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
  std::string line;
  try {
    if (where_ && !where_->matches(event.token)) return;
    line = view_line(connection_, event);
  } catch (const std::exception&) {
    std::lock_guard lock(mutex_);
    ++errors_;
    return;
  }
  std::lock_guard lock(mutex_);
  if (ended_) return;
  ++matched_;
  if (lines_.size() == capacity_) {
    lines_.pop_front();
    ++dropped_;
  }
  lines_.push_back(std::move(line));
}

LiveView::Batch LiveView::take() {
  std::lock_guard lock(mutex_);
  Batch batch;
  batch.lines.assign(std::make_move_iterator(lines_.begin()),
                     std::make_move_iterator(lines_.end()));
  lines_.clear();
  batch.dropped = std::exchange(dropped_, 0);
  batch.errors = std::exchange(errors_, 0);
  batch.ended = ended_;
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
