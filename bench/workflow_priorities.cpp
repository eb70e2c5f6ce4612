// The second scheduling level under load (cwf serve's shared workers, by priority): the response
// time of an important workflow while others flood the machine, in the same run, four ways:
//
//   alone          the important workflow by itself on the shared workers
//   own threads    with the floods, every workflow under its own director with its own workers
//                  (no shared workers: the operating system shares the cores among all threads)
//   shared, equal  with the floods, on W shared workers, every priority equal
//   shared, ranked with the floods, on the shared workers, the important workflow first
//
// The important workflow: a source releasing an event every millisecond (stamped with the time
// of its release) -> an actor spinning `--cost-us` per event -> a sink taking the response time
// (its clock minus the event's time). Each flood: a source emitting as fast as it may -> two
// actors spinning 50 µs per event -> a counting sink. Every director is QBS on two workers, as
// `cwf run`'s default. Prints a markdown table (response-time percentiles of the important
// workflow, events/s of the floods) and exits 1 if a run lost events or the important workflow
// answered nothing.
//
// usage: workflow_priorities [--seconds S] [--floods F] [--workers W]... [--cost-us C]
// (--workers may be given several times; default: the hardware threads less one, and all).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/actor/actor.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/execution/shared_workers.hpp"
#include "runtime/graph/workflow.hpp"
#include "schedulers/qbs_scheduler.hpp"

namespace {

using namespace cwf;

void spin(Duration duration) {
  auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(duration);
  while (std::chrono::steady_clock::now() < until) {
  }
}

// An event every `every`, stamped with the time it is due (a source held up releases late, and
// the response time counts the delay), until the run stops it.
class PacedSource : public Actor {
 public:
  explicit PacedSource(Duration every) : every_(every) { add_output("out"); }
  void fire(FiringContext& c) override {
    if (due_ == 0) due_ = c.clock().now();
    c.set_output_time(due_);
    c.emit(Value(sent_++));
    due_ += every_;
    c.fire_again_at(due_);
  }

 private:
  Duration every_;
  Timestamp due_ = 0;
  std::int64_t sent_ = 0;
};

// As many events as it is let, until the run stops it.
class FloodSource : public Actor {
 public:
  FloodSource() { add_output("out"); }
  void fire(FiringContext& c) override { c.emit(Value(sent_++)); }

 private:
  std::int64_t sent_ = 0;
};

class Work : public Actor {
 public:
  explicit Work(Duration cost) : cost_(cost) {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& c) override {
    spin(cost_);
    c.emit(c.token());
  }

 private:
  Duration cost_;
};

// Response times (ns) of the events it takes, from the event's time to now.
class ResponseSink : public Actor {
 public:
  ResponseSink() { add_input("in"); }
  void fire(FiringContext& c) override {
    Timestamp now = c.clock().now();
    for (const Event& e : c.window())
      times.push_back(now - e.time);
  }
  std::vector<Duration> times;
};

class CountSink : public Actor {
 public:
  CountSink() { add_input("in"); }
  void fire(FiringContext& c) override { count += c.window().size(); }
  std::uint64_t count = 0;
};

struct Settings {
  double seconds = 4;
  int floods = 3;
  unsigned workers = 2;
  Duration cost = 600 * kMicrosecond;  // more than its fair share of the cores among the floods
};

enum class Mode { alone, own_threads, shared_equal, shared_ranked };

struct Outcome {
  std::vector<Duration> response;
  std::uint64_t answered = 0, released = 0;
  double flood_rate = 0;  // events through all the floods per second
  std::uint64_t problems = 0;
  double important_waited_s = 0, floods_waited_s = 0;
};

std::unique_ptr<Director> qbs() {
  return std::make_unique<ScheduledDirector>(std::make_unique<schedulers::QbsScheduler>(), 2);
}

Outcome measure(const Settings& settings, Mode mode) {
  SharedWorkers workers(settings.workers);
  const bool shared = mode != Mode::own_threads;
  const int floods = mode == Mode::alone ? 0 : settings.floods;
  std::atomic<bool> stop{false};
  const Duration run_for = static_cast<Duration>(settings.seconds * 1e9);

  Workflow important("important");
  important.emplace<PacedSource>("orders", kMillisecond);
  important.emplace<Work>("price", settings.cost);
  auto response = std::make_unique<ResponseSink>();
  ResponseSink& answers = *response;
  important.add("answer", std::move(response));
  important.connect("orders", "price");
  important.connect("price", "answer");

  std::vector<std::unique_ptr<Workflow>> flood_workflows;
  std::vector<CountSink*> counts;
  for (int f = 0; f < floods; ++f) {
    auto w = std::make_unique<Workflow>("flood" + std::to_string(f));
    w->emplace<FloodSource>("src");
    w->emplace<Work>("a", 50 * kMicrosecond);
    w->emplace<Work>("b", 50 * kMicrosecond);
    auto sink = std::make_unique<CountSink>();
    counts.push_back(sink.get());
    w->add("sink", std::move(sink));
    w->connect("src", "a");
    w->connect("a", "b");
    w->connect("b", "sink");
    flood_workflows.push_back(std::move(w));
  }

  std::vector<std::unique_ptr<WorkerShare>> shares;
  auto share = [&](int priority) -> WorkerShare* {
    if (!shared) return nullptr;
    shares.push_back(std::make_unique<WorkerShare>());
    shares.back()->workers = &workers;
    shares.back()->priority = priority;
    return shares.back().get();
  };
  WorkerShare* important_share = share(mode == Mode::shared_ranked ? 10 : 0);
  std::vector<WorkerShare*> flood_shares;
  for (int f = 0; f < floods; ++f)
    flood_shares.push_back(share(0));

  Outcome outcome;
  std::mutex mutex;
  auto run = [&](Workflow& workflow, WorkerShare* worker_share) {
    RealClock clock;
    auto director = qbs();
    RunOptions options;
    options.stop_requested = &stop;
    options.worker_share = worker_share;
    // The floods' queues are bounded (the default capacities): what is queued when the stop
    // comes drains in well under this.
    options.finish_grace = 30 * kSecond;
    if (worker_share) workers.join(*worker_share);
    RunSummary summary = run_workflow(workflow, *director, clock, options);
    if (worker_share) workers.leave(*worker_share);
    std::lock_guard lock(mutex);
    outcome.problems += summary.incomplete();
    if (&workflow == &important) outcome.released = summary.actors[0].events_out;
  };
  std::vector<std::thread> threads;
  threads.emplace_back([&] { run(important, important_share); });
  for (int f = 0; f < floods; ++f)
    threads.emplace_back([&, f] { run(*flood_workflows[f], flood_shares[f]); });
  std::this_thread::sleep_for(std::chrono::nanoseconds(run_for));
  stop = true;
  for (auto& t : threads)
    t.join();

  outcome.response = answers.times;
  outcome.answered = answers.times.size();
  std::uint64_t flooded = 0;
  for (CountSink* c : counts)
    flooded += c->count;
  outcome.flood_rate = static_cast<double>(flooded) / settings.seconds;
  if (important_share)
    outcome.important_waited_s = static_cast<double>(important_share->waited_ns.load()) / 1e9;
  for (WorkerShare* s : flood_shares)
    if (s) outcome.floods_waited_s += static_cast<double>(s->waited_ns.load()) / 1e9;
  return outcome;
}

double percentile_ms(std::vector<Duration> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  std::size_t at = std::min(values.size() - 1, static_cast<std::size_t>(p * values.size()));
  return static_cast<double>(values[at]) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  Settings settings;
  std::vector<unsigned> worker_counts;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string option = argv[i];
    if (option == "--seconds")
      settings.seconds = std::atof(argv[i + 1]);
    else if (option == "--floods")
      settings.floods = std::atoi(argv[i + 1]);
    else if (option == "--workers")
      worker_counts.push_back(static_cast<unsigned>(std::max(1, std::atoi(argv[i + 1]))));
    else if (option == "--cost-us")
      settings.cost = std::atoll(argv[i + 1]) * kMicrosecond;
    else {
      std::fprintf(stderr,
                   "usage: workflow_priorities [--seconds S] [--floods F] [--workers W]... "
                   "[--cost-us C]\n");
      return 2;
    }
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (worker_counts.empty()) {
    if (cores > 1) worker_counts.push_back(cores - 1);
    worker_counts.push_back(cores);
  }
  std::printf(
      "important workflow: 1 event/ms, %lld us of work each; %d floods (2 x 50 us per event); "
      "%.0f s per configuration; QBS on 2 workers per director; %u hardware threads\n\n",
      static_cast<long long>(settings.cost / kMicrosecond), settings.floods, settings.seconds,
      cores);
  std::printf(
      "| configuration | answered / released | response p50 ms | p99 ms | max ms | floods "
      "events/s | important waited s | floods waited s |\n|---|---|---|---|---|---|---|---|\n");
  struct Configuration {
    Mode mode;
    unsigned workers;
    std::string label;
  };
  std::vector<Configuration> configurations = {
      {Mode::alone, cores, "alone (" + std::to_string(cores) + " shared workers)"},
      {Mode::own_threads, 0, "own threads"}};
  for (unsigned w : worker_counts) {
    configurations.push_back({Mode::shared_equal, w, std::to_string(w) + " shared, equal"});
    configurations.push_back({Mode::shared_ranked, w, std::to_string(w) + " shared, ranked"});
  }
  bool ok = true;
  for (const Configuration& c : configurations) {
    settings.workers = std::max(1u, c.workers);
    Outcome o = measure(settings, c.mode);
    std::printf("| %s | %llu / %llu | %.2f | %.2f | %.2f | %.0f | %.2f | %.2f |\n", c.label.c_str(),
                static_cast<unsigned long long>(o.answered),
                static_cast<unsigned long long>(o.released), percentile_ms(o.response, 0.5),
                percentile_ms(o.response, 0.99), percentile_ms(o.response, 1.0), o.flood_rate,
                o.important_waited_s, o.floods_waited_s);
    std::fflush(stdout);
    if (o.problems > 0 || o.answered == 0 || o.answered != o.released) {
      std::fprintf(stderr, "%s: %llu events lost or unanswered\n", c.label.c_str(),
                   static_cast<unsigned long long>(o.problems + (o.released - o.answered)));
      ok = false;
    }
  }
  return ok ? 0 : 1;
}
