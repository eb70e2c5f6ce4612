// Pieces shared by the engine benchmarks (engine_throughput, scheduler_overhead): the counting
// source, pass-through and summing sink actors, the source -> branches -> sink workflow in the
// engine and as a oneTBB flow graph, the plain-call stand-ins, the command line and a console
// reporter that keeps the medians for a summary printed after the table.
//
// The graph shape: `source -> branch 0 .. branch B-1 -> sink`, each branch a chain of S stages.
// With one branch it is the chain `source -> p0 -> ... -> p(S-1) -> sink`; with several, the
// source's output is broadcast to every branch (a copy of each token to each) and every branch
// feeds the single input of the sink (a merge, no pairing), so the sink receives each token B
// times. Branches are named a, b, c, ...: `a0 .. a(S-1)`, `b0 ...`. The source emits the integers
// 0 .. N-1, one per firing; the sink counts and sums what it receives, which `check` compares
// with the expected count and sum.
#pragma once

#include <benchmark/benchmark.h>
#include <tbb/flow_graph.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "bench/median_reporter.hpp"

#include "runtime/actor/actor.hpp"
#include "runtime/graph/workflow.hpp"

namespace cwf_bench {

using cwf::Value;

struct Tally {
  std::int64_t count = 0;
  std::int64_t sum = 0;
};

// What the sink must have seen: every one of `events` tokens `copies` times.
inline Tally expected_tally(std::int64_t events, std::int64_t copies) {
  return {copies * events, copies * (events * (events - 1) / 2)};
}

// Fails the benchmark (and stops its loop) unless the tally is the expected one.
inline bool check(benchmark::State& state, const std::string& what, const Tally& tally,
                  const Tally& want) {
  if (tally.count == want.count && tally.sum == want.sum) return true;
  std::string message = what + ": sink saw " + std::to_string(tally.count) + " tokens summing to " +
                        std::to_string(tally.sum) + ", expected " + std::to_string(want.count) +
                        " summing to " + std::to_string(want.sum);
  state.SkipWithError(message.c_str());
  return false;
}

// ---------------------------------------------------------------------------------------------
// Engine actors

class CountingSource final : public cwf::Actor {
 public:
  explicit CountingSource(std::int64_t events) : events_(events) { add_output("out"); }
  bool prefire(cwf::FiringContext&) override { return next_ < events_; }
  void fire(cwf::FiringContext& context) override { context.emit(Value(next_++)); }
  bool postfire(cwf::FiringContext&) override { return next_ < events_; }

 private:
  std::int64_t events_;
  std::int64_t next_ = 0;
};

class PassThrough final : public cwf::Actor {
 public:
  PassThrough() {
    add_input("in");
    add_output("out");
  }
  void fire(cwf::FiringContext& context) override { context.emit(context.token()); }
};

// Only ever fired by one thread at a time; read after the run has ended.
class SumSink final : public cwf::Actor {
 public:
  explicit SumSink(Tally& tally) : tally_(tally) { add_input("in"); }
  void fire(cwf::FiringContext& context) override {
    for (const cwf::Event& event : context.window()) {
      tally_.sum += event.token.as_int();
      ++tally_.count;
    }
  }

 private:
  Tally& tally_;
};

// Adds one stage actor named `name` to the workflow (e.g. workflow.emplace<PassThrough>(name)).
using AddStage = std::function<void(cwf::Workflow&, const std::string&)>;

inline void add_pass_through(cwf::Workflow& workflow, const std::string& name) {
  workflow.emplace<PassThrough>(name);
}

// The stage names of branch `branch` (see the top of the file).
inline std::string stage_name(int branches, int branch, int stage) {
  std::string prefix = branches == 1 ? std::string("p") : std::string(1, char('a' + branch));
  return prefix + std::to_string(stage);
}

// Actor ids: source 0, sink 1, then the stages branch by branch.
inline void build_workflow(cwf::Workflow& workflow, std::int64_t events, int branches, int stages,
                           Tally& tally, const AddStage& add_stage = add_pass_through) {
  workflow.emplace<CountingSource>("source", events);
  workflow.emplace<SumSink>("sink", tally);
  for (int branch = 0; branch < branches; ++branch) {
    std::string upstream = "source";
    for (int i = 0; i < stages; ++i) {
      std::string name = stage_name(branches, branch, i);
      add_stage(workflow, name);
      workflow.connect(upstream, name);
      upstream = name;
    }
    workflow.connect(upstream, "sink");
  }
}

// ---------------------------------------------------------------------------------------------
// oneTBB flow graph of the same shape. Every function_node has tbb::flow::serial concurrency (one
// body call at a time, like an actor) and the default queueing policy.

enum class TbbSource { input_node, try_put };

// `body` is each stage's Value -> Value function. Runs in the caller's task arena.
template <class Body>
void run_tbb_graph(std::int64_t events, int branches, int stages, TbbSource source_kind,
                   Tally& tally, Body body) {
  namespace flow = tbb::flow;
  flow::graph graph;
  std::int64_t next = 0;
  flow::input_node<Value> source(graph, [&next, events](tbb::flow_control& control) -> Value {
    if (next >= events) {
      control.stop();
      return Value();
    }
    return Value(next++);
  });
  flow::function_node<Value, flow::continue_msg> sink(graph, flow::serial,
                                                      [&tally](const Value& token) {
                                                        tally.sum += token.as_int();
                                                        ++tally.count;
                                                        return flow::continue_msg();
                                                      });
  std::vector<std::unique_ptr<flow::function_node<Value, Value>>> nodes;
  auto stage = [&]() -> flow::function_node<Value, Value>& {
    nodes.push_back(std::make_unique<flow::function_node<Value, Value>>(graph, flow::serial, body));
    return *nodes.back();
  };
  // `entry` takes the source's tokens: the first stage of a chain, the split of several branches.
  flow::broadcast_node<Value> split(graph);
  flow::receiver<Value>* entry = &split;
  for (int branch = 0; branch < branches; ++branch) {
    flow::sender<Value>* upstream = branches == 1 ? nullptr : &split;
    for (int i = 0; i < stages; ++i) {
      auto& node = stage();
      if (upstream)
        flow::make_edge(*upstream, node);
      else
        entry = &node;
      upstream = &node;
    }
    flow::make_edge(*upstream, sink);
  }
  if (source_kind == TbbSource::input_node) {
    flow::make_edge(source, *entry);
    source.activate();
  } else {
    for (std::int64_t i = 0; i < events; ++i)
      entry->try_put(Value(i));
  }
  graph.wait_for_all();
}

// ---------------------------------------------------------------------------------------------
// Plain function calls: the same per-token work with no engine at all.

[[gnu::noinline]] inline Value pass_through(const Value& token) {
  return token;
}

[[gnu::noinline]] inline void sink_call(Tally& tally, const Value& token) {
  tally.sum += token.as_int();
  ++tally.count;
}

// ---------------------------------------------------------------------------------------------
// Command line: the program's own flags, then Google Benchmark's with our defaults (5
// repetitions, aggregates only, random interleaving: the machines this runs on are noisy) placed
// before the user's flags so that theirs win.

class Arguments {
 public:
  // `own(arg)` returns 1 when it took the flag, 0 when it is not ours, -1 on a bad value (it
  // printed why). Returns false when the program should exit with status 2.
  bool parse(int argc, char** argv, const std::function<int(const char*)>& own) {
    for (std::string flag : {"--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true",
                             "--benchmark_enable_random_interleaving=true"})
      storage_.push_back(flag);
    std::vector<std::string> given;
    color_ = isatty(fileno(stdout)) != 0;
    for (int i = 1; i < argc; ++i) {
      int taken = own(argv[i]);
      if (taken < 0) return false;
      if (taken > 0) continue;
      if (std::strncmp(argv[i], "--benchmark_color=", 18) == 0) {
        std::string value = argv[i] + 18;
        color_ = value == "true" || value == "yes" || value == "1" ||
                 (value == "auto" && isatty(fileno(stdout)));
      }
      storage_.push_back(argv[i]);
    }
    args_.push_back(argv[0]);
    for (std::string& flag : storage_)
      args_.push_back(flag.data());
    count_ = static_cast<int>(args_.size());
    args_.push_back(nullptr);
    return true;
  }

  // Hands the remaining flags to the library; false when some were not recognised.
  bool initialize_benchmark() {
    benchmark::Initialize(&count_, args_.data());
    return !benchmark::ReportUnrecognizedArguments(count_, args_.data());
  }

  benchmark::ConsoleReporter::OutputOptions output_options() const {
    return color_ ? benchmark::ConsoleReporter::OO_ColorTabular
                  : benchmark::ConsoleReporter::OO_Tabular;
  }

 private:
  std::vector<std::string> storage_;
  std::vector<char*> args_;
  int count_ = 0;
  bool color_ = false;
};

// Parses `--name=N` (a positive integer) into `value`: 1 taken, 0 not this flag, -1 bad value.
inline int positive_flag(const char* arg, const char* program, const char* name,
                         std::int64_t& value) {
  std::string prefix = std::string("--") + name + "=";
  if (std::strncmp(arg, prefix.c_str(), prefix.size()) != 0) return 0;
  value = std::strtoll(arg + prefix.size(), nullptr, 10);
  if (value > 0) return 1;
  std::fprintf(stderr, "%s: --%s must be positive\n", program, name);
  return -1;
}

}  // namespace cwf_bench
