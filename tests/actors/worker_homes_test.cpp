// Which worker each actor prefers (runtime/graph/worker_homes.hpp): replicas by their number,
// the stages of a replica's line with it, merges and sources nowhere.
#include "runtime/graph/worker_homes.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "actor_test_util.hpp"

namespace cwf::actors {
namespace {

std::map<std::string, int> homes_of(const Workflow& workflow, unsigned workers) {
  std::map<std::string, int> out;
  const std::vector<int> homes = worker_homes(workflow, workers);
  for (ActorId id = 0; id < workflow.size(); ++id)
    out[workflow.actor(id).name] = homes[id];
  return out;
}

// A source partitioned over three replicas of `a`, each followed by its replica of `b`, merged
// into one sink; a second sink fed by the source and by the replicas of a.
constexpr const char* kLines = R"(
name: lines
actors:
  src: {type: generator, count: 10}
  a: {type: map, expression: "/", parallelism: 3}
  b: {type: map, expression: "/", parallelism: 3}
  out: {type: stdout}
  side: {type: stdout}
connections:
  - {from: src, to: a, partition_by: /, partitioning: modulo}
  - a -> b
  - b -> out
  - src -> side
  - a -> side
)";

TEST(WorkerHomes, ReplicasAndTheirLinesByReplicaNumberMergesAndSourcesNowhere) {
  auto workflow = testing::load(kLines);
  const std::map<std::string, int> expected{
      {"src", kNoHome}, {"a[0]", 0}, {"a[1]", 1}, {"a[2]", 0}, {"b[0]", 0},
      {"b[1]", 1},      {"b[2]", 0}, {"out", kNoHome},          {"side", kNoHome}};
  EXPECT_EQ(homes_of(*workflow, 2), expected);
  const std::map<std::string, int> on_three{
      {"src", kNoHome}, {"a[0]", 0}, {"a[1]", 1}, {"a[2]", 2}, {"b[0]", 0},
      {"b[1]", 1},      {"b[2]", 2}, {"out", kNoHome},          {"side", kNoHome}};
  EXPECT_EQ(homes_of(*workflow, 3), on_three);
}

TEST(WorkerHomes, NoneOnOneWorkerOrWithoutReplicas) {
  auto workflow = testing::load(kLines);
  for (const auto& [name, home] : homes_of(*workflow, 1))
    EXPECT_EQ(home, kNoHome) << name;
  auto chain = testing::load(R"(
name: chain
actors:
  src: {type: generator, count: 10}
  a: {type: map, expression: "/"}
  out: {type: stdout}
connections: [src -> a, a -> out]
)");
  for (const auto& [name, home] : homes_of(*chain, 2))
    EXPECT_EQ(home, kNoHome) << name;
}

TEST(WorkerHomes, ALineThatFeedsItselfStaysWithItsReplica) {
  // b[i] is fed by a[i] and by itself (a loop through c[i]): all of one line.
  auto workflow = testing::load(R"(
name: loop
actors:
  src: {type: generator, count: 10}
  a: {type: map, expression: "/", parallelism: 2}
  b: {type: map, expression: "/", parallelism: 2}
  c: {type: filter, where: "false", parallelism: 2}
connections:
  - {from: src, to: a, partition_by: /}
  - a -> b
  - b -> c
  - c -> b
)");
  const std::map<std::string, int> expected{{"src", kNoHome}, {"a[0]", 0}, {"a[1]", 1},
                                            {"b[0]", 0},       {"b[1]", 1}, {"c[0]", 0},
                                            {"c[1]", 1}};
  EXPECT_EQ(homes_of(*workflow, 2), expected);
}

}  // namespace
}  // namespace cwf::actors
