// A window belongs to the input port: declared once (by any one connection into the port), fed by
// every connection into it; declaring the same window again is accepted, a different one is a
// load error naming both declarations.
#include <gtest/gtest.h>

#include <algorithm>

#include "runtime/execution/runner.hpp"
#include "runtime/loading/workflow_loader.hpp"
#include "test_actors.hpp"
#include "test_scheduler.hpp"

namespace cwf {
namespace {

using testing::Collect;
using testing::ListSource;

// Records the tokens of each window it fires on, sorted (two producers interleave in any order).
class SortedBatches : public Actor {
 public:
  SortedBatches() { add_input("in"); }
  void fire(FiringContext& c) override {
    std::vector<std::int64_t> tokens;
    for (const Event& e : c.window())
      tokens.push_back(e.token.as_int());
    std::sort(tokens.begin(), tokens.end());
    windows.push_back(std::move(tokens));
  }
  std::vector<std::vector<std::int64_t>> windows;
};

class PortWindowLoading : public ::testing::Test {
 protected:
  PortWindowLoading() {
    actors_.add(ActorType{"numbers",
                          "Emits first, first + 1, ... (count of them) at 1 s, 2 s, ...",
                          {ParamSpec{"count", ParamType::integer, std::nullopt, "how many"},
                           ParamSpec{"first", ParamType::integer, std::nullopt, "first token"}},
                          ActorPorts{{}, {PortSpec{"out", ""}}},
                          [](const Params& p) {
                            std::vector<Value> tokens;
                            std::vector<Timestamp> times;
                            for (std::int64_t i = 0; i < p.get_int("count"); ++i) {
                              tokens.emplace_back(p.get_int("first") + i);
                              times.push_back((i + 1) * kSecond);
                            }
                            return std::make_unique<ListSource>(std::move(tokens),
                                                                std::move(times));
                          }});
    actors_.add(
        ActorType{"batches", "", {}, ActorPorts{{PortSpec{"in", ""}}, {}}, [](const Params&) {
                    return std::make_unique<SortedBatches>();
                  }});
    actors_.add(
        ActorType{"collect", "", {}, ActorPorts{{PortSpec{"in", ""}}, {}}, [](const Params&) {
                    return std::make_unique<Collect>();
                  }});
  }
  std::unique_ptr<Workflow> load(const std::string& connections) {
    return load_workflow_text(kActors + connections, "wf.yaml", "flows",
                              LoadContext{actors_, schedulers_});
  }
  std::string error(const std::string& connections) {
    try {
      load(connections);
    } catch (const LoadError& e) {
      return e.what();
    }
    return "no error";
  }
  template <typename T>
  static T& actor(Workflow& wf, std::string_view name) {
    return dynamic_cast<T&>(*wf.actor(*wf.find(name)).actor);
  }

  // Lines 1 to 7; connections start on line 8.
  const std::string kActors =
      "actors:\n"
      "  a: {type: numbers, count: 3, first: 1}\n"
      "  b: {type: numbers, count: 3, first: 11}\n"
      "  sink: {type: batches}\n"
      "  log: {type: collect}\n"
      "  other_log: {type: collect}\n"
      "connections:\n";
  ActorRegistry actors_;
  SchedulerRegistry schedulers_;
};

class PortWindows : public PortWindowLoading, public ::testing::WithParamInterface<std::string> {};

TEST_P(PortWindows, TwoConnectionsIntoOnePortShareItsWindow) {
  // Six tokens, three through each connection: one window of all six. Were each connection's
  // events windowed apart, each would have three and close only at the end of input.
  const std::string window = "window: {size: 6 tokens, step: 6 tokens}";
  for (const std::string& connections :
       {"  - {from: a, to: sink, " + window + "}\n  - b -> sink\n",
        "  - a -> sink\n  - {from: b, to: sink, " + window + "}\n"}) {
    SCOPED_TRACE(connections);
    auto wf = load(connections);
    VirtualClock clock;
    auto director = testing::make_test_director(GetParam(), 4);
    run_workflow(*wf, *director, clock);
    EXPECT_EQ(actor<SortedBatches>(*wf, "sink").windows,
              (std::vector<std::vector<std::int64_t>>{{1, 2, 3, 11, 12, 13}}));
  }
}

TEST_P(PortWindows, ExpiredEventsLeaveOnceFromThePortWhicheverConnectionBroughtThem) {
  // The first 2 of every 3 tokens at the port, whichever connection brought them, are used and
  // deleted; the third of each 3 expires, through the one route of the port.
  auto wf = load(
      "  - {from: a, to: sink, window: {size: 2 tokens, step: 3 tokens, delete_used: true, "
      "expired_to: log}}\n"
      "  - b -> sink\n");
  VirtualClock clock;
  auto director = testing::make_test_director(GetParam(), 4);
  RunSummary summary = run_workflow(*wf, *director, clock);
  const auto& windows = actor<SortedBatches>(*wf, "sink").windows;
  const auto& expired = actor<Collect>(*wf, "log").tokens();
  ASSERT_EQ(windows.size(), 2u);
  EXPECT_EQ(windows[0].size(), 2u);
  EXPECT_EQ(windows[1].size(), 2u);
  EXPECT_EQ(expired.size(), 2u);
  EXPECT_EQ(summary.actors[*wf->find("sink")].expired, 2u);
  std::vector<std::int64_t> all;
  for (const auto& w : windows)
    all.insert(all.end(), w.begin(), w.end());
  for (const Value& v : expired)
    all.push_back(v.as_int());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, (std::vector<std::int64_t>{1, 2, 3, 11, 12, 13}));
}

INSTANTIATE_TEST_SUITE_P(EveryDirector, PortWindows, ::testing::ValuesIn(testing::kTestDirectors));

TEST_F(PortWindowLoading, TheSameWindowDeclaredAgainIsAccepted) {
  // Written differently (key order, `log` for `log.in`), the same window: compared field by field.
  auto wf = load(
      "  - {from: a, to: sink, window: {size: 6 tokens, step: 6 tokens, group_by: /k, "
      "expired_to: log}}\n"
      "  - {from: b, to: sink, window: {expired_to: log.in, group_by: [/k], step: 6 tokens, "
      "size: 6 tokens}}\n");
  ASSERT_EQ(wf->windows().size(), 1u);
  EXPECT_EQ(wf->windows()[0].location.to_string(), "wf.yaml:8:25");  // the first declaration
  EXPECT_EQ(wf->connections().size(), 2u);
}

TEST_F(PortWindowLoading, ADifferentWindowIsALoadErrorNamingBothDeclarations) {
  const std::string first = "  - {from: a, to: sink, window: {size: 6 tokens, step: 6 tokens}}\n";
  EXPECT_EQ(error(first + "  - {from: b, to: sink, window: {size: 3 tokens, step: 3 tokens}}\n"),
            "wf.yaml:9:25: input port 'in' of 'sink' has one window, declared at wf.yaml:8:25 as "
            "window(size: 6 tokens, step: 6 tokens); this declares window(size: 3 tokens, step: "
            "3 tokens)");
  // Group-by keys are compared as written.
  EXPECT_EQ(error("  - {from: a, to: sink, window: {size: 6 tokens, group_by: /k}}\n"
                  "  - {from: b, to: sink, window: {size: 6 tokens, group_by: /j}}\n"),
            "wf.yaml:9:25: input port 'in' of 'sink' has one window, declared at wf.yaml:8:25 as "
            "window(size: 6 tokens, group_by: [/k]); this declares window(size: 6 tokens, "
            "group_by: [/j])");
  // The expired route is the port's too.
  EXPECT_EQ(error("  - {from: a, to: sink, window: {size: 6 tokens, expired_to: log}}\n"
                  "  - {from: b, to: sink, window: {size: 6 tokens, expired_to: other_log}}\n"),
            "wf.yaml:9:25: input port 'in' of 'sink' has one window, declared at wf.yaml:8:25 as "
            "window(size: 6 tokens) with expired_to: log.in; this declares window(size: 6 "
            "tokens) with expired_to: other_log.in");
  EXPECT_EQ(error("  - {from: a, to: sink, window: {size: 6 tokens, expired_to: log}}\n"
                  "  - {from: b, to: sink, window: {size: 6 tokens}}\n"),
            "wf.yaml:9:25: input port 'in' of 'sink' has one window, declared at wf.yaml:8:25 as "
            "window(size: 6 tokens) with expired_to: log.in; this declares window(size: 6 "
            "tokens)");
}

TEST(PortWindowApi, DeclaredOnThePortOnceAndFoundByIt) {
  Workflow wf("api");
  wf.emplace<ListSource>("src", std::vector<Value>{1});
  wf.emplace<Collect>("sink");
  wf.emplace<Collect>("log");
  EXPECT_EQ(wf.window({1, 0}), nullptr);  // a FIFO queue until a window is declared
  WindowSpec spec;
  spec.size = WindowExtent{WindowUnit::tokens, 2};
  wf.declare_window("sink", "in", spec, "log");
  wf.declare_window("sink", "in", spec, "log.in");
  ASSERT_NE(wf.window({1, 0}), nullptr);
  EXPECT_EQ(wf.window({1, 0})->expired_to, (PortAddress{2, 0}));
  EXPECT_EQ(wf.windows().size(), 1u);
  spec.delete_used = true;
  try {
    wf.declare_window("sink", "in", spec, "log");
    FAIL() << "a different window was accepted";
  } catch (const WorkflowError& e) {
    EXPECT_STREQ(e.what(),
                 "input port 'in' of 'sink' has one window, declared at <workflow> as "
                 "window(size: 2 tokens) with expired_to: log.in; this declares window(size: 2 "
                 "tokens, delete_used) with expired_to: log.in");
  }
}

}  // namespace
}  // namespace cwf
