#include "runtime/loading/workflow_loader.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "runtime/execution/composite_actor.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "test_actors.hpp"
#include "test_scheduler.hpp"

namespace cwf {
namespace {

namespace fs = std::filesystem;

using testing::AddConstant;
using testing::Collect;
using testing::ListSource;

class WorkflowLoader : public ::testing::Test {
 protected:
  WorkflowLoader() {
    actors_.add(ActorType{"numbers",
                          "Emits start, start+1, ... (count of them).",
                          {ParamSpec{"count", ParamType::integer, std::nullopt, "how many"},
                           ParamSpec{"start", ParamType::integer, Value(1), "first number"}},
                          ActorPorts{{}, {PortSpec{"out", ""}}},
                          [](const Params& p) {
                            std::vector<Value> tokens;
                            for (std::int64_t i = 0; i < p.get_int("count"); ++i)
                              tokens.emplace_back(p.get_int("start") + i);
                            return std::make_unique<ListSource>(std::move(tokens));
                          }});
    actors_.add(ActorType{"add",
                          "Adds `amount` to integer tokens.",
                          {ParamSpec{"amount", ParamType::integer, std::nullopt, ""},
                           ParamSpec{"label", ParamType::string, Value("plus"), ""},
                           ParamSpec{"every", ParamType::duration, Value(kSecond), ""},
                           ParamSpec{"scale", ParamType::real, Value(1.0), ""},
                           ParamSpec{"enabled", ParamType::boolean, Value(true), ""},
                           ParamSpec{"tags", ParamType::strings, Value::array({}), ""},
                           ParamSpec{"extra", ParamType::any, Value(), ""},
                           ParamSpec{"where", ParamType::expression, Value("true"), ""}},
                          ActorPorts{{PortSpec{"in", ""}}, {PortSpec{"out", ""}}},
                          [this](const Params& p) -> std::unique_ptr<Actor> {
                            bound_.push_back(p);
                            if (p.get_string("label") == "bad")
                              throw ParamError("label", "a label cannot be 'bad'");
                            if (p.get_int("amount") == 13)
                              throw std::runtime_error("13 is unlucky");
                            return std::make_unique<AddConstant>(p.get_int("amount"));
                          }});
    actors_.add(ActorType{"collect",
                          "Keeps what it receives.",
                          {},
                          ActorPorts{{PortSpec{"in", ""}}, {}},
                          [](const Params&) { return std::make_unique<Collect>(); }});
    schedulers_.add("fifo", "in wake-up order", [](const SchedulerParameters&) {
      return std::make_unique<testing::InOrderScheduler>(16, "fifo");
    });
    schedulers_.add("lifo", "unused", [](const SchedulerParameters&) -> std::unique_ptr<Scheduler> {
      throw std::invalid_argument("lifo is not available here");
    });
  }

  LoadContext context() const { return LoadContext{actors_, schedulers_}; }

  std::unique_ptr<Workflow> load(std::string_view yaml) {
    return load_workflow_text(yaml, "wf.yaml", "flows", context());
  }

  // The full what() of the LoadError the text raises.
  std::string error(std::string_view yaml) {
    try {
      load(yaml);
    } catch (const LoadError& e) {
      return e.what();
    }
    return "no error";
  }

  // A fresh folder for workflow files.
  fs::path folder(const std::string& name) {
    fs::path dir = fs::path(::testing::TempDir()) / ("cwf_loader_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
  }
  static void write(const fs::path& path, std::string_view text) {
    std::ofstream out(path);
    out << text;
  }

  static std::vector<Value> run(Workflow& workflow, const std::string& sink) {
    ScheduledDirector director(std::make_unique<testing::InOrderScheduler>(16, "fifo"));
    VirtualClock clock;
    run_workflow(workflow, director, clock);
    auto* collect = dynamic_cast<Collect*>(workflow.actor(*workflow.find(sink)).actor.get());
    return collect ? collect->tokens() : std::vector<Value>{};
  }

  ActorRegistry actors_;
  SchedulerRegistry schedulers_;
  std::vector<Params> bound_;
};

TEST_F(WorkflowLoader, LoadsActorsConnectionsPrioritiesParametersAndDirector) {
  auto wf = load(R"(name: pipeline
description: numbers, plus ten, collected
director: {type: scheduled, scheduler: fifo, workers: 2, adapt_workers: false, basic_quantum_us: 500, mode: fast}
actors:
  src: {type: numbers, count: 3, priority: 5}
  inc:
    type: add
    amount: 10
    every: 500 ms
    scale: 2
    tags: hot
    extra: {a: [1, 2.5], b: "x"}
  sink: {type: collect}
connections:
  - src -> inc
  - {from: inc.out, to: sink.in}
)");
  EXPECT_EQ(wf->name(), "pipeline");
  const DirectorConfig& director = wf->director();
  EXPECT_EQ(director.type, "scheduled");
  EXPECT_EQ(director.scheduler, "fifo");
  EXPECT_EQ(director.workers, 2u);
  EXPECT_FALSE(director.adapt_workers);
  ASSERT_EQ(director.parameters.size(), 2u);
  EXPECT_EQ(director.parameters.at("basic_quantum_us"), Value(500));
  EXPECT_EQ(director.parameters.at("mode"), Value("fast"));

  ASSERT_EQ(wf->size(), 3u);
  const ActorEntry& src = wf->actor(0);
  EXPECT_EQ(src.name, "src");
  EXPECT_EQ(src.type, "numbers");
  EXPECT_EQ(src.priority, 5);
  EXPECT_EQ(src.location.to_string(), "wf.yaml:5:3");
  EXPECT_EQ(wf->actor(1).name, "inc");
  EXPECT_EQ(wf->actor(1).priority, 20);
  EXPECT_EQ(wf->actor(1).location.to_string(), "wf.yaml:6:3");
  EXPECT_EQ(wf->actor(2).type, "collect");

  ASSERT_EQ(wf->connections().size(), 2u);
  const Connection& first = wf->connections()[0];
  EXPECT_EQ(first.from, (PortAddress{0, 0}));
  EXPECT_EQ(first.to, (PortAddress{1, 0}));
  EXPECT_EQ(wf->window(first.to), nullptr);  // a FIFO queue
  EXPECT_EQ(first.location.to_string(), "wf.yaml:15:5");
  EXPECT_EQ(wf->connections()[1].from, (PortAddress{1, 0}));
  EXPECT_EQ(wf->connections()[1].to, (PortAddress{2, 0}));
  EXPECT_EQ(wf->connections()[1].location.to_string(), "wf.yaml:16:5");

  ASSERT_EQ(bound_.size(), 1u);
  const Params& p = bound_[0];
  EXPECT_EQ(p.get("amount"), Value(10));
  EXPECT_TRUE(p.get("amount").is_int());
  EXPECT_EQ(p.get_string("label"), "plus");  // default
  EXPECT_EQ(p.get_duration("every"), 500 * kMillisecond);
  EXPECT_TRUE(p.get("scale").is_double());
  EXPECT_EQ(p.get_double("scale"), 2.0);
  EXPECT_TRUE(p.get_bool("enabled"));
  EXPECT_EQ(p.get_strings("tags"), std::vector<std::string>{"hot"});
  EXPECT_EQ(p.get("extra").to_json(), R"({"a":[1,2.5],"b":"x"})");
  EXPECT_EQ(p.location("amount").to_string(), "wf.yaml:8:13");
  EXPECT_EQ(p.location("label").to_string(), "wf.yaml:6:3");  // defaults: the actor
  EXPECT_EQ(p.base_dir(), "flows");
  EXPECT_EQ(p.path("label"), "flows/plus");

  EXPECT_EQ(run(*wf, "sink"), (std::vector<Value>{11, 12, 13}));
}

TEST_F(WorkflowLoader, DefaultsNameDirectorAndPriority) {
  auto wf = load_workflow_text(R"(actors:
  src: {type: numbers, count: 2, start: 7}
  sink: {type: collect}
connections: [src -> sink]
)",
                               "dir/numbers.yaml", "dir", context());
  EXPECT_EQ(wf->name(), "numbers");
  EXPECT_EQ(wf->director().type, "scheduled");
  EXPECT_EQ(wf->director().scheduler, "fifo");
  EXPECT_EQ(wf->director().workers, 0u);  // one per hardware thread
  EXPECT_TRUE(wf->director().adapt_workers);
  EXPECT_TRUE(wf->director().parameters.empty());
  EXPECT_EQ(wf->actor(0).priority, 20);
  EXPECT_EQ(run(*wf, "sink"), (std::vector<Value>{7, 8}));
}

TEST_F(WorkflowLoader, ParameterValuesAreReadFromTheirTextWhetherQuotedOrNot) {
  load(R"(actors:
  a: {type: add, amount: "0x10", label: 42, every: 2, scale: '1e3', enabled: False,
      tags: [x, "y"], extra: "5", where: /x > 1}
)");
  ASSERT_EQ(bound_.size(), 1u);
  const Params& p = bound_[0];
  EXPECT_EQ(p.get("amount"), Value(16));
  EXPECT_EQ(p.get("label"), Value("42"));
  EXPECT_EQ(p.get_duration("every"), 2 * kSecond);
  EXPECT_EQ(p.get("scale"), Value(1000.0));
  EXPECT_FALSE(p.get_bool("enabled"));
  EXPECT_EQ(p.get_strings("tags"), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(p.get("extra"), Value("5"));  // `any` keeps YAML's typing: quoted is a string
  EXPECT_EQ(p.get_string("where"), "/x > 1");
}

TEST_F(WorkflowLoader, ReportsYamlSyntaxErrors) {
  EXPECT_EQ(error("actors:\n  src: {type: numbers, count: 3\nconnections: []\n"),
            "wf.yaml:3:12: end of map flow not found");
  EXPECT_EQ(error("actors:\n  - a\n  b: 1\n"), "wf.yaml:3:3: end of map not found");
}

TEST_F(WorkflowLoader, ReportsTheShapeOfTheFile) {
  EXPECT_EQ(error(""),
            "wf.yaml:1:1: the workflow file is empty (expected a map with 'actors' and "
            "'connections')");
  EXPECT_EQ(error("- a\n- b\n"),
            "wf.yaml:1:1: expected a map (name, director, actors, connections) at the top of the "
            "workflow file, got a sequence");
  EXPECT_EQ(error("actors: {}\nconections: []\n"),
            "wf.yaml:2:1: unknown key 'conections' in the workflow; did you mean 'connections'?");
  EXPECT_EQ(
      error("actors: {}\nwires: []\n"),
      "wf.yaml:2:1: unknown key 'wires' in the workflow; expected one of: name, "
      "description, director, clock, queues, inputs, outputs, actors, connections, placement");
  EXPECT_EQ(error("inputs: [in]\nactors: {}\n"),
            "wf.yaml:1:1: 'inputs' is only allowed in a sub-workflow (a file an actor includes "
            "with 'workflow:')");
  EXPECT_EQ(error("name: [a]\n"), "wf.yaml:1:7: expected a name for 'name', got a sequence");
  EXPECT_EQ(error("actors:\n  - src: {type: numbers}\n"),
            "wf.yaml:2:3: expected a map of actors (name: {type: ..., parameters}) for "
            "'actors', got a sequence");
  EXPECT_EQ(error("actors: {}\nconnections: {a: b}\n"),
            "wf.yaml:2:14: expected a list of connections (- a -> b) for 'connections', got a "
            "map");
  EXPECT_EQ(error("name: a\nname: b\n"), "wf.yaml:2:1: duplicate key 'name' (first at 1:1)");
}

// A workflow whose times only make sense on a clock that starts at 0 and jumps to the next timer
// (replayed old data with time events) says so, and `cwf run` uses that clock unless told.
TEST_F(WorkflowLoader, ReadsTheClockTheFileAsksFor) {
  EXPECT_EQ(load("actors:\n  src: {type: numbers, count: 1}\n")->clock(), "");
  EXPECT_EQ(load("clock: virtual\nactors:\n  src: {type: numbers, count: 1}\n")->clock(),
            "virtual");
  EXPECT_EQ(load("clock: real\nactors:\n  src: {type: numbers, count: 1}\n")->clock(), "real");
  EXPECT_EQ(error("clock: virtul\n"),
            "wf.yaml:1:8: unknown clock 'virtul' (known: real, virtual); did you mean 'virtual'?");
  EXPECT_EQ(error("clock: {type: virtual}\n"),
            "wf.yaml:1:8: expected a clock (real or virtual) for 'clock', got a map");
}

TEST_F(WorkflowLoader, ReportsDirectorMistakes) {
  EXPECT_EQ(error("director: {type: threads}\n"),
            "wf.yaml:1:18: unknown director type 'threads' (known: scheduled, threaded); did "
            "you mean 'threaded'?");
  EXPECT_EQ(error("director: {type: pool}\n"),
            "wf.yaml:1:18: unknown director type 'pool' (known: scheduled, threaded)");
  EXPECT_EQ(error("director:\n  scheduler: xyz\n"),
            "wf.yaml:2:14: unknown scheduler 'xyz' (known: fifo, lifo)");
  EXPECT_EQ(error("director:\n  scheduler: fif\n"),
            "wf.yaml:2:14: unknown scheduler 'fif' (known: fifo, lifo); did you mean 'fifo'?");
  EXPECT_EQ(error("director: {schedular: fifo}\n"),
            "wf.yaml:1:12: unknown director key 'schedular'; did you mean 'scheduler'?");
  EXPECT_EQ(error("director: {workers: 0}\n"),
            "wf.yaml:1:21: expected a positive int for 'workers', got '0'");
  EXPECT_EQ(error("director: {adapt_workers: maybe}\n"),
            "wf.yaml:1:27: 'adapt_workers' must be true or false, got 'maybe'");
  EXPECT_EQ(error("director: {adapt_worker: false}\n"),
            "wf.yaml:1:12: unknown director key 'adapt_worker'; did you mean 'adapt_workers'?");
  EXPECT_EQ(error("director: threaded\n"),
            "wf.yaml:1:11: expected a map for 'director' (e.g. {type: scheduled, scheduler: "
            "fifo}), got 'threaded'");
}

TEST_F(WorkflowLoader, ReportsActorMistakes) {
  EXPECT_EQ(error("actors:\n  src: {type: numbrs, count: 1}\n"),
            "wf.yaml:2:15: unknown actor type 'numbrs' for actor 'src'; did you mean "
            "'numbers'?");
  EXPECT_EQ(error("actors:\n  src: {type: zzz}\n"),
            "wf.yaml:2:15: unknown actor type 'zzz' for actor 'src'; known types: add, collect, "
            "numbers");
  EXPECT_EQ(error("actors:\n  src: {type: numbers, count: 1}\n  src: {type: collect}\n"),
            "wf.yaml:3:3: duplicate actor 'src' (first at 2:3)");
  EXPECT_EQ(error("actors:\n  src: numbers\n"),
            "wf.yaml:2:8: expected a map for actor 'src' (e.g. {type: ..., parameters} or "
            "{workflow: file.yaml}), got 'numbers'");
  EXPECT_EQ(error("actors:\n  src:\n"),
            "wf.yaml:2:3: expected a map for actor 'src' (e.g. {type: ..., parameters} or "
            "{workflow: file.yaml}), got null");
  EXPECT_EQ(error("actors:\n  src: {count: 1}\n"),
            "wf.yaml:2:3: actor 'src' needs a 'type' (or 'workflow' for a sub-workflow)");
  EXPECT_EQ(error("actors:\n  a.b: {type: collect}\n"),
            "wf.yaml:2:3: invalid actor name 'a.b' (use letters, digits, '_' and '-')");
  EXPECT_EQ(error("actors:\n  src: {type: numbers, count: 1, priority: high}\n"),
            "wf.yaml:2:44: expected int for 'priority', got 'high'");
  EXPECT_EQ(error("actors:\n  src: {type: numbers, workflow: x.yaml}\n"),
            "wf.yaml:2:24: actor 'src' has both 'type' and 'workflow'; an actor is either an "
            "actor type or a sub-workflow");
}

TEST_F(WorkflowLoader, ReportsParameterMistakes) {
  EXPECT_EQ(error("actors:\n  f: {type: add, amount: 1, lable: x}\n"),
            "wf.yaml:2:29: unknown parameter 'lable' for actor 'f' (type add); did you mean "
            "'label'?");
  EXPECT_EQ(error("actors:\n  f: {type: collect, size: 3}\n"),
            "wf.yaml:2:22: unknown parameter 'size' for actor 'f' (type collect); collect takes "
            "no parameters");
  EXPECT_EQ(error("actors:\n  f: {type: numbers, zzzzzz: 3}\n"),
            "wf.yaml:2:22: unknown parameter 'zzzzzz' for actor 'f' (type numbers); its "
            "parameters are: count, start");
  EXPECT_EQ(error("actors:\n  f: {type: numbers}\n"),
            "wf.yaml:2:3: actor 'f' (type numbers) is missing required parameter 'count' (int)");
  EXPECT_EQ(error("actors:\n  f: {type: numbers, count: abc}\n"),
            "wf.yaml:2:29: expected int for 'count', got 'abc'");
  EXPECT_EQ(error("actors:\n  f:\n    type: numbers\n    count:\n"),
            "wf.yaml:4:5: expected int for 'count', got null");
  EXPECT_EQ(error("actors:\n  f: {type: add, amount: 1, every: 5 parsecs}\n"),
            "wf.yaml:2:36: expected duration for 'every', got '5 parsecs': unknown unit "
            "'parsecs' (use ns, us, ms, s, min or h)");
  EXPECT_EQ(error("actors:\n  f: {type: add, amount: 1, enabled: yes}\n"),
            "wf.yaml:2:38: expected bool for 'enabled', got 'yes'");
  EXPECT_EQ(error("actors:\n  f: {type: add, amount: 1, scale: [1]}\n"),
            "wf.yaml:2:36: expected number for 'scale', got a sequence");
  EXPECT_EQ(error("actors:\n  f: {type: add, amount: 1, tags: [a, {b: 1}]}\n"),
            "wf.yaml:2:39: expected a string in 'tags', got a map");
  EXPECT_EQ(error("actors:\n  f: {type: add, amount: 1, label: x, label: y}\n"),
            "wf.yaml:2:39: duplicate key 'label' (first at 2:29)");
}

TEST_F(WorkflowLoader, ReportsFactoryErrorsWhereTheyBelong) {
  EXPECT_EQ(error("actors:\n  f:\n    type: add\n    amount: 1\n    label: bad\n"),
            "wf.yaml:5:12: invalid 'label' for actor 'f': a label cannot be 'bad'");
  EXPECT_EQ(error("actors:\n  f: {type: add, amount: 13}\n"),
            "wf.yaml:2:3: cannot create actor 'f' (type add): 13 is unlucky");
}

TEST_F(WorkflowLoader, ReadsQueueLimitsOfTheWorkflowAndOfEachConnection) {
  auto wf = load(
      "queues: {capacity: 100, overload: drop_oldest}\n"
      "actors:\n  src: {type: numbers, count: 1}\n  sink: {type: collect}\n"
      "  other: {type: collect}\nconnections:\n"
      "  - src -> sink\n"
      "  - {from: src, to: other, capacity: unbounded, overload: block}\n");
  EXPECT_EQ(wf->queue_defaults(), (QueueLimits{100, Overload::drop_oldest}));
  EXPECT_EQ(wf->limits_of(wf->connections()[0]), (QueueLimits{100, Overload::drop_oldest}));
  EXPECT_EQ(wf->limits_of(wf->connections()[1]),
            (QueueLimits{QueueLimits::kUnbounded, Overload::block}));
  auto defaults = load(
      "actors:\n  src: {type: numbers, count: 1}\n  sink: {type: collect}\n"
      "connections:\n  - {from: src, to: sink, capacity: 7}\n");
  EXPECT_EQ(defaults->limits_of(defaults->connections()[0]), (QueueLimits{7, Overload::block}));
}

TEST_F(WorkflowLoader, ReportsQueueLimitMistakes) {
  const std::string actors =
      "actors:\n  src: {type: numbers, count: 1}\n  sink: {type: collect}\nconnections:\n";
  EXPECT_EQ(error(actors + "  - {from: src, to: sink, capacity: 0}\n"),
            "wf.yaml:5:37: expected a capacity (a positive number of events, or unbounded) for "
            "'capacity', got '0'");
  EXPECT_EQ(error(actors + "  - {from: src, to: sink, overload: drop_some}\n"),
            "wf.yaml:5:37: unknown overload policy 'drop_some' (known: block, drop_newest, "
            "drop_oldest, sample)");
  EXPECT_EQ(error("queues: {capacity: lots}\n" + actors),
            "wf.yaml:1:20: expected a capacity (a positive number of events, or unbounded) for "
            "'capacity', got 'lots'");
  EXPECT_EQ(error("queues: {size: 3}\n" + actors),
            "wf.yaml:1:10: unknown key 'size' in 'queues'; expected one of: capacity, overload");
  EXPECT_EQ(error("queues: 3\n" + actors),
            "wf.yaml:1:9: expected a map for 'queues' (e.g. {capacity: 16384, overload: block}), "
            "got '3'");
}

TEST_F(WorkflowLoader, ReportsConnectionMistakes) {
  const std::string actors =
      "actors:\n  src: {type: numbers, count: 1}\n  sink: {type: collect}\nconnections:\n";
  EXPECT_EQ(error(actors + "  - scr -> sink\n"),
            "wf.yaml:5:5: connection refers to unknown actor 'scr'; did you mean 'src'?");
  EXPECT_EQ(error(actors + "  - src -> zzzz\n"),
            "wf.yaml:5:12: connection refers to unknown actor 'zzzz'; actors: src, sink");
  EXPECT_EQ(error(actors + "  - \"src ->  snk\"\n"),
            "wf.yaml:5:14: connection refers to unknown actor 'snk'; did you mean 'sink'?");
  EXPECT_EQ(error(actors + "  - src.output -> sink\n"),
            "wf.yaml:5:9: actor 'src' has no output port 'output' (outputs: out)");
  EXPECT_EQ(error(actors + "  - src -> sink.input\n"),
            "wf.yaml:5:17: actor 'sink' has no input port 'input' (inputs: in)");
  EXPECT_EQ(error(actors + "  - sink -> src\n"), "wf.yaml:5:5: actor 'sink' has no output port");
  EXPECT_EQ(error(actors + "  - src => sink\n"),
            "wf.yaml:5:5: malformed connection 'src => sink' (expected 'from -> to' or "
            "'from.port -> to.port')");
  EXPECT_EQ(error(actors + "  - src -> sink -> src\n"),
            "wf.yaml:5:5: malformed connection 'src -> sink -> src' (expected 'from -> to' or "
            "'from.port -> to.port')");
  EXPECT_EQ(error(actors + "  - src.a.b -> sink\n"),
            "wf.yaml:5:5: malformed connection end 'src.a.b' (expected 'actor' or "
            "'actor.port')");
  EXPECT_EQ(error(actors + "  - {from: src, too: sink}\n"),
            "wf.yaml:5:17: unknown connection key 'too'; did you mean 'to'?");
  EXPECT_EQ(error(actors + "  - {from: src}\n"), "wf.yaml:5:5: connection is missing 'to'");
  EXPECT_EQ(error(actors + "  - {from: src, to: sinc.in}\n"),
            "wf.yaml:5:21: connection refers to unknown actor 'sinc'; did you mean 'sink'?");
  EXPECT_EQ(error(actors + "  - [src, sink]\n"),
            "wf.yaml:5:5: expected a connection ('from -> to' or {from: ..., to: ...}), got a "
            "sequence");
}

TEST_F(WorkflowLoader, ReportsUnreadableFiles) {
  try {
    load_workflow_file("/nonexistent/wf.yaml", context());
    FAIL() << "no error";
  } catch (const LoadError& e) {
    EXPECT_STREQ(e.what(),
                 "/nonexistent/wf.yaml: cannot read workflow file: No such file or "
                 "directory");
    EXPECT_EQ(e.message(), "cannot read workflow file: No such file or directory");
  }
}

TEST_F(WorkflowLoader, SubWorkflowsBecomeCompositeActorsAndRun) {
  fs::path dir = folder("sub");
  fs::create_directories(dir / "parts");
  write(dir / "parts" / "plus100.yaml", R"(name: plus-hundred
inputs: [in]
outputs: [out]
actors:
  f: {type: add, amount: 100}
connections:
  - in -> f
  - f -> out
)");
  write(dir / "main.yaml", R"(actors:
  src: {type: numbers, count: 3}
  stage: {workflow: parts/plus100.yaml, priority: 3}
  sink: {type: collect}
connections:
  - src -> stage
  - stage.out -> sink.in
)");
  auto wf = load_workflow_file((dir / "main.yaml").string(), context());
  EXPECT_EQ(wf->name(), "main");
  const ActorEntry& stage = wf->actor(*wf->find("stage"));
  EXPECT_EQ(stage.type, "workflow:parts/plus100.yaml");
  EXPECT_EQ(stage.priority, 3);
  auto* composite = dynamic_cast<CompositeActor*>(stage.actor.get());
  ASSERT_NE(composite, nullptr);
  ASSERT_EQ(composite->inputs().size(), 1u);
  EXPECT_EQ(composite->inputs()[0].name, "in");
  ASSERT_EQ(composite->outputs().size(), 1u);
  EXPECT_EQ(composite->outputs()[0].name, "out");
  Workflow& inner = composite->inner();
  EXPECT_EQ(inner.name(), "plus-hundred");
  EXPECT_EQ(inner.director().type, "scheduled");
  ASSERT_EQ(inner.size(), 3u);
  EXPECT_EQ(inner.actor(0).name, "in");
  EXPECT_EQ(inner.actor(0).type, "input");
  EXPECT_EQ(inner.actor(0).location.to_string(),
            (dir / "parts" / "plus100.yaml").string() + ":2:10");
  EXPECT_EQ(inner.actor(1).name, "out");
  EXPECT_EQ(inner.actor(2).name, "f");
  EXPECT_EQ(inner.connections().size(), 2u);
  ASSERT_EQ(bound_.size(), 1u);
  EXPECT_EQ(bound_[0].base_dir(), (dir / "parts").string());

  EXPECT_EQ(run(*wf, "sink"), (std::vector<Value>{101, 102, 103}));
}

TEST_F(WorkflowLoader, TheReferencingActorsDirectorWinsOverTheSubWorkflowsOwn) {
  fs::path dir = folder("directors");
  write(dir / "sub.yaml", R"(inputs: in
outputs: out
director: {type: threaded}
actors:
  f: {type: add, amount: 1}
connections: [in -> f, f -> out]
)");
  write(dir / "main.yaml", R"(actors:
  src: {type: numbers, count: 2}
  own: {workflow: sub.yaml}
  mine: {workflow: sub.yaml, director: {type: scheduled, scheduler: fifo, workers: 1}}
  sink: {type: collect}
connections: [src -> own, own -> mine, mine -> sink]
)");
  auto wf = load_workflow_file((dir / "main.yaml").string(), context());
  auto inner = [&](const char* name) -> Workflow& {
    return dynamic_cast<CompositeActor&>(*wf->actor(*wf->find(name)).actor).inner();
  };
  EXPECT_EQ(inner("own").director().type, "threaded");
  EXPECT_EQ(inner("mine").director().type, "scheduled");
  EXPECT_EQ(run(*wf, "sink"), (std::vector<Value>{3, 4}));
}

TEST_F(WorkflowLoader, ReportsSubWorkflowMistakes) {
  fs::path dir = folder("sub_errors");
  write(dir / "a.yaml", "actors:\n  b: {workflow: b.yaml}\n");
  write(dir / "b.yaml", "inputs: [in]\nactors:\n  again: {workflow: a.yaml}\n");
  write(dir / "self.yaml", "actors:\n  me: {workflow: ./self.yaml}\n");
  write(dir / "broken.yaml", "inputs: [in]\nactors:\n  f: {type: add}\n");
  write(dir / "ok.yaml", "inputs: [in]\n");
  write(dir / "boundary.yaml", "inputs: [in]\noutputs: [out]\nconnections: [out -> in]\n");
  write(dir / "main.yaml",
        "actors:\n  x: {workflow: broken.yaml}\n  y: {workflow: missing.yaml}\n"
        "  z: {workflow: boundary.yaml}\n");
  auto message = [&](const std::string& file, const std::string& yaml = {}) {
    try {
      if (yaml.empty())
        load_workflow_file((dir / file).string(), context());
      else
        load_workflow_text(yaml, (dir / file).string(), dir.string(), context());
    } catch (const LoadError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string d = dir.string() + "/";
  EXPECT_EQ(message("a.yaml"), d + "b.yaml:3:21: sub-workflow include cycle: " + d + "a.yaml -> " +
                                   d + "b.yaml -> " + d + "a.yaml");
  EXPECT_EQ(message("self.yaml"), d + "self.yaml:2:18: sub-workflow include cycle: " + d +
                                      "self.yaml -> " + d + "self.yaml");
  EXPECT_EQ(message("main.yaml", "actors:\n  x: {workflow: broken.yaml}\n"),
            d + "broken.yaml:3:3: actor 'f' (type add) is missing required parameter 'amount' "
                "(int)");
  EXPECT_EQ(message("main.yaml", "actors:\n  y: {workflow: missing.yaml}\n"),
            d + "main.yaml:2:17: cannot read sub-workflow '" + d +
                "missing.yaml': No such file or directory");
  EXPECT_EQ(message("main.yaml", "actors:\n  z: {workflow: boundary.yaml}\n"),
            d + "boundary.yaml:3:15: 'out' is an output of the sub-workflow: connections go "
                "into it, not out of it");
  EXPECT_EQ(message("main.yaml", "actors:\n  z: {workflow: boundary.yaml, size: 2}\n"),
            d + "main.yaml:2:32: unknown key 'size' for sub-workflow actor 'z'; expected one "
                "of: workflow, director, priority");
  EXPECT_EQ(
      message("main.yaml", "actors:\n  z: {workflow: ok.yaml, director: {scheduler: lifo}}\n"),
      d + "main.yaml:2:36: lifo is not available here");
  write(dir / "clocked.yaml", "inputs: [in]\nclock: virtual\n");
  EXPECT_EQ(message("main.yaml", "actors:\n  z: {workflow: clocked.yaml}\n"),
            d + "clocked.yaml:2:1: 'clock' is only allowed in the top-level workflow: a "
                "sub-workflow runs on its parent's clock");
  write(dir / "dup.yaml", "inputs: [in]\nactors:\n  in: {type: collect}\n");
  EXPECT_EQ(message("main.yaml", "actors:\n  z: {workflow: dup.yaml}\n"),
            d + "dup.yaml:3:3: duplicate name 'in' (first at 1:10, as an input)");
}

TEST(YamlToValue, ConvertsScalarsSequencesAndMaps) {
  YAML::Node node = YAML::Load(
      R"({i: 42, n: -7, h: 0x1f, d: 2.5, e: 1e3, t: true, f: False, z: ~, s: hello,
          q: "42", l: [1, [two]], m: {b: 1, a: null}, inf: .inf, y: yes})");
  Value v = yaml_to_value(node);
  ASSERT_TRUE(v.is_record());
  EXPECT_TRUE(v.field("i")->is_int());
  EXPECT_EQ(*v.field("i"), Value(42));
  EXPECT_EQ(*v.field("n"), Value(-7));
  EXPECT_EQ(*v.field("h"), Value(31));
  EXPECT_TRUE(v.field("d")->is_double());
  EXPECT_EQ(*v.field("d"), Value(2.5));
  EXPECT_TRUE(v.field("e")->is_double());
  EXPECT_EQ(*v.field("t"), Value(true));
  EXPECT_EQ(*v.field("f"), Value(false));
  EXPECT_TRUE(v.field("z")->is_null());
  EXPECT_EQ(*v.field("s"), Value("hello"));
  EXPECT_EQ(*v.field("q"), Value("42"));
  EXPECT_EQ(v.field("l")->to_json(), R"([1,["two"]])");
  EXPECT_EQ(v.field("m")->to_json(), R"({"b":1,"a":null})");
  EXPECT_TRUE(v.field("inf")->is_double());
  EXPECT_EQ(*v.field("y"), Value("yes"));
  EXPECT_TRUE(yaml_to_value(YAML::Node()).is_null());
  try {
    yaml_to_value(YAML::Load("{a: 1, a: 2}"), "v.yaml");
    FAIL() << "no error";
  } catch (const LoadError& e) {
    EXPECT_STREQ(e.what(), "v.yaml:1:8: duplicate field 'a' (first at 1:2)");
  }
}

// An input file an actor cannot read stops a workflow that is to run, at the parameter's line;
// a workflow only checked or drawn loads without it, the file reported as a warning.
TEST_F(WorkflowLoader, AnInputFileThatCannotBeReadIsAnErrorToRunAndAWarningToCheck) {
  actors_.add(ActorType{"reader",
                        "Reads nothing, but needs its file.",
                        {ParamSpec{"path", ParamType::string, std::nullopt, "the input"}},
                        ActorPorts{{}, {PortSpec{"out", ""}}},
                        [](const Params& p) -> std::unique_ptr<Actor> {
                          if (!fs::exists(p.path("path")))
                            p.input_missing("path", "cannot open '" + p.path("path") + "'");
                          return std::make_unique<ListSource>(std::vector<Value>{});
                        }});
  constexpr std::string_view kReader = R"(actors:
  src: {type: reader, path: missing.txt}
  sink: {type: collect}
connections: [src -> sink]
)";
  EXPECT_EQ(error(kReader),
            "wf.yaml:2:29: invalid 'path' for actor 'src': cannot open 'flows/missing.txt'");

  std::vector<LoadWarning> warnings;
  LoadContext checking = context();
  checking.missing_inputs = &warnings;
  auto wf = load_workflow_text(kReader, "wf.yaml", "flows", checking);
  EXPECT_EQ(wf->size(), 2u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].text(),
            "wf.yaml:2:29: warning: actor 'src' needs 'path' to run: cannot open "
            "'flows/missing.txt'");
}

// ---- --set ACTOR.PARAM=VALUE (parameter overrides) ----

class WorkflowLoaderOverrides : public WorkflowLoader {
 protected:
  std::unique_ptr<Workflow> load_with(std::string_view yaml,
                                      const std::vector<std::string>& settings) {
    std::vector<ParamOverride> overrides;
    for (const std::string& text : settings)
      overrides.push_back(parse_param_override(text));
    return load_workflow_text(yaml, "wf.yaml", "flows", context(), overrides);
  }
  std::string error_with(std::string_view yaml, const std::vector<std::string>& settings) {
    try {
      load_with(yaml, settings);
    } catch (const LoadError& e) {
      return e.what();
    }
    return "no error";
  }
  static constexpr std::string_view kPipeline = R"(actors:
  src: {type: numbers, count: 3}
  inc: {type: add, amount: 10}
  sink: {type: collect}
connections: [src -> inc, inc -> sink]
)";
};

TEST_F(WorkflowLoaderOverrides, ReplaceAndAddParametersBeforeTheActorIsBuilt) {
  auto wf = load_with(kPipeline, {"inc.amount=100", "src.start=5", "inc.label=a.b=c"});
  EXPECT_EQ(run(*wf, "sink"), (std::vector<Value>{Value(105), Value(106), Value(107)}));
  ASSERT_EQ(bound_.size(), 1u);
  EXPECT_EQ(bound_[0].get_string("label"), "a.b=c");  // everything after the first '='
}

TEST_F(WorkflowLoaderOverrides, ReplacingAParameterLeavesTheOnesAfterItAlone) {
  // The replaced entry is not the actor's last: the entries after it must keep their values.
  auto wf = load_with(R"(actors:
  src: {type: numbers, start: 5, count: 3}
  inc: {type: add, amount: 10, label: first, scale: 2.5, extra: [x, y]}
  sink: {type: collect}
connections: [src -> inc, inc -> sink]
)",
                      {"src.start=7", "inc.amount=20"});
  EXPECT_EQ(run(*wf, "sink"), (std::vector<Value>{Value(27), Value(28), Value(29)}));
  ASSERT_EQ(bound_.size(), 1u);
  EXPECT_EQ(bound_[0].get_string("label"), "first");
  EXPECT_EQ(bound_[0].get("scale"), Value(2.5));
  EXPECT_EQ(bound_[0].get("extra"), Value::array({Value("x"), Value("y")}));
}

TEST_F(WorkflowLoaderOverrides, ValuesAreCheckedLikeThoseInTheFile) {
  EXPECT_NE(error_with(kPipeline, {"inc.amount=lots"}).find("expected int for 'amount'"),
            std::string::npos);
  // The factory's own checks apply too.
  EXPECT_NE(error_with(kPipeline, {"inc.label=bad"}).find("a label cannot be 'bad'"),
            std::string::npos);
}

TEST_F(WorkflowLoaderOverrides, UnknownActorOrParameterIsAnErrorWithADidYouMean) {
  EXPECT_EQ(error_with(kPipeline, {"inx.amount=1"}),
            "--set inx.amount: no actor 'inx' in the workflow; did you mean 'inc'?");
  std::string message = error_with(kPipeline, {"inc.amont=1"});
  EXPECT_NE(message.find("--set inc.amont: unknown parameter 'amont' for actor 'inc' (type add)"
                         "; did you mean 'amount'?"),
            std::string::npos)
      << message;
}

// A setting naming no actor, or a parameter its actor does not have, is the first thing said:
// before any actor is built (building one may open its files, which the setting was to replace).
TEST_F(WorkflowLoaderOverrides, AMistakenSettingIsReportedBeforeAnyActorIsBuilt) {
  constexpr std::string_view kBadLabelFirst = R"(actors:
  inc: {type: add, amount: 10, label: bad}
  src: {type: numbers, count: 3}
  sink: {type: collect}
connections: [src -> inc, inc -> sink]
)";
  EXPECT_EQ(error_with(kBadLabelFirst, {"inc.label=good", "inx.amount=1"}),
            "--set inx.amount: no actor 'inx' in the workflow; did you mean 'inc'?");
  std::string message = error_with(kBadLabelFirst, {"src.strat=2"});
  EXPECT_NE(message.find("--set src.strat: unknown parameter 'strat' for actor 'src' (type "
                         "numbers); did you mean 'start'?"),
            std::string::npos)
      << message;
  EXPECT_TRUE(bound_.empty()) << "no factory may run before the settings are checked";
}

// A path in the file is relative to the file's folder; one given on the command line is relative
// to where the user stands, like any path typed in a shell.
TEST_F(WorkflowLoaderOverrides, APathSetOnTheCommandLineIsRelativeToTheCurrentDirectory) {
  load_with(R"(actors:
  src: {type: numbers, count: 1}
  one: {type: add, amount: 1, label: data/in.csv}
  two: {type: add, amount: 2, label: data/in.csv}
  sink: {type: collect}
connections: [src -> one, one -> two, two -> sink]
)",
            {"two.label=out/answers.csv"});
  ASSERT_EQ(bound_.size(), 2u);
  EXPECT_EQ(bound_[0].path("label"), "flows/data/in.csv");
  EXPECT_EQ(bound_[1].path("label"), "out/answers.csv");
  load_with(kPipeline, {"inc.label=/abs/in.csv"});
  EXPECT_EQ(bound_.back().path("label"), "/abs/in.csv");
  // A setting written in another file (an experiment's `set:`) is relative to that file.
  ParamOverride from_file = parse_param_override("inc.label=in.csv");
  from_file.base_dir = "experiments";
  load_workflow_text(kPipeline, "wf.yaml", "flows", context(), {from_file});
  EXPECT_EQ(bound_.back().path("label"), "experiments/in.csv");
}

TEST_F(WorkflowLoaderOverrides, MalformedSettingsAreRejected) {
  EXPECT_THROW(parse_param_override("inc.amount"), std::invalid_argument);
  EXPECT_THROW(parse_param_override("amount=3"), std::invalid_argument);
  EXPECT_THROW(parse_param_override(".amount=3"), std::invalid_argument);
  EXPECT_THROW(parse_param_override("inc.=3"), std::invalid_argument);
  ParamOverride empty = parse_param_override("inc.label=");
  EXPECT_EQ(empty.actor, "inc");
  EXPECT_EQ(empty.param, "label");
  EXPECT_EQ(empty.value, "");
}

TEST_F(WorkflowLoaderOverrides, SubWorkflowActorsCannotBeSet) {
  fs::path dir = folder("overrides_sub");
  write(dir / "inner.yaml", R"(inputs: [in]
outputs: [out]
actors:
  inc: {type: add, amount: 1}
connections: [in -> inc, inc -> out]
)");
  write(dir / "outer.yaml", R"(actors:
  src: {type: numbers, count: 1}
  sub: {workflow: inner.yaml}
  sink: {type: collect}
connections: [src -> sub, sub -> sink]
)");
  std::string message;
  try {
    load_workflow_file((dir / "outer.yaml").string(), context(),
                       {parse_param_override("sub.amount=2")});
  } catch (const LoadError& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("'sub' is a sub-workflow"), std::string::npos) << message;
}

}  // namespace
}  // namespace cwf
