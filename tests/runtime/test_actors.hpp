// Small actors for engine tests.
#pragma once

#include <mutex>
#include <vector>

#include "runtime/actor.hpp"

namespace cwf::testing {

// Emits the given tokens, one per firing, optionally at the given timestamps.
class ListSource : public Actor {
 public:
  explicit ListSource(std::vector<Value> tokens, std::vector<Timestamp> times = {})
      : tokens_(std::move(tokens)), times_(std::move(times)) {
    add_output("out");
  }
  void fire(FiringContext& context) override {
    if (next_ >= tokens_.size()) return;
    if (next_ < times_.size()) context.set_output_time(times_[next_]);
    context.emit(tokens_[next_++]);
  }
  bool postfire(FiringContext&) override { return next_ < tokens_.size(); }

 private:
  std::vector<Value> tokens_;
  std::vector<Timestamp> times_;
  std::size_t next_ = 0;
};

// Emits each integer token `copies` times (a splitter: t -> t.1 ... t.n).
class Repeat : public Actor {
 public:
  explicit Repeat(int copies) : copies_(copies) {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& context) override {
    for (int i = 0; i < copies_; ++i)
      context.emit(context.token());
  }

 private:
  int copies_;
};

// Adds a constant to integer tokens.
class AddConstant : public Actor {
 public:
  explicit AddConstant(std::int64_t k) : k_(k) {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& context) override { context.emit(context.token().as_int() + k_); }

 private:
  std::int64_t k_;
};

// Records every event it receives (thread-safe: tests read after the run).
class Collect : public Actor {
 public:
  Collect() { add_input("in"); }
  void fire(FiringContext& context) override {
    std::lock_guard lock(mutex_);
    for (const Event& e : context.window())
      events.push_back(e);
  }
  std::vector<Value> tokens() const {
    std::vector<Value> out;
    for (const auto& e : events)
      out.push_back(e.token);
    return out;
  }
  std::vector<Event> events;

 private:
  std::mutex mutex_;
};

}  // namespace cwf::testing
