// GSM over publish/subscribe in one process: B-steps per second and messages per B-step of the
// workflow units (BLM, CAM) against the centralized engine on the same event stream, for the
// synthetic models of 000 Table 5.5.1 (10-Stg-Seq, 1-in-9-Split) and Design-to-order:
//   MODEL/centralized : BStepEngine, the event's ePDG in graph order (the reference)
//   MODEL/blm, /cam   : WfuNetwork, every publication matched by the Broker core and delivered
//                       in one global FIFO order on one thread; steps are submitted 100 at a
//                       time and the network drained after each batch
//   MODEL/actors_cam  : the gsm_pubsub composite (one actor per unit, a bus) with 2 inner workers
//                       under an outer scheduled director, on the first 2,000 steps (and, for
//                       Design-to-order, an R:NewOrder first for each order they did not create)
// Counters: publications and deliveries per B-step. The stream: 1,000 instances, 20,000 steps;
// a random instance gets, 4 times in 5, the termination event of one of its open atomic stages,
// else a random event type. Each unit run is checked: every step completed, and each instance's
// last snapshot equals the centralized engine's (else SkipWithError).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <vector>

#include "actors/gsm/bstep_engine.hpp"
#include "actors/gsm/model_loader.hpp"
#include "actors/gsm/synthetic_models.hpp"
#include "actors/gsm/wfu_actors.hpp"
#include "actors/gsm/wfu_network.hpp"
#include "bench/gsm_stream.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "schedulers/fifo_scheduler.hpp"

namespace {

using namespace cwf;
using namespace cwf::gsm;

constexpr InstanceId kInstances = 1000;
constexpr std::size_t kSteps = 20000;
constexpr std::size_t kBatch = 100;

struct Workload {
  std::shared_ptr<const CompiledModel> model;
  std::vector<std::pair<InstanceId, int>> stream;
  std::vector<std::vector<bool>> final_snapshots;
};

Workload make_workload(std::shared_ptr<const CompiledModel> model) {
  Workload w{std::move(model), {}, {}};
  BStepEngine driver(w.model);
  w.stream = cwf_bench::drive_gsm_stream(driver, kInstances, kSteps, [](const auto&) {});
  for (InstanceId i = 0; i < kInstances; ++i)
    w.final_snapshots.push_back(driver.snapshot(i));
  return w;
}

const Workload& workload(const std::string& name) {
  static std::map<std::string, Workload> cache;
  auto found = cache.find(name);
  if (found != cache.end()) return found->second;
  std::shared_ptr<const CompiledModel> model;
  if (name == "10-Stg-Seq")
    model = CompiledModel::compile(load_model_text(sequence_model_yaml(10), "seq.yaml"));
  else if (name == "1-in-9-Split")
    model = CompiledModel::compile(load_model_text(split_model_yaml(9), "split.yaml"));
  else {
    // Run from the source tree or a build directory inside it.
    std::filesystem::path dir = std::filesystem::current_path();
    while (!std::filesystem::exists(dir / "workflows/gsm/design_to_order.yaml") &&
           dir.has_parent_path() && dir != dir.parent_path())
      dir = dir.parent_path();
    model = CompiledModel::load((dir / "workflows/gsm/design_to_order.yaml").string());
  }
  return cache.emplace(name, make_workload(model)).first->second;
}

void centralized(benchmark::State& state, const std::string& name) {
  const Workload& w = workload(name);
  std::vector<Generated> generated;
  for (auto _ : state) {
    BStepEngine engine(w.model);
    for (InstanceId i = 0; i < kInstances; ++i)
      engine.add_instance();
    for (const auto& [x, event] : w.stream) {
      generated.clear();
      engine.step(x, event, {}, generated);
    }
    benchmark::DoNotOptimize(engine.steps());
  }
  state.counters["B-steps/s"] = benchmark::Counter(static_cast<double>(state.iterations() * kSteps),
                                                   benchmark::Counter::kIsRate);
}

void units(benchmark::State& state, const std::string& name, WfuMapping mapping) {
  const Workload& w = workload(name);
  auto plan = WfuPlan::build(w.model, mapping);
  double publications = 0, deliveries = 0;
  for (auto _ : state) {
    WfuNetwork network(plan, 0);
    std::vector<std::vector<bool>> snapshots(kInstances,
                                             std::vector<bool>(w.model->model().status_count()));
    std::uint64_t completed = 0;
    auto absorb = [&] {
      auto completions = network.take_completions();
      std::sort(completions.begin(), completions.end(),
                [](const StepCompletion& a, const StepCompletion& b) { return a.time < b.time; });
      for (const StepCompletion& c : completions) {
        ++completed;
        for (const auto& [unit, value] : c.values) {
          const WfuUnitSpec& spec = plan->units()[static_cast<std::size_t>(unit)];
          if (spec.kind == WfuKind::gateway)
            snapshots[static_cast<std::size_t>(c.instance)]
                     [static_cast<std::size_t>(spec.attribute)] = value.as_bool();
        }
      }
    };
    for (std::size_t s = 0; s < w.stream.size(); ++s) {
      network.submit(w.stream[s].first, w.stream[s].second, {});
      if ((s + 1) % kBatch == 0) {
        network.run();
        absorb();  // a batch is drained: its completions are in time order per instance
      }
    }
    network.run();
    absorb();
    if (completed != kSteps || snapshots != w.final_snapshots) {
      state.SkipWithError("the units did not end in the centralized engine's snapshots");
      return;
    }
    publications = static_cast<double>(network.publications()) / kSteps;
    deliveries = static_cast<double>(network.deliveries()) / kSteps;
  }
  state.counters["B-steps/s"] = benchmark::Counter(static_cast<double>(state.iterations() * kSteps),
                                                   benchmark::Counter::kIsRate);
  state.counters["publications/step"] = publications;
  state.counters["deliveries/step"] = deliveries;
  state.counters["units"] = static_cast<double>(plan->units().size());
}

// An outer workflow: the events as records -> gsm_pubsub -> a counting sink.
class CountSteps final : public Actor {
 public:
  CountSteps() { add_input("in"); }
  void fire(FiringContext& context) override { count += context.window().size(); }
  std::uint64_t count = 0;
};

class EventRecords final : public Actor {
 public:
  EventRecords(const Model& model, const std::vector<std::pair<InstanceId, int>>& stream) {
    add_output("out");
    for (const auto& [x, event] : stream)
      records_.push_back(
          Value::record({{"instance", Value(static_cast<std::int64_t>(x))},
                         {"type", Value(model.events[static_cast<std::size_t>(event)].name)}}));
  }
  void fire(FiringContext& context) override {
    if (next_ < records_.size()) context.emit(records_[next_++]);
  }
  bool postfire(FiringContext&) override { return next_ < records_.size(); }

 private:
  std::vector<Value> records_;
  std::size_t next_ = 0;
};

// The first `steps` steps of `stream`, with a creating event (Design-to-order: R:NewOrder) put
// before the first step of an instance whose event may not create it: gsm_pubsub, like gsm,
// rejects an event for an instance no creating event made.
std::vector<std::pair<InstanceId, int>> creating_first(
    const Model& model, const std::vector<std::pair<InstanceId, int>>& stream, std::size_t steps) {
  int creating = 0;
  while (!model.may_create(creating))
    ++creating;
  std::vector<std::pair<InstanceId, int>> out;
  std::vector<bool> made;
  for (std::size_t s = 0; s < steps; ++s) {
    const auto [x, event] = stream[s];
    if (made.size() <= x) made.resize(x + 1, false);
    if (!made[x] && !model.may_create(event)) out.emplace_back(x, creating);
    made[x] = true;
    out.emplace_back(x, event);
  }
  return out;
}

void actors_cam(benchmark::State& state, const std::string& name) {
  const Workload& w = workload(name);
  auto plan = WfuPlan::build(w.model, WfuMapping::cam);
  const std::vector<std::pair<InstanceId, int>> stream =
      creating_first(w.model->model(), w.stream, 2000);
  const std::size_t steps = stream.size();
  for (auto _ : state) {
    Workflow workflow("bench");
    workflow.add("events", std::make_unique<EventRecords>(w.model->model(), stream));
    workflow.add("units", make_gsm_pubsub(plan, 2));
    auto* count = new CountSteps();
    workflow.add("steps", std::unique_ptr<Actor>(count));
    workflow.connect("events", "units");
    workflow.connect("units", "steps");
    VirtualClock clock;
    ScheduledDirector director(std::make_unique<schedulers::FifoScheduler>());
    run_workflow(workflow, director, clock);
    if (count->count != steps) {
      state.SkipWithError("gsm_pubsub did not complete every step");
      return;
    }
  }
  state.counters["B-steps/s"] = benchmark::Counter(static_cast<double>(state.iterations() * steps),
                                                   benchmark::Counter::kIsRate);
  state.counters["steps"] = static_cast<double>(steps);
}

void register_all() {
  for (const std::string name : {"10-Stg-Seq", "1-in-9-Split", "DesignToOrder"}) {
    benchmark::RegisterBenchmark((name + "/centralized").c_str(), centralized, name)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((name + "/blm").c_str(), units, name, WfuMapping::blm)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((name + "/cam").c_str(), units, name, WfuMapping::cam)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((name + "/actors_cam").c_str(), actors_cam, name)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
