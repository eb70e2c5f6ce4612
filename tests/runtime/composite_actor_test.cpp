#include "runtime/composite_actor.hpp"

#include <gtest/gtest.h>

#include "runtime/runner.hpp"
#include "test_actors.hpp"
#include "test_scheduler.hpp"

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
