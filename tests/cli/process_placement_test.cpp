// Which part of a workflow each process runs (runtime/graph/process_placement.hpp), on files
// loaded as `cwf run` loads them: actors by placement, connections across processes through an
// outlet in the sender's process and an inlet in the receiver's on one subject, the partition
// rule kept on the sender's side, and what a placement may not do.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "cli/load.hpp"
#include "runtime/graph/process_placement.hpp"

namespace cwf::cli {
namespace {

// A link end that records what it was made for.
class Recorded final : public Actor {
 public:
  Recorded(bool outlet, std::string subject, std::string port, std::set<std::uint32_t> senders)
      : outlet(outlet),
        subject(std::move(subject)),
        port(std::move(port)),
        senders(std::move(senders)) {
    if (outlet)
      add_input("in");
    else
      add_output("out");
  }
  void fire(FiringContext&) override {}
  bool outlet;
  std::string subject, port;
  std::set<std::uint32_t> senders;
};

class RecordingLinks final : public ProcessLinkMaker {
 public:
  std::unique_ptr<Actor> outlet(const std::string& subject, const std::string& port) override {
    return std::make_unique<Recorded>(true, subject, port, std::set<std::uint32_t>{});
  }
  std::unique_ptr<Actor> inlet(const std::string& subject, const std::string& port,
                               std::set<std::uint32_t> senders) override {
    return std::make_unique<Recorded>(false, subject, port, std::move(senders));
  }
};

const char* kReplicated = R"(name: parts
actors:
  numbers: {type: generator, count: 10, value: "{k: i % 4, v: i}"}
  double:  {type: map, expression: "{k: /k, v: /v * 2}", parallelism: 2}
  count:   {type: counter, parallelism: 2}
  total:   {type: counter}
connections:
  - {from: numbers, to: double, partition_by: /k}
  - double -> count
  - count -> total
)";

// A file of its own per test: ctest runs tests side by side, each in a process of its own.
std::string scratch_file(const std::string& what) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "cwf_placement_" + test->name() + "_" + what + ".yaml";
}

std::unique_ptr<Workflow> load(const std::string& text) {
  std::string path = scratch_file("workflow");
  std::ofstream(path) << text;
  std::ostringstream err;
  auto workflow = load_or_report(path, err);
  EXPECT_TRUE(workflow) << err.str();
  return workflow;
}

struct Part {
  std::unique_ptr<Workflow> workflow;
  std::set<std::string> names() const {
    std::set<std::string> out;
    for (const ActorEntry& entry : workflow->actors())
      out.insert(entry.name);
    return out;
  }
  const Recorded& link(const std::string& name) const {
    return static_cast<const Recorded&>(*workflow->actor(*workflow->find(name)).actor);
  }
};

Part part(const std::string& text, int process, int processes,
          std::map<std::string, int> assigned = {}) {
  auto whole = load(text);
  RecordingLinks links;
  ProcessPlacement placement{processes, process, std::move(assigned)};
  return {part_for_process(*whole, placement, links, "cwf.link.t")};
}

TEST(ProcessPlacement, ReplicaRRunsInProcessRModNAndEveryOtherActorInProcess0) {
  Part zero = part(kReplicated, 0, 2), one = part(kReplicated, 1, 2);
  EXPECT_EQ(zero.names(), (std::set<std::string>{"numbers", "double[0]", "count[0]", "total",
                                                 "double[1].in (to process 1)",
                                                 "total.in (from other processes)"}));
  EXPECT_EQ(one.names(), (std::set<std::string>{"double[1]", "count[1]", "total.in (to process 0)",
                                                "double[1].in (from other processes)"}));
  // Both ends of a link are on the port's subject (by the numbers of its actor and port).
  const Recorded& out = zero.link("double[1].in (to process 1)");
  const Recorded& in = one.link("double[1].in (from other processes)");
  EXPECT_TRUE(out.outlet);
  EXPECT_EQ(out.subject, in.subject);
  EXPECT_EQ(out.port, "double[1].in");
  EXPECT_EQ(in.senders, (std::set<std::uint32_t>{0}));
  EXPECT_EQ(one.link("total.in (to process 0)").subject,
            zero.link("total.in (from other processes)").subject);
  EXPECT_EQ(zero.link("total.in (from other processes)").senders, (std::set<std::uint32_t>{1}));
}

TEST(ProcessPlacement, TheSenderKeepsThePartitionRuleAndPicksTheOutletAsItsRemoteReplica) {
  Part zero = part(kReplicated, 0, 2);
  const ActorId numbers = *zero.workflow->find("numbers");
  const ActorId outlet = *zero.workflow->find("double[1].in (to process 1)");
  const ActorId local = *zero.workflow->find("double[0]");
  int seen = 0;
  for (const Connection& c : zero.workflow->connections()) {
    if (c.from.actor != numbers) continue;
    ASSERT_TRUE(c.route);
    if (c.to.actor == outlet) {
      EXPECT_EQ(c.route_receiver, 1);
      ++seen;
    }
    if (c.to.actor == local) {
      EXPECT_EQ(c.route_receiver, 0);
      ++seen;
    }
  }
  EXPECT_EQ(seen, 2);
}

TEST(ProcessPlacement, APlacementMovesActorsAndReplicasAndOneProcessIsTheWholeWorkflow) {
  Part one = part(kReplicated, 1, 2, {{"total", 1}, {"double", 1}});
  EXPECT_EQ(one.names(),
            (std::set<std::string>{
                "double[0]", "double[1]", "count[1]", "total",
                "double[0].in (from other processes)", "double[1].in (from other processes)",
                "count[0].in (to process 0)", "total.in (from other processes)"}));
  EXPECT_EQ(one.link("total.in (from other processes)").senders, (std::set<std::uint32_t>{0}));
  Part alone = part(kReplicated, 0, 1);
  EXPECT_EQ(alone.names(), (std::set<std::string>{"numbers", "double[0]", "double[1]", "count[0]",
                                                  "count[1]", "total"}));
  EXPECT_EQ(alone.workflow->connections().size(), load(kReplicated)->connections().size());
}

std::string placement_error(const std::string& text, std::map<std::string, int> assigned,
                            int processes = 2) {
  try {
    part(text, 0, processes, std::move(assigned));
  } catch (const WorkflowError& e) {
    return e.what();
  }
  return "";
}

TEST(ProcessPlacement, WhatAPlacementMayNotDoIsRefusedSayingWhy) {
  EXPECT_EQ(placement_error(kReplicated, {{"totl", 1}}),
            "placement names 'totl', which is no actor of the workflow; did you mean 'total'?");
  EXPECT_EQ(placement_error(kReplicated, {{"count[1]", 3}}),
            "placement puts 'count[1]' in process 3, not one of 0..1");
  // A wave window behind a link would wait for punctuations that do not cross processes.
  const std::string waves = std::string(kReplicated) +
                            "  - {from: count, to: total, window: {size: 1 wave, step: 1 wave}}\n";
  std::string text = waves;
  text.replace(text.find("  - count -> total\n"), 19, "");
  EXPECT_NE(placement_error(text, {}).find("the wave window on total"), std::string::npos)
      << placement_error(text, {});
  // In one process nothing crosses: the same file is fine.
  EXPECT_EQ(placement_error(text, {}, 1), "");
}

TEST(ProcessPlacement, AFilePlacementNamingNoActorIsALoadErrorAtItsLine) {
  std::string path = scratch_file("placement");
  std::ofstream(path) << kReplicated << "placement: {totals: 1}\n";
  std::ostringstream err;
  EXPECT_FALSE(load_or_report(path, err));
  EXPECT_NE(err.str().find(":11:13: placement names 'totals', which is no actor of the workflow; "
                           "did you mean 'total'?"),
            std::string::npos)
      << err.str();
  std::ofstream(path) << kReplicated << "placement:\n  count[1]: 1\n  total: 1\n";
  std::ostringstream ok;
  auto workflow = load_or_report(path, ok);
  ASSERT_TRUE(workflow) << ok.str();
  EXPECT_EQ(workflow->placement(), (std::map<std::string, int>{{"count[1]", 1}, {"total", 1}}));
}

}  // namespace
}  // namespace cwf::cli
