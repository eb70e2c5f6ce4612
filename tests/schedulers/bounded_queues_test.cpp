// Bounded queues (QueueLimits) under every director, policy and worker count: a full `block`
// connection holds its producer back and, through every full queue on the way, the source, so
// the events in flight stay below a bound that follows from the capacities alone; cycles do not
// deadlock; the shedding policies count every event they drop and keep order.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>

#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/execution/threaded_director.hpp"
#include "runtime/graph/cycle_edges.hpp"
#include "tests/runtime/test_actors.hpp"
#include "tests/schedulers/all_policies.hpp"

namespace cwf::schedulers {
namespace {

using testing::all_policies;

// "threaded" or "POLICY:WORKERS".
std::unique_ptr<Director> make_director(const std::string& kind) {
  if (kind == "threaded") return std::make_unique<ThreadedDirector>();
  std::size_t colon = kind.find(':');
  return std::make_unique<ScheduledDirector>(
      all_policies().create(kind.substr(0, colon), {}),
      static_cast<unsigned>(std::stoul(kind.substr(colon + 1))));
}

const std::vector<std::string> kEveryDirector = {"threaded", "fifo:1", "fifo:2", "qbs:1", "qbs:2",
                                                 "rr:1",     "rr:2",   "rb:1",   "rb:2"};

std::string label(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name)
    if (c == ':') c = '_';
  return name;
}

// Counts what it receives; spins a little per event (a slow consumer) until `hurry` is set.
class SlowCountingSink : public Actor {
 public:
  explicit SlowCountingSink(const std::atomic<bool>& hurry) : hurry_(hurry) { add_input("in"); }
  void fire(FiringContext& c) override {
    if (!hurry_.load(std::memory_order_relaxed)) {
      auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(2);
      while (std::chrono::steady_clock::now() < until) {
      }
    }
    if (c.token().as_int() < last) in_order = false;
    if (last < 0) first = c.token().as_int();
    last = c.token().as_int();
    received.fetch_add(1, std::memory_order_seq_cst);
  }
  std::atomic<std::uint64_t> received{0};
  bool in_order = true;
  std::int64_t first = -1, last = -1;

 private:
  const std::atomic<bool>& hurry_;
};

// Emits 0 .. count-1, one per firing; before each it notes how many lines (`fan_out` per event)
// are in flight between it and `sink`; after the last it lets the sink hurry.
class MeasuringSource : public Actor {
 public:
  MeasuringSource(std::int64_t count, std::uint64_t fan_out, const SlowCountingSink& sink,
                  std::atomic<bool>& hurry)
      : count_(count), fan_out_(fan_out), sink_(sink), hurry_(hurry) {
    add_output("out");
  }
  void fire(FiringContext& c) override {
    std::uint64_t lines = static_cast<std::uint64_t>(next_) * fan_out_;
    most_in_flight =
        std::max(most_in_flight, lines - sink_.received.load(std::memory_order_seq_cst));
    c.emit(next_++);
    if (next_ == count_) hurry_ = true;
  }
  bool postfire(FiringContext&) override { return next_ < count_; }
  std::uint64_t most_in_flight = 0;

 private:
  std::int64_t count_, next_ = 0;
  std::uint64_t fan_out_;
  const SlowCountingSink& sink_;
  std::atomic<bool>& hurry_;
};

struct FanOut {
  static constexpr std::int64_t kEvents = 1000;
  static constexpr std::uint64_t kLines = 20;  // per event
  Workflow workflow{"fan-out"};
  std::atomic<bool> hurry{false};
  SlowCountingSink* sink;
  MeasuringSource* source;

  explicit FanOut(QueueLimits limits) {
    auto counting = std::make_unique<SlowCountingSink>(hurry);
    sink = counting.get();
    auto measuring = std::make_unique<MeasuringSource>(kEvents, kLines, *sink, hurry);
    source = measuring.get();
    workflow.add("src", std::move(measuring));
    workflow.emplace<cwf::testing::Repeat>("split", static_cast<int>(kLines));
    workflow.add("sink", std::move(counting));
    workflow.set_queue_defaults(limits);
    workflow.connect("src", "split");
    workflow.connect("split", "sink");
  }
  RunSummary run(const std::string& director) {
    auto d = make_director(director);
    RealClock clock;
    return run_workflow(workflow, *d, clock);
  }
};

class EveryDirector : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryDirector, EventsInFlightStayWithinWhatTheCapacitiesAllow) {
  constexpr std::uint64_t kCapacity = 64;
  FanOut fan_out({kCapacity, Overload::block});
  RunSummary summary = fan_out.run(GetParam());
  // Between source and split: the inbox (the source emits one event per firing and waits at
  // the capacity), the split's FIFO queue (it takes in no more than the capacity) and the event
  // it splits; between split and sink: the inbox (a firing adds 20 lines, the last one perhaps
  // past the capacity) and the sink's queue.
  constexpr std::uint64_t kBound =
      FanOut::kLines * (2 * kCapacity + 1) + (kCapacity + FanOut::kLines - 1) + kCapacity;
  EXPECT_LE(fan_out.source->most_in_flight, kBound);
  EXPECT_EQ(fan_out.sink->received.load(), FanOut::kEvents * FanOut::kLines);
  EXPECT_TRUE(fan_out.sink->in_order);
  EXPECT_EQ(summary.incomplete(), 0u);
}

// The bound above is not met by chance: with unbounded queues the threaded source runs ahead of
// the slow sink by most of its input.
TEST(UnboundedQueues, LetASourceRunFarAheadOfASlowConsumer) {
  FanOut fan_out({QueueLimits::kUnbounded, Overload::block});
  fan_out.run("threaded");
  EXPECT_GT(fan_out.source->most_in_flight, 10000u);
  EXPECT_EQ(fan_out.sink->received.load(), FanOut::kEvents * FanOut::kLines);
}

// in0: new tokens, in1: tokens coming round again; each token goes round until it reaches 10,
// then leaves on `out`.
class GoRound : public Actor {
 public:
  GoRound() {
    add_input("in0");
    add_input("in1");
    add_output("again");
    add_output("out");
  }
  void fire(FiringContext& c) override {
    std::int64_t v = c.token().as_int() + 1;
    c.emit(v < 10 ? 0 : 1, v);
  }
};

TEST_P(EveryDirector, ACycleOfFullQueuesDoesNotDeadlock) {
  constexpr int kTokens = 500;
  std::vector<Value> zeros(kTokens, Value(0));
  Workflow wf("cycle");
  wf.emplace<cwf::testing::ListSource>("src", zeros);
  wf.emplace<GoRound>("round");
  wf.emplace<cwf::testing::AddConstant>("back", 0);
  auto collect = std::make_unique<cwf::testing::Collect>();
  cwf::testing::Collect& sink = *collect;
  wf.add("sink", std::move(collect));
  wf.set_queue_defaults({1, Overload::block});
  wf.connect("src", "out", "round", "in0");
  wf.connect("round", "again", "back", "in");
  wf.connect("back", "out", "round", "in1");
  wf.connect("round", "out", "sink", "in");
  auto director = make_director(GetParam());
  RealClock clock;
  run_workflow(wf, *director, clock);
  ASSERT_EQ(sink.events.size(), static_cast<std::size_t>(kTokens));
  for (const Event& e : sink.events)
    EXPECT_EQ(e.token, Value(10));
}

INSTANTIATE_TEST_SUITE_P(DirectorsPoliciesAndWorkers, EveryDirector,
                         ::testing::ValuesIn(kEveryDirector), label);

TEST(CycleEdges, OneEdgePerCycleClosesItWhenWalkedFromTheSources) {
  Workflow wf("cycles");
  wf.emplace<cwf::testing::ListSource>("src", std::vector<Value>{});
  wf.emplace<GoRound>("round");
  wf.emplace<cwf::testing::AddConstant>("back", 0);
  wf.emplace<cwf::testing::AddConstant>("self", 0);
  auto collect = std::make_unique<cwf::testing::Collect>();
  wf.add("sink", std::move(collect));
  wf.connect("src", "out", "round", "in0");    // 0
  wf.connect("round", "again", "back", "in");  // 1
  wf.connect("back", "out", "round", "in1");   // 2: closes round -> back -> round
  wf.connect("round", "out", "self", "in");    // 3
  wf.connect("self", "out", "self", "in");     // 4: a loop onto itself
  wf.connect("self", "out", "sink", "in");     // 5
  CycleEdges edges = find_cycle_edges(wf);
  EXPECT_EQ(edges.connections, (std::vector<bool>{false, false, true, false, true, false}));
}

// Sheds: a source that is never held back, a sink far slower than it.
struct Shedding {
  static constexpr std::int64_t kEvents = 2000;
  Workflow workflow{"shedding"};
  std::atomic<bool> hurry{false};
  SlowCountingSink* sink;
  cwf::testing::Collect* seen;

  // `into_sink`: the limits of the connection into the slow sink; the others are unbounded.
  explicit Shedding(QueueLimits into_sink) {
    // Actors 0 src, 1 sink, 2 seen, 3 pass.
    std::vector<Value> tokens;
    for (std::int64_t i = 0; i < kEvents; ++i)
      tokens.emplace_back(i);
    workflow.emplace<cwf::testing::ListSource>("src", tokens);
    auto counting = std::make_unique<SlowCountingSink>(hurry);
    sink = counting.get();
    workflow.add("sink", std::move(counting));
    auto collect = std::make_unique<cwf::testing::Collect>();
    seen = collect.get();
    workflow.add("seen", std::move(collect));
    workflow.emplace<cwf::testing::AddConstant>("pass", 0);
    workflow.set_queue_defaults({QueueLimits::kUnbounded, Overload::block});
    workflow.connect("src", "pass");
    workflow.connect(Connection{.from = {3, 0},
                                .to = {1, 0},
                                .location = {},
                                .capacity = into_sink.capacity,
                                .overload = into_sink.overload});
    workflow.connect("pass", "seen");
  }
  RunSummary run() {
    ThreadedDirector director;
    RealClock clock;
    return run_workflow(workflow, director, clock);
  }
  std::uint64_t dropped_by(const RunSummary& summary, const std::string& actor) const {
    for (const ActorSummary& a : summary.actors)
      if (a.name == actor) return a.dropped;
    return 0;
  }
};

class SheddingPolicy : public ::testing::TestWithParam<Overload> {};

TEST_P(SheddingPolicy, CountsEveryDroppedEventAndKeepsOrder) {
  Shedding shedding({8, GetParam()});
  RunSummary summary = shedding.run();
  std::uint64_t dropped = shedding.dropped_by(summary, "pass");
  EXPECT_GT(dropped, 0u);
  EXPECT_EQ(shedding.sink->received.load() + dropped,
            static_cast<std::uint64_t>(Shedding::kEvents));
  EXPECT_TRUE(shedding.sink->in_order);
  EXPECT_EQ(shedding.seen->events.size(), static_cast<std::size_t>(Shedding::kEvents));
  EXPECT_EQ(summary.incomplete(), dropped);
}

INSTANTIATE_TEST_SUITE_P(Policies, SheddingPolicy,
                         ::testing::Values(Overload::drop_newest, Overload::drop_oldest,
                                           Overload::sample),
                         [](const auto& info) { return std::string(overload_name(info.param)); });

TEST(SheddingPolicy, DropOldestKeepsTheLastEventAndDropNewestTheFirst) {
  Shedding oldest({8, Overload::drop_oldest});
  oldest.run();
  EXPECT_EQ(oldest.sink->last, Shedding::kEvents - 1);
  Shedding newest({8, Overload::drop_newest});
  newest.run();
  EXPECT_EQ(newest.sink->first, 0);
}

TEST(BlockingQueues, LoseNothingWhereSheddingWould) {
  Shedding shedding({8, Overload::block});
  RunSummary summary = shedding.run();
  EXPECT_EQ(shedding.sink->received.load(), static_cast<std::uint64_t>(Shedding::kEvents));
  EXPECT_EQ(summary.incomplete(), 0u);
}

}  // namespace
}  // namespace cwf::schedulers
