// A source that waits for input from outside the workflow (a socket, a pipe) must leave the
// workers to the rest of it. run_beside_a_chain runs such a source, its `out` into a collector,
// beside an independent chain of 2,000 events, on the real clock under a director named as
// schedulers::testing::director_named takes it; once the chain has finished while the source has
// emitted nothing, `feed` gives the source its input, and the run ends when the source does.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "runtime/execution/runner.hpp"
#include "tests/eventually.hpp"
#include "tests/runtime/test_actors.hpp"
#include "tests/schedulers/all_policies.hpp"

namespace cwf::testing {

// Emits the integers 0 .. count-1.
class Numbers final : public Actor {
 public:
  explicit Numbers(int count) : count_(count) { add_output("out"); }
  void fire(FiringContext& context) override { context.emit(Value(sent_++)); }
  bool postfire(FiringContext&) override { return sent_ < count_; }

 private:
  int count_;
  std::int64_t sent_ = 0;
};

struct BesideAChain {
  RunSummary summary;
  std::vector<Event> received;  // what the source emitted
};

inline BesideAChain run_beside_a_chain(std::unique_ptr<Actor> source,
                                       const std::string& director_name,
                                       const std::function<void(Actor& source)>& feed) {
  constexpr int kChain = 2000;
  Workflow workflow("beside-a-chain");
  Actor& waiting = *source;
  workflow.add("source", std::move(source));
  workflow.add("numbers", std::make_unique<Numbers>(kChain));
  workflow.add("counted", std::make_unique<Collect>());
  workflow.add("received", std::make_unique<Collect>());
  workflow.connect("numbers", "out", "counted", "in");
  workflow.connect("source", "out", "received", "in");
  auto* counted = static_cast<Collect*>(workflow.actor(*workflow.find("counted")).actor.get());
  auto* received = static_cast<Collect*>(workflow.actor(*workflow.find("received")).actor.get());
  auto director = schedulers::testing::director_named(director_name);
  RealClock clock;
  BesideAChain result;
  std::thread run([&] { result.summary = run_workflow(workflow, *director, clock); });
  // Nothing came in: the other chain finishes all the same. (Non-fatal: the thread is joined.)
  EXPECT_TRUE(eventually([&] { return counted->size() == static_cast<std::size_t>(kChain); }));
  EXPECT_EQ(received->size(), 0u);
  feed(waiting);
  run.join();
  result.received = received->events;
  return result;
}

}  // namespace cwf::testing
