// CWP3 with parallel branches, as a property: orders are split into items, every item is routed
// to one of 2-4 branches (filters), each branch drops some of its items and has its own number of
// stages, and all branches feed one port with a window of step 1 wave, size 1 wave. Whatever the
// director, the worker count and the speed of each branch, every window holds exactly the kept
// items of one order, and every order with a kept item has exactly one window.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>

#include "actor_test_util.hpp"
#include "runtime/execution/director_factory.hpp"
#include "runtime/windows/window_spec.hpp"
#include "schedulers/register.hpp"

namespace cwf::actors {
namespace {

using testing::make;

// Records the item ids of every window it fires on.
class CompleteOrder final : public Actor {
 public:
  CompleteOrder() { add_input("in"); }
  void fire(FiringContext& context) override {
    std::set<std::int64_t> ids;
    for (const Event& e : context.window())
      ids.insert(e.token.field("id")->as_int());
    std::lock_guard lock(mutex_);
    windows.push_back(std::move(ids));
  }
  std::vector<std::set<std::int64_t>> windows;

 private:
  std::mutex mutex_;
};

struct Case {
  int branches = 2;
  std::vector<int> stages;  // per branch: extra 1:1 stages after its routing filter
  std::vector<std::set<std::int64_t>> expected;  // the kept items of each order that has one
  std::string orders_jsonl;
};

Case make_case(std::uint32_t seed) {
  std::mt19937 random(seed);
  Case c;
  c.branches = 2 + static_cast<int>(random() % 3);
  for (int b = 0; b < c.branches; ++b)
    c.stages.push_back(static_cast<int>(random() % 3));
  std::ostringstream jsonl;
  for (int order = 1; order <= 300; ++order) {
    int items = static_cast<int>(random() % 5);  // an order may have no item at all
    std::set<std::int64_t> kept;
    jsonl << "{\"t\": " << order << ", \"items\": [";
    for (int i = 0; i < items; ++i) {
      std::int64_t id = order * 10 + i;
      int branch = static_cast<int>(random() % static_cast<unsigned>(c.branches));
      bool keep = random() % 5 != 0;
      if (keep) kept.insert(id);
      jsonl << (i ? ", " : "") << "{\"id\": " << id << ", \"b\": " << branch
            << ", \"keep\": " << (keep ? "true" : "false") << "}";
    }
    jsonl << "]}\n";
    if (!kept.empty()) c.expected.push_back(std::move(kept));
  }
  c.orders_jsonl = jsonl.str();
  return c;
}

std::vector<DirectorConfig> every_director() {
  std::vector<DirectorConfig> out;
  for (const char* policy : {"fifo", "rr", "qbs", "rb"})
    for (unsigned workers : {1u, 2u}) {
      DirectorConfig config;
      config.scheduler = policy;
      config.workers = workers;
      out.push_back(config);
    }
  DirectorConfig threaded;
  threaded.type = "threaded";
  out.push_back(threaded);
  return out;
}

std::string label(const DirectorConfig& config) {
  if (config.type == "threaded") return "threaded";
  return config.scheduler + " x" + std::to_string(config.workers);
}

TEST(WaveBranchesProperty, EveryOrderIsOneWindowOfItsKeptItemsUnderEveryDirector) {
  static const SchedulerRegistry* schedulers = [] {
    auto* r = new SchedulerRegistry();
    cwf::schedulers::register_all(*r);
    return r;
  }();
  for (std::uint32_t seed = 1; seed <= 6; ++seed) {
    Case c = make_case(seed);
    std::string path =
        testing::write_file("orders_" + std::to_string(seed) + ".jsonl", c.orders_jsonl);
    for (const DirectorConfig& config : every_director()) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(c.branches) +
                   " branches, " + label(config));
      Workflow wf("orders");
      wf.add("orders", make("jsonl_source", {{"path", path}, {"time", "/t"}}));
      wf.add("items", make("split", {{"path", "/items"}}));
      wf.connect("orders", "out", "items", "in");
      auto sink = std::make_unique<CompleteOrder>();
      CompleteOrder& completion = *sink;
      wf.add("complete", std::move(sink));
      WindowSpec spec;
      spec.size = WindowExtent{WindowUnit::waves, 1};
      spec.step = WindowExtent{WindowUnit::waves, 1};
      spec.delete_used = true;
      wf.declare_window("complete", "in", spec);  // one window, fed by every branch
      for (int b = 0; b < c.branches; ++b) {
        std::string name = "branch" + std::to_string(b);
        wf.add(name, make("filter", {{"where", "/b == " + std::to_string(b) + " and /keep"}}));
        wf.connect("items", "out", name, "in");
        std::string last = name;
        for (int s = 0; s < c.stages[b]; ++s) {
          std::string stage = name + "_stage" + std::to_string(s);
          wf.add(stage, make("map", {{"expression", "/"}}));
          wf.connect(last, "out", stage, "in");
          last = stage;
        }
        wf.connect(last, "out", "complete", "in");
      }
      VirtualClock clock;
      auto director = make_director(config, *schedulers);
      RunSummary summary = run_workflow(wf, *director, clock);

      auto windows = completion.windows;
      std::sort(windows.begin(), windows.end());
      auto expected = c.expected;
      std::sort(expected.begin(), expected.end());
      EXPECT_EQ(windows, expected);
      EXPECT_EQ(summary.incomplete(), 0u);
    }
  }
}

}  // namespace
}  // namespace cwf::actors
