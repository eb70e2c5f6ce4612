// Helpers for the actor library tests: building actors through the registry, running small
// workflows on a virtual clock, and files in the test's temporary folder.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "actors/register.hpp"
#include "runtime/actor.hpp"
#include "runtime/actor_registry.hpp"
#include "runtime/runner.hpp"
#include "runtime/scheduled_director.hpp"
#include "schedulers/fifo_scheduler.hpp"

namespace cwf::actors::testing {

inline const ActorRegistry& registry() {
  static const ActorRegistry* instance = [] {
    auto* r = new ActorRegistry();
    register_all(*r);
    return r;
  }();
  return *instance;
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
  return ::testing::TempDir() + "cwf_actors_" + std::to_string(::getpid()) + "_" +
         ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + name;
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
    auto sink = std::make_unique<Collect>();
    Collect& ref = *sink;
    std::string name = "collect_" + actor + "_" + port;
    workflow_.add(name, std::move(sink));
    workflow_.connect(actor, port, name, "in");
    return ref;
  }
  void connect(const std::string& from, const std::string& from_port, const std::string& to,
               const std::string& to_port) {
    workflow_.connect(from, from_port, to, to_port);
  }
  void connect(const std::string& from, const std::string& to) { workflow_.connect(from, to); }

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
