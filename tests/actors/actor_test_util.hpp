// Helpers for the actor library tests: building actors through the registry, running small
// workflows on a virtual clock, and files in the test's temporary folder.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "actors/register.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/execution/director_factory.hpp"
#include "runtime/execution/execution.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/loading/actor_registry.hpp"
#include "runtime/loading/workflow_loader.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "runtime/time/clock.hpp"
#include "schedulers/fifo_scheduler.hpp"
#include "schedulers/register.hpp"

namespace cwf::actors::testing {

inline const ActorRegistry& registry() {
  static const ActorRegistry* instance = [] {
    auto* r = new ActorRegistry();
    register_all(*r);
    return r;
  }();
  return *instance;
}

inline const SchedulerRegistry& scheduler_registry() {
  static const SchedulerRegistry* instance = [] {
    auto* r = new SchedulerRegistry();
    cwf::schedulers::register_all(*r);
    return r;
  }();
  return *instance;
}

// A workflow written in YAML; relative paths are taken from the test's temporary folder.
inline std::unique_ptr<Workflow> load(const std::string& yaml) {
  LoadContext context{registry(), scheduler_registry()};
  return load_workflow_text(yaml, "test.yaml", ::testing::TempDir(), context);
}

// Every director and policy a workflow's output must not depend on: "threaded", or
// "POLICY/WORKERS" for the scheduled director.
inline const std::vector<std::string> kEveryDirector = {
    "fifo/1", "fifo/2", "qbs/1", "qbs/2", "rr/1", "rr/2", "rb/1", "rb/2", "threaded"};

// A test-name-safe form of a director string.
inline std::string director_label(std::string director) {
  for (char& c : director)
    if (c == '/') c = '_';
  return director;
}

// Runs `workflow` on a virtual clock under one of kEveryDirector.
inline RunSummary run_under(Workflow& workflow, const std::string& director,
                            const RunOptions& options = {}) {
  DirectorConfig config;
  if (director == "threaded") {
    config.type = "threaded";
  } else {
    auto slash = director.find('/');
    config.scheduler = director.substr(0, slash);
    config.workers = static_cast<unsigned>(std::stoul(director.substr(slash + 1)));
  }
  auto run_director = make_director(config, scheduler_registry());
  VirtualClock clock;
  return run_workflow(workflow, *run_director, clock, options);
}

inline Params params(std::map<std::string, Value> values) {
  return Params(std::move(values), {}, "");
}

inline std::unique_ptr<Actor> make(const std::string& type, std::map<std::string, Value> values) {
  const ActorType* t = registry().find(type);
  if (!t) throw std::invalid_argument("no actor type " + type);
  return t->factory(params(std::move(values)));
}

// The ParamError a factory raises, or "" when it succeeds.
inline std::string param_error(const std::string& type, std::map<std::string, Value> values) {
  try {
    make(type, std::move(values));
  } catch (const ParamError& e) {
    return e.param() + ": " + e.what();
  }
  return "";
}

// Per test and per process: the same test running in another build at the same time (a sanitizer
// build, another checkout) must not write over this one's files.
inline std::string temp_path(const std::string& name) {
  // Parameterised tests are named "Test/param": one file name, not a folder.
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::replace(test.begin(), test.end(), '/', '_');
  return ::testing::TempDir() + "cwf_actors_" + std::to_string(::getpid()) + "_" + test + "_" +
         name;
}

inline std::string write_file(const std::string& name, const std::string& content) {
  std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Seen {
  Value token;
  Timestamp time;    // the event's timestamp
  Timestamp fired;   // the clock when the collector fired on it
  std::string wave;  // its wave tag
};

// Records what reaches it.
class Collect final : public Actor {
 public:
  Collect() { add_input("in"); }
  void fire(FiringContext& context) override {
    std::lock_guard lock(mutex_);
    for (const Event& e : context.window())
      seen.push_back({e.token, e.time, context.clock().now(), e.wave.to_string()});
  }
  std::vector<Value> tokens() const {
    std::vector<Value> out;
    for (const auto& s : seen)
      out.push_back(s.token);
    return out;
  }
  std::vector<std::string> json() const {
    std::vector<std::string> out;
    for (const auto& s : seen)
      out.push_back(s.token.to_json());
    return out;
  }
  std::vector<Timestamp> times() const {
    std::vector<Timestamp> out;
    for (const auto& s : seen)
      out.push_back(s.time);
    return out;
  }
  std::vector<Timestamp> fired() const {
    std::vector<Timestamp> out;
    for (const auto& s : seen)
      out.push_back(s.fired);
    return out;
  }
  std::vector<Seen> seen;

 private:
  std::mutex mutex_;
};

// Emits each token, stamped with its event time, when the virtual clock reaches its arrival
// time. On a virtual clock the director finishes all other work before the clock moves on, so a
// join downstream receives the events of two such sources exactly in arrival order.
class Arrivals final : public Actor {
 public:
  struct Item {
    Timestamp arrival;
    Timestamp time;
    Value token;
  };
  explicit Arrivals(std::vector<Item> items) : items_(std::move(items)) { add_output("out"); }
  void fire(FiringContext& context) override {
    Timestamp now = context.clock().now();
    while (next_ < items_.size() && items_[next_].arrival <= now) {
      context.set_output_time(items_[next_].time);
      context.emit(items_[next_].token);
      ++next_;
    }
    if (next_ < items_.size()) context.fire_again_at(items_[next_].arrival);
  }
  bool postfire(FiringContext&) override { return next_ < items_.size(); }

 private:
  std::vector<Item> items_;
  std::size_t next_ = 0;
};

// An actor's own state (Actor::save_state) as bytes. The actors whose state this is used for need
// nothing of their context: any actor's context does.
inline std::vector<std::uint8_t> saved_state(Actor& actor, ActorContext& context) {
  SnapshotWriter out;
  actor.save_state(out, context);
  return out.take_bytes();
}

// Restores what `bytes_of` saves (given a context) into `fresh`, an actor of the same type in an
// execution of its own, checks that it reads it to the end and saves the same bytes again, and
// hands the restored actor to `check`.
template <typename ActorType>
void expect_state_round_trip(
    const std::function<std::vector<std::uint8_t>(ActorContext&)>& bytes_of,
    std::unique_ptr<Actor> fresh, const std::function<void(ActorType&)>& check) {
  Workflow other("restore");
  other.add("fresh", std::move(fresh));
  VirtualClock clock;
  Execution execution(other, clock);
  execution.initialize();
  auto& restored = static_cast<ActorType&>(execution.cell(0).actor());
  ActorContext context(execution.cell(0));
  const std::vector<std::uint8_t> bytes = bytes_of(context);
  SnapshotReader in(bytes);
  restored.restore_state(in, context);
  in.expect_end();
  check(restored);
  EXPECT_EQ(saved_state(restored, context), bytes);
}
// The same for the state `original` has now.
template <typename ActorType>
void expect_state_round_trip(Actor& original, std::unique_ptr<Actor> fresh,
                             const std::function<void(ActorType&)>& check) {
  expect_state_round_trip<ActorType>(
      [&](ActorContext& context) { return saved_state(original, context); }, std::move(fresh),
      check);
}

// A collector fed by `actor.port` of `workflow`.
inline Collect& collect(Workflow& workflow, const std::string& actor,
                        const std::string& port = "out") {
  auto sink = std::make_unique<Collect>();
  Collect& ref = *sink;
  std::string name = "collect_" + actor + "_" + port;
  workflow.add(name, std::move(sink));
  workflow.connect(actor, port, name, "in");
  return ref;
}

// A workflow under construction with collectors attached by name.
class Harness {
 public:
  Harness() : workflow_("test") {}

  void add(const std::string& name, std::unique_ptr<Actor> actor) {
    workflow_.add(name, std::move(actor));
  }
  void add(const std::string& name, const std::string& type, std::map<std::string, Value> values) {
    add(name, make(type, std::move(values)));
  }
  // A collector fed by `actor.port`.
  Collect& collect(const std::string& actor, const std::string& port = "out") {
    return testing::collect(workflow_, actor, port);
  }
  void connect(const std::string& from, const std::string& from_port, const std::string& to,
               const std::string& to_port) {
    workflow_.connect(from, from_port, to, to_port);
  }
  void connect(const std::string& from, const std::string& to) { workflow_.connect(from, to); }

  RunSummary run_under(const std::string& director) {
    return testing::run_under(workflow_, director);
  }
  RunSummary run(Timestamp clock_start = 0) {
    VirtualClock clock(clock_start);
    ScheduledDirector director(std::make_unique<cwf::schedulers::FifoScheduler>());
    return run_workflow(workflow_, director, clock);
  }

  // Errors counted by one actor in the last summary.
  static std::uint64_t errors(const RunSummary& summary, const std::string& actor) {
    for (const auto& a : summary.actors)
      if (a.name == actor) return a.rejected + a.failed;
    return ~0ull;
  }

  Workflow& workflow() { return workflow_; }

 private:
  Workflow workflow_;
};

}  // namespace cwf::actors::testing
