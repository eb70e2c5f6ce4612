// Running push sources and sinks in a workflow for tests with real sockets: a source's records
// collected (SourceRun), numbered records into a sink (run_into).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "runtime/execution/runner.hpp"
#include "tests/eventually.hpp"
#include "tests/runtime/test_actors.hpp"
#include "tests/schedulers/all_policies.hpp"

namespace cwf::net::testing {

using cwf::testing::Collect;
using cwf::testing::eventually;

// A workflow of one push source (Source, built from its options) into `out` (and `errors` into
// `bad`), run on its own thread under `director`; a `consumer` between the source and `out`.
template <class Source>
class SourceRun {
 public:
  explicit SourceRun(typename Source::Options options, const std::string& director = "fifo/1",
                     std::unique_ptr<Actor> consumer = nullptr)
      : director_(schedulers::testing::director_named(director)) {
    ActorId id = workflow_.add("source", std::make_unique<Source>(std::move(options)));
    source = static_cast<Source*>(workflow_.actor(id).actor.get());
    out = add_collect("out");
    bad = add_collect("bad");
    if (consumer) {
      workflow_.add("slow", std::move(consumer));
      workflow_.connect("source", "out", "slow", "in");
      workflow_.connect("slow", "out", "out", "in");
    } else {
      workflow_.connect("source", "out", "out", "in");
    }
    workflow_.connect("source", "errors", "bad", "in");
    thread_ = std::thread([this] { summary = run_workflow(workflow_, *director_, clock_); });
  }
  ~SourceRun() {
    if (thread_.joinable()) thread_.join();
  }
  void join() { thread_.join(); }
  unsigned short port() {
    EXPECT_TRUE(eventually([&] { return source->port() != 0; }));
    return source->port();
  }

  Source* source = nullptr;
  Collect* out = nullptr;
  Collect* bad = nullptr;
  RunSummary summary;

 private:
  Collect* add_collect(const std::string& name) {
    workflow_.add(name, std::make_unique<Collect>());
    return static_cast<Collect*>(workflow_.actor(*workflow_.find(name)).actor.get());
  }
  Workflow workflow_;
  std::unique_ptr<Director> director_;
  RealClock clock_;
  std::thread thread_;
};

inline std::vector<std::string> json_of(Collect& collect) {
  std::vector<std::string> out;
  for (const Value& v : collect.tokens())
    out.push_back(v.to_json());
  return out;
}

// Emits {"n": i} for i < count, once `gate` (when given) is open.
class Numbers : public Actor {
 public:
  Numbers(int count, std::size_t pad, const std::atomic<bool>* gate = nullptr)
      : count_(count), pad_(pad), gate_(gate) {
    add_output("out");
  }
  void fire(FiringContext& context) override {
    if (gate_ && !gate_->load()) {
      std::this_thread::yield();
      return;
    }
    context.emit(Value::record({{"n", Value(sent_++)}, {"pad", Value(std::string(pad_, 'x'))}}));
  }
  bool postfire(FiringContext&) override { return sent_ < count_; }

 private:
  int count_;
  std::size_t pad_;
  const std::atomic<bool>* gate_;
  std::int64_t sent_ = 0;
};

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

// Runs `count` numbers (padded with `pad` bytes) into `sink` under `director`.
inline RunSummary run_into(std::unique_ptr<Actor> sink, int count, std::size_t pad,
                           const std::string& director, const std::atomic<bool>* gate = nullptr) {
  Workflow workflow("w");
  workflow.add("numbers", std::make_unique<Numbers>(count, pad, gate));
  workflow.add("sink", std::move(sink));
  workflow.connect("numbers", "sink");
  auto run_director = schedulers::testing::director_named(director);
  RealClock clock;
  return run_workflow(workflow, *run_director, clock);
}

// Passes each record on after a pause: a consumer slower than the network.
class Slow : public Actor {
 public:
  Slow() {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& context) override {
    std::this_thread::sleep_for(std::chrono::microseconds(20));
    for (const Event& e : context.window())
      context.emit(e.token);
  }
};

// Holds the worker that fires it from its first event until `release`, then passes what it
// took on: a consumer that holds the source back (on one worker, the source cannot fire
// meanwhile either).
class Blocker : public Actor {
 public:
  explicit Blocker(const std::atomic<bool>& release) : release_(release) {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& context) override {
    ++fired;
    while (!release_.load())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    for (const Event& e : context.window())
      context.emit(e.token);
  }
  std::atomic<int> fired{0};

 private:
  const std::atomic<bool>& release_;
};

// A slow consumer behind `Source` (max_pending 100) while `send` pushes 20,000 short records:
// the source stops reading while max_pending records wait, so what waits stays bounded (by
// max_pending and what one 64 KiB read brings: about 5000 of these lines), and nothing is lost.
template <class Source, class Send>
void expect_a_slow_consumer_bounds_the_queue(typename Source::Options options, Send send) {
  options.push.max_pending = 100;
  SourceRun<Source> run(std::move(options), "fifo/2", std::make_unique<Slow>());
  std::size_t most = 0;
  std::thread watch([&] {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (run.out->size() < 20000 && std::chrono::steady_clock::now() < give_up) {
      most = std::max(most, run.source->pending());
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  std::vector<std::string> lines;
  for (int i = 0; i < 20000; ++i)
    lines.push_back("{\"n\": " + std::to_string(i) + "}\n");
  send(run.port(), lines);
  watch.join();
  run.join();
  EXPECT_EQ(run.out->size(), 20000u);
  EXPECT_LE(most, 100u + 65536u / 12u);
  EXPECT_GT(most, 0u);
}

}  // namespace cwf::net::testing
