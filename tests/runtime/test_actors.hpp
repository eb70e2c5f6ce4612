// Small actors for engine tests.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/actor/actor.hpp"

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

// Emits the clock's time `count` times, `every` apart on the workflow clock, each stamped with
// that time: a paced source that waits for the director's timer between firings.
class PacedSource : public Actor {
 public:
  PacedSource(int count, Duration every) : count_(count), every_(every) { add_output("out"); }
  void fire(FiringContext& c) override {
    c.set_output_time(c.clock().now());
    c.emit(c.clock().now());
    if (++fired_ < count_) c.fire_again_at(c.clock().now() + every_);
  }
  bool postfire(FiringContext&) override { return fired_ < count_; }

 private:
  int count_;
  Duration every_;
  int fired_ = 0;
};

// Passes tokens on, sleeping `delay` per firing first (no longer once `hurry`, if given, is set:
// a test can let the drain at the end go fast).
class SlowPass : public Actor {
 public:
  explicit SlowPass(std::chrono::microseconds delay, const std::atomic<bool>* hurry = nullptr)
      : delay_(delay), hurry_(hurry) {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& c) override {
    if (!hurry_ || !hurry_->load()) std::this_thread::sleep_for(delay_);
    c.emit(c.token());
  }

 private:
  std::chrono::microseconds delay_;
  const std::atomic<bool>* hurry_;
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
  // While the run goes on (any thread).
  std::size_t size() {
    std::lock_guard lock(mutex_);
    return events.size();
  }
  std::vector<Event> events;

 private:
  std::mutex mutex_;
};

}  // namespace cwf::testing
