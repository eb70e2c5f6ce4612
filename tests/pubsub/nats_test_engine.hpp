// What the NATS tests share: a nats-server on a loopback port (a test fails when the program is
// missing, see tests/required_dependency.hpp), NATS actors made through their registered types,
// a source the test feeds from its own thread, a thread-safe collector, and an engine (workflow +
// director + real clock) running on a thread of its own until its sources end or it is stopped.
#pragma once

#include "tests/eventually.hpp"

#include <gtest/gtest.h>

#include <concurrentqueue.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "actors/pubsub/nats_publish.hpp"
#include "actors/pubsub/nats_server_process.hpp"
#include "actors/pubsub/nats_subscribe.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "schedulers/fifo_scheduler.hpp"
#include "tests/required_dependency.hpp"

namespace cwf::pubsub::testing {

// In a test body: `var`, a started server. Without nats-server the test fails (make deps
// installs it), or is skipped when CWF_TEST_ALLOW_MISSING names nats-server.
#define CWF_START_NATS(var)                                                         \
  CWF_REQUIRE_DEPENDENCY("nats-server", "nats-server",                              \
                         !::cwf::pubsub::NatsServerProcess::find_binary().empty()); \
  auto var = std::make_unique<::cwf::pubsub::NatsServerProcess>()

template <typename T>
std::unique_ptr<T> make_actor(const ActorType& type, std::map<std::string, Value> values) {
  std::unique_ptr<Actor> actor = type.factory(Params(std::move(values), {}, ""));
  return std::unique_ptr<T>(static_cast<T*>(actor.release()));
}

using cwf::testing::eventually;

// A source that emits what the test pushes, and ends once closed and empty.
class Feed final : public Actor {
 public:
  Feed() { add_output("out"); }
  void push(Value v) { queue_.enqueue(std::move(v)); }
  void close() { closed_.store(true, std::memory_order_release); }
  void fire(FiringContext& context) override {
    bool closed = closed_.load(std::memory_order_acquire);  // before the dequeue: no push lost
    Value v;
    bool any = false;
    while (queue_.try_dequeue(v)) {
      context.emit(std::move(v));
      any = true;
    }
    done_ = closed && !any;
    if (!done_) context.fire_again_at(context.clock().now() + kMillisecond);
  }
  bool postfire(FiringContext&) override { return !done_; }

 private:
  moodycamel::ConcurrentQueue<Value> queue_;
  std::atomic<bool> closed_{false};
  bool done_ = false;
};

// Records the tokens that reach it; readable from any thread.
class Gather final : public Actor {
 public:
  Gather() { add_input("in"); }
  void fire(FiringContext& context) override {
    std::lock_guard lock(mutex_);
    for (const Event& e : context.window())
      tokens_.push_back(e.token);
  }
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return tokens_.size();
  }
  std::vector<Value> tokens() const {
    std::lock_guard lock(mutex_);
    return tokens_;
  }
  // The integer field `field` of every token.
  std::vector<std::int64_t> ints(const char* field) const {
    std::vector<std::int64_t> out;
    for (const Value& v : tokens())
      out.push_back(v.field(field) ? v.field(field)->as_int() : -1);
    return out;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Value> tokens_;
};

// One engine: a workflow run by a scheduled director on the real clock, on its own thread.
class Engine {
 public:
  explicit Engine(std::string name) : workflow_(std::move(name)) {}
  ~Engine() {
    stop();
    join();
  }
  template <typename T>
  T& add(const std::string& name, std::unique_ptr<T> actor) {
    T& ref = *actor;
    workflow_.add(name, std::move(actor));
    return ref;
  }
  void connect(const std::string& from, const std::string& to) { workflow_.connect(from, to); }
  void start() {
    thread_ = std::thread([this] {
      ScheduledDirector director(std::make_unique<schedulers::FifoScheduler>(), 1);
      RunOptions options;
      options.stop_requested = &stop_;
      summary_ = run_workflow(workflow_, director, clock_, options);
      finished_.store(true, std::memory_order_release);
    });
  }
  void stop() { stop_.store(true); }
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  bool finished() const { return finished_.load(std::memory_order_acquire); }
  // Waits for the run to end by itself; stops it after `timeout` so that a failing test ends.
  bool wait(std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
    bool ended = eventually([this] { return finished(); }, timeout);
    stop();
    join();
    return ended;
  }
  // Stops a run that only ends when told (a subscriber without count or end marker).
  void stop_and_wait() {
    stop();
    join();
  }
  std::uint64_t errors(const std::string& actor) const {
    for (const auto& a : summary_.actors)
      if (a.name == actor) return a.rejected + a.failed;
    return ~0ull;
  }
  std::uint64_t firings(const std::string& actor) const {
    for (const auto& a : summary_.actors)
      if (a.name == actor) return a.firings;
    return ~0ull;
  }
  std::uint64_t lost(const std::string& actor) const {
    for (const auto& a : summary_.actors)
      if (a.name == actor) return a.lost;
    return ~0ull;
  }
  std::uint64_t dropped(const std::string& actor) const {
    for (const auto& a : summary_.actors)
      if (a.name == actor) return a.dropped;
    return ~0ull;
  }

 private:
  Workflow workflow_;
  RealClock clock_;
  std::atomic<bool> stop_{false}, finished_{false};
  RunSummary summary_;
  std::thread thread_;
};

inline std::vector<std::int64_t> iota(std::int64_t from, std::int64_t to) {
  std::vector<std::int64_t> v;
  for (std::int64_t i = from; i < to; ++i)
    v.push_back(i);
  return v;
}

}  // namespace cwf::pubsub::testing
