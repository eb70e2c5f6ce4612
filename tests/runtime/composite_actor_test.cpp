#include "runtime/execution/composite_actor.hpp"

#include <gtest/gtest.h>

#include "runtime/execution/runner.hpp"
#include "runtime/execution/windowed_receiver.hpp"
#include "test_actors.hpp"
#include "test_scheduler.hpp"
#include "window_harness.hpp"

namespace cwf {
namespace {

using testing::AddConstant;
using testing::Collect;
using testing::ListSource;
using testing::Repeat;

std::unique_ptr<Director> make(const std::string& kind) {
  return testing::make_test_director(kind, 64);
}

// inner: in -> repeat(2) -> add(10) -> out
std::unique_ptr<CompositeActor> make_composite(const std::string& inner_director) {
  auto inner = std::make_unique<Workflow>("inner");
  inner->emplace<BoundaryInput>("in");
  inner->emplace<Repeat>("twice", 2);
  inner->emplace<AddConstant>("add", 10);
  inner->emplace<BoundaryOutput>("out");
  inner->connect("in", "twice");
  inner->connect("twice", "add");
  inner->connect("add", "out");
  return std::make_unique<CompositeActor>(std::move(inner), std::vector<std::string>{"in"},
                                          std::vector<std::string>{"out"}, make(inner_director));
}

class Composite : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(Composite, RunsItsSubWorkflowOncePerOuterWindowUnderItsOwnDirector) {
  auto [outer_director, inner_director] = GetParam();
  Workflow wf("outer");
  wf.emplace<ListSource>("src", std::vector<Value>{1, 2, 3}, std::vector<Timestamp>{7, 8, 9});
  wf.add("stage", make_composite(inner_director));
  auto collect = std::make_unique<Collect>();
  Collect& sink = *collect;
  wf.add("sink", std::move(collect));
  wf.connect("src", "stage");
  wf.connect("stage", "sink");
  VirtualClock clock;
  auto director = make(outer_director);
  RunSummary summary = run_workflow(wf, *director, clock);

  EXPECT_EQ(sink.tokens(), (std::vector<Value>{11, 11, 12, 12, 13, 13}));
  // To the outer workflow the composite is one plain actor: its outputs are t.1, t.2 (last).
  ASSERT_EQ(sink.events.size(), 6u);
  EXPECT_EQ(sink.events[0].wave.depth(), 1);
  EXPECT_FALSE(sink.events[0].wave.is_last());
  EXPECT_TRUE(sink.events[1].wave.is_last());
  EXPECT_EQ(sink.events[1].wave.root_time(), 7);
  EXPECT_EQ(sink.events[5].time, 9);
  EXPECT_EQ(summary.actors[1].firings, 3u);
  EXPECT_EQ(summary.actors[1].events_out, 6u);
}

// inner: in -> (window) -> collect -> out, where collect emits the window's tokens as an array.
class WindowTokens : public Actor {
 public:
  WindowTokens() {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& c) override {
    std::vector<Value> tokens;
    for (const Event& e : c.window())
      tokens.push_back(e.token);
    c.emit(Value::array(tokens));
  }
};

std::unique_ptr<CompositeActor> make_windowed_composite(const std::string& inner_director,
                                                        const std::string& size,
                                                        const std::string& step) {
  auto inner = std::make_unique<Workflow>("inner");
  inner->emplace<BoundaryInput>("in");
  inner->emplace<WindowTokens>("collect");
  inner->emplace<BoundaryOutput>("out");
  WindowSpec spec = testing::window(size, step);
  spec.suppress_empty = true;
  inner->connect("in", "out", "collect", "in");
  inner->declare_window("collect", "in", spec);
  inner->connect("collect", "out");
  return std::make_unique<CompositeActor>(std::move(inner), std::vector<std::string>{"in"},
                                          std::vector<std::string>{"out"}, make(inner_director));
}

TEST_P(Composite, ItsWindowsCloseWhenTheOuterInputEnds) {
  // Three tokens into windows of 5: the partial window [1, 2, 3] closes at the end of the input,
  // as in a top-level workflow, instead of being lost with the sub-workflow.
  auto [outer_director, inner_director] = GetParam();
  Workflow wf("outer");
  wf.emplace<ListSource>("src", std::vector<Value>{1, 2, 3});
  wf.add("stage", make_windowed_composite(inner_director, "5 tokens", "5 tokens"));
  auto collect = std::make_unique<Collect>();
  Collect& sink = *collect;
  wf.add("sink", std::move(collect));
  wf.connect("src", "stage");
  wf.connect("stage", "sink");
  VirtualClock clock;
  auto director = make(outer_director);
  run_workflow(wf, *director, clock);
  EXPECT_EQ(sink.tokens(), (std::vector<Value>{Value::array({1, 2, 3})}));
}

TEST_P(Composite, ItsWindowsTimeOutOnTheOuterClock) {
  // Ticks at 5 s and 100 s into one-second windows inside the sub-workflow: [5 s, 6 s) times out
  // at 7 s on the clock, as it would outside (see OnAVirtualClockAWindowDeadlineComesBefore-
  // ALaterSourceTime), before the tick at 100 s; the second tick's window closes at the end.
  auto [outer_director, inner_director] = GetParam();
  Workflow wf("outer");
  wf.emplace<testing::PacedSource>("paced", 2, 95 * kSecond);
  wf.add("stage", make_windowed_composite(inner_director, "1 s", "1 s"));
  class ClockStamp : public Actor {
   public:
    ClockStamp() { add_input("in"); }
    void fire(FiringContext& c) override { seen_at.push_back(c.clock().now()); }
    std::vector<Timestamp> seen_at;
  };
  auto reader = std::make_unique<ClockStamp>();
  ClockStamp& windows = *reader;
  wf.add("windows", std::move(reader));
  wf.connect("paced", "stage");
  wf.connect("stage", "windows");
  VirtualClock clock(5 * kSecond);
  auto director = make(outer_director);
  run_workflow(wf, *director, clock);
  EXPECT_EQ(windows.seen_at, (std::vector<Timestamp>{7 * kSecond, 100 * kSecond}));
}

TEST_P(Composite, AFullConnectionInsideHoldsItsProducerBackAndLosesNothing) {
  // Each outer firing brings ten events in, each of which becomes 40 inside, through connections
  // of capacity 3 that block: the repeating actor, with input still queued, is held back and
  // woken again many times within each outer firing (on one inner worker, by its consumer's
  // drain on the same thread: a wake-up missed there would leave the firing waiting for ever),
  // and nothing is lost or reordered.
  auto [outer_director, inner_director] = GetParam();
  auto inner = std::make_unique<Workflow>("inner");
  inner->emplace<BoundaryInput>("in");
  inner->emplace<Repeat>("many", 40);
  inner->emplace<AddConstant>("add", 1000);
  inner->emplace<BoundaryOutput>("out");
  inner->set_queue_defaults({3, Overload::block});
  inner->connect("in", "many");
  inner->connect("many", "add");
  inner->connect("add", "out");
  Workflow wf("outer");
  std::vector<Value> tokens;
  for (int i = 0; i < 50; ++i)
    tokens.emplace_back(i);
  wf.emplace<ListSource>("src", tokens);
  wf.add("stage",
         std::make_unique<CompositeActor>(std::move(inner), std::vector<std::string>{"in"},
                                          std::vector<std::string>{"out"}, make(inner_director)));
  auto collect = std::make_unique<Collect>();
  Collect& sink = *collect;
  wf.add("sink", std::move(collect));
  wf.connect("src", "stage");
  wf.declare_window("stage", "in", testing::window("10 tokens", "10 tokens"));
  wf.connect("stage", "sink");
  VirtualClock clock;
  auto director = make(outer_director);
  RunSummary summary = run_workflow(wf, *director, clock);
  EXPECT_EQ(summary.actors[1].firings, 5u);
  std::vector<Value> expected;
  for (int i = 0; i < 50; ++i)
    for (int k = 0; k < 40; ++k)
      expected.emplace_back(1000 + i);
  EXPECT_EQ(sink.tokens(), expected);
  EXPECT_EQ(summary.incomplete(), 0u);
}

INSTANTIATE_TEST_SUITE_P(OuterAndInner, Composite,
                         ::testing::Combine(::testing::ValuesIn(testing::kTestDirectors),
                                            ::testing::ValuesIn(testing::kTestDirectors)));

TEST(CompositeActor, RejectsABoundaryThatIsNotThere) {
  auto inner = std::make_unique<Workflow>("inner");
  inner->emplace<AddConstant>("in", 1);
  EXPECT_THROW(CompositeActor(std::move(inner), {"in"}, {}, make("scheduled")), WorkflowError);
}

}  // namespace
}  // namespace cwf
