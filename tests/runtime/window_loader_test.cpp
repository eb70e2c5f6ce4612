// The `window:` key of long-form connections: parsing, errors at file:line:column, and a loaded
// windowed workflow running with its expired-events route.
#include <gtest/gtest.h>

#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/loading/param_overrides.hpp"
#include "runtime/loading/workflow_loader.hpp"
#include "runtime/windows/window_spec.hpp"
#include "test_actors.hpp"
#include "test_scheduler.hpp"

namespace cwf {
namespace {

using testing::Collect;
using testing::ListSource;

// Records the tokens of each window it fires on.
class Batches : public Actor {
 public:
  Batches() { add_input("in"); }
  void fire(FiringContext& c) override {
    windows.emplace_back();
    for (const Event& e : c.window())
      windows.back().push_back(e.token);
  }
  std::vector<std::vector<Value>> windows;
};

class WindowLoader : public ::testing::Test {
 protected:
  WindowLoader() {
    actors_.add(ActorType{"numbers",
                          "Emits 1, 2, ... count at times 1 s, 2 s, ...",
                          {ParamSpec{"count", ParamType::integer, std::nullopt, "how many"}},
                          ActorPorts{{}, {PortSpec{"out", ""}}},
                          [](const Params& p) {
                            std::vector<Value> tokens;
                            std::vector<Timestamp> times;
                            for (std::int64_t i = 1; i <= p.get_int("count"); ++i) {
                              tokens.emplace_back(i);
                              times.push_back(i * kSecond);
                            }
                            return std::make_unique<ListSource>(std::move(tokens),
                                                                std::move(times));
                          }});
    actors_.add(
        ActorType{"batches", "", {}, ActorPorts{{PortSpec{"in", ""}}, {}}, [](const Params&) {
                    return std::make_unique<Batches>();
                  }});
    actors_.add(
        ActorType{"collect", "", {}, ActorPorts{{PortSpec{"in", ""}}, {}}, [](const Params&) {
                    return std::make_unique<Collect>();
                  }});
    schedulers_.add("fifo", "in wake-up order", [](const SchedulerParameters&) {
      return std::make_unique<testing::InOrderScheduler>(16, "fifo");
    });
  }
  std::unique_ptr<Workflow> load(std::string_view yaml,
                                 const std::vector<std::string>& settings = {}) {
    std::vector<ParamOverride> overrides;
    for (const std::string& text : settings)
      overrides.push_back(parse_param_override(text));
    return load_workflow_text(yaml, "wf.yaml", "flows", LoadContext{actors_, schedulers_},
                              overrides);
  }
  // The error loading `yaml` with `settings`.
  std::string error_with(std::string_view yaml, const std::vector<std::string>& settings) {
    try {
      load(yaml, settings);
    } catch (const LoadError& e) {
      return e.what();
    }
    return "no error";
  }
  std::string error(const std::string& window) {
    try {
      load(kActors + "  - {from: src, to: sink, window: " + window + "}\n");
    } catch (const LoadError& e) {
      return e.what();
    }
    return "no error";
  }
  template <typename T>
  static T& actor(Workflow& wf, std::string_view name) {
    return dynamic_cast<T&>(*wf.actor(*wf.find(name)).actor);
  }

  const std::string kActors =
      "actors:\n  src: {type: numbers, count: 5}\n  sink: {type: batches}\n"
      "  log: {type: collect}\nconnections:\n";
  ActorRegistry actors_;
  SchedulerRegistry schedulers_;
};

TEST_F(WindowLoader, LoadsAWindowAndItsExpiredRoute) {
  auto wf = load(kActors +
                 "  - from: src\n    to: sink\n"
                 "    window: {size: 1 token, step: 2 tokens, delete_used: true, "
                 "expired_to: log.in}\n");
  const PortWindow* window = wf->window(wf->connections().at(0).to);
  ASSERT_TRUE(window);
  EXPECT_EQ(window->spec.describe(), "window(size: 1 token, step: 2 tokens, delete_used)");
  EXPECT_EQ(window->expired_to, (PortAddress{*wf->find("log"), 0}));
  EXPECT_EQ(window->location.to_string(), "wf.yaml:8:5");  // its `window` key
  ScheduledDirector director(std::make_unique<testing::InOrderScheduler>(16, "fifo"));
  VirtualClock clock;
  RunSummary summary = run_workflow(*wf, director, clock);
  EXPECT_EQ(actor<Batches>(*wf, "sink").windows, (std::vector<std::vector<Value>>{{1}, {3}, {5}}));
  // Skipped tokens expire; the used ones were deleted.
  EXPECT_EQ(actor<Collect>(*wf, "log").tokens(), (std::vector<Value>{2, 4}));
  EXPECT_EQ(summary.actors[1].expired, 2u);
}

TEST_F(WindowLoader, TimeWindowsRunUnderAVirtualClock) {
  auto wf = load(kActors + "  - {from: src, to: sink, window: {size: 2 s, step: 2 s}}\n");
  ScheduledDirector director(std::make_unique<testing::InOrderScheduler>(16, "fifo"));
  VirtualClock clock;
  run_workflow(*wf, director, clock);
  EXPECT_EQ(actor<Batches>(*wf, "sink").windows,
            (std::vector<std::vector<Value>>{{1}, {2, 3}, {4, 5}}));
}

// `--set ACTOR.PORT.window.FIELD=VALUE` changes a window declared in the file, read as the file
// would write it.
TEST_F(WindowLoader, SetChangesAWindowOfTheFile) {
  const std::string yaml =
      kActors + "  - {from: src, to: sink, window: {size: 2 tokens, step: 2 tokens}}\n";
  auto wf = load(yaml, {"sink.in.window.size=3 tokens", "sink.in.window.step=3 tokens",
                        "sink.in.window.timeout=2", "sink.in.window.delete_used=true"});
  EXPECT_EQ(wf->window(wf->connections().at(0).to)->spec.describe(),
            "window(size: 3 tokens, step: 3 tokens, delete_used, timeout: 2)");
  ScheduledDirector director(std::make_unique<testing::InOrderScheduler>(16, "fifo"));
  VirtualClock clock;
  run_workflow(*wf, director, clock);
  EXPECT_EQ(actor<Batches>(*wf, "sink").windows,
            (std::vector<std::vector<Value>>{{1, 2, 3}, {4, 5}}));
  // A unit may change too before the workflow runs.
  wf = load(yaml, {"sink.in.window.size=2 s", "sink.in.window.step=2 s"});
  EXPECT_EQ(wf->window(wf->connections().at(0).to)->spec.describe(),
            "window(size: 2 s, step: 2 s)");
}

TEST_F(WindowLoader, SetNamesWhatIsWrongWithAWindowSetting) {
  const std::string yaml = kActors +
                           "  - {from: src, to: sink, window: {size: 2 tokens}}\n"
                           "  - src -> log\n";
  EXPECT_EQ(error_with(yaml, {"sink.input.window.size=3 tokens"}),
            "--set sink.input.window.size: actor 'sink' has no input port 'input'; its inputs: in");
  EXPECT_EQ(error_with(yaml, {"log.in.window.size=3 tokens"}),
            "--set log.in.window.size: input port 'in' of 'log' has no window (declare one with "
            "'window:' on a connection into it)");
  EXPECT_EQ(error_with(yaml, {"sink.in.window.size=3 tokenz"}),
            "--set sink.in.window.size: invalid window size '3 tokenz': unknown unit 'tokenz' (use "
            "tokens, waves or a time unit: ns, us, ms, s, min or h)");
  EXPECT_EQ(error_with(yaml, {"sink.in.window.sise=3 tokens"}),
            "--set sink.in.window.sise: unknown window key 'sise'; did you mean 'size'?");
  EXPECT_EQ(error_with(yaml, {"sink.in.window.group_by=/a"}),
            "--set sink.in.window.group_by: the window's group_by can only be written in the file");
  EXPECT_EQ(
      error_with(yaml, {"nobody.in.window.size=3 tokens"}),
      "--set nobody.in.window.size: no actor 'nobody' in the workflow; its actors: src, sink, "
      "log");
}

TEST_F(WindowLoader, DescribesWindowsCanonically) {
  WindowSpec spec;
  spec.size = parse_window_extent("90s");
  spec.step = parse_window_extent("1 wave");
  spec.group_by = {"/item", "as_set(/tags)"};
  spec.timeout = 2.5;
  spec.suppress_empty = true;
  EXPECT_EQ(spec.describe(),
            "window(size: 1.5 min, step: 1 wave, group_by: [/item, as_set(/tags)], timeout: 2.5, "
            "suppress_empty)");
  EXPECT_EQ(WindowSpec{}.describe(), "window()");
  WindowSpec quiet;
  quiet.size = parse_window_extent("2 tokens");
  quiet.group_by = {"/car"};
  quiet.idle = 120 * 1000 * kMillisecond;
  EXPECT_EQ(quiet.describe(), "window(size: 2 tokens, group_by: [/car], idle: 2 min)");
  EXPECT_EQ(parse_window_extent(" 3 waves ").to_string(), "3 waves");
  EXPECT_EQ(parse_window_extent("500ms").amount, 500 * kMillisecond);
}

TEST_F(WindowLoader, ReportsWindowMistakesWhereTheyAre) {
  EXPECT_EQ(error("5"),
            "wf.yaml:6:35: expected a map for 'window' (e.g. {size: 5 tokens, step: 1 token}), "
            "got '5'");
  EXPECT_EQ(error("{sise: 5 tokens}"),
            "wf.yaml:6:36: unknown window key 'sise'; did you mean 'size'?");
  EXPECT_EQ(error("{size: 5 tokenz}"),
            "wf.yaml:6:42: invalid window size '5 tokenz': unknown unit 'tokenz' (use tokens, "
            "waves or a time unit: ns, us, ms, s, min or h)");
  EXPECT_EQ(error("{step: 0 tokens}"),
            "wf.yaml:6:42: invalid window step '0 tokens': expected a whole number of at least 1 "
            "token, got '0 tokens'");
  EXPECT_EQ(error("{size: 5}"),
            "wf.yaml:6:42: invalid window size '5': missing unit in '5' (use tokens, waves or a "
            "time unit: ns, us, ms, s, min or h)");
  EXPECT_EQ(error("{size: 1 token, group_by: [/a, '/b +']}"),
            "wf.yaml:6:66: invalid group_by expression '/b +': column 5: expected an expression "
            "but found end of expression");
  EXPECT_EQ(error("{delete_used: maybe}"),
            "wf.yaml:6:49: expected true or false for 'delete_used', got 'maybe'");
  EXPECT_EQ(error("{timeout: -1}"),
            "wf.yaml:6:45: expected a non-negative factor of the window size for 'timeout', got "
            "'-1'");
  EXPECT_EQ(error("{size: 2 tokens, idle: 2 min}"),
            "wf.yaml:6:52: 'idle' ends the groups of group_by that stay quiet; this window has no "
            "group_by");
  EXPECT_EQ(error("{size: 1 wave, group_by: /a, idle: 2 min}"),
            "wf.yaml:6:64: 'idle' is for windows in tokens and time, not in waves");
  EXPECT_EQ(error("{size: 2 tokens, group_by: /a, idle: 2 tokens}"),
            "wf.yaml:6:72: expected a positive duration for 'idle' (e.g. 2 min), got '2 tokens': "
            "unknown unit 'tokens' (use ns, us, ms, s, min or h)");
  EXPECT_EQ(error("{size: 2 tokens, group_by: /a, idle: 0 s}"),
            "wf.yaml:6:72: expected a positive duration for 'idle' (e.g. 2 min), got '0 s'");
  EXPECT_EQ(error("{expired_to: lg.in}"),
            "wf.yaml:6:48: connection refers to unknown actor 'lg'; did you mean 'log'?");
  EXPECT_EQ(error("{expired_to: log.input}"),
            "wf.yaml:6:52: actor 'log' has no input port 'input' (inputs: in)");
}

}  // namespace
}  // namespace cwf
