// Running push sources and sinks in a workflow for tests with real sockets: a source's records
// collected (SourceRun), numbered records into a sink (run_into).
#pragma once

#include <atomic>
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

}  // namespace cwf::net::testing
