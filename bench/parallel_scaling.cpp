// What a second worker brings: the same workflows on one worker and on two, in the same run, beside
// the ceiling the machine allows at that moment (two independent threads doing the same work as
// one, side by side). Stages do a fixed amount of arithmetic per event (`--work`, about 2 µs by
// default), so that the figure is about using cores, not about the per-hop cost.
//
//   branches  source -+-> a0 -> a1 -> a2 -+-> sink      (every event down both branches)
//                     +-> b0 -> b1 -> b2 -+
//   replicas  source -(partition_by key)-+-> work[0] -+-> sink   (each event to one replica,
//                                        +-> work[1] -+            as `parallelism: 2` loads:
//                                                                  the source's emit picks it;
//                                                                  six stages' work per event)
//
// Each configuration runs `--rounds` times (default 5), interleaved; the medians are printed with
// the speed-up (one worker's time over two workers') and the speed-up over the ceiling. A run that
// loses or duplicates an event fails the program. Multi-worker figures depend on the machine:
// print `lscpu` beside them.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "runtime/execution/threaded_director.hpp"
#include "runtime/graph/route_rule.hpp"
#include "schedulers/fifo_scheduler.hpp"

namespace {

using namespace cwf;
using Clock = std::chrono::steady_clock;

std::int64_t g_events = 40000;
std::int64_t g_work = 600;  // iterations of the arithmetic per event and stage
int g_rounds = 5;

// The work a stage does per event: a dependent chain of multiply-xorshift steps that the compiler
// cannot fold.
[[gnu::noinline]] std::uint64_t spin(std::uint64_t x, std::int64_t iterations) {
  for (std::int64_t i = 0; i < iterations; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x *= 0x9E3779B97F4A7C15ULL;
  }
  return x;
}

class Numbers final : public Actor {
 public:
  explicit Numbers(std::int64_t count) : count_(count) { add_output("out"); }
  void fire(FiringContext& context) override { context.emit(Value(next_++)); }
  bool postfire(FiringContext&) override { return next_ < count_; }

 private:
  std::int64_t count_;
  std::int64_t next_ = 0;
};

// `stages` stages' work per event.
class Work final : public Actor {
 public:
  explicit Work(int stages = 1) : stages_(stages) {
    add_input("in");
    add_output("out");
  }
  void fire(FiringContext& context) override {
    for (const Event& event : context.window()) {
      sink_ += spin(static_cast<std::uint64_t>(event.token.as_int()) + 1, g_work * stages_);
      context.emit(event.token);
    }
  }
  std::uint64_t sink_ = 0;

 private:
  int stages_;
};

class Count final : public Actor {
 public:
  explicit Count(std::atomic<std::int64_t>& sum) : sum_(sum) { add_input("in"); }
  void fire(FiringContext& context) override {
    for (const Event& event : context.window())
      sum_ += event.token.as_int() + 1;
  }

 private:
  std::atomic<std::int64_t>& sum_;
};

// Seconds for one run of `build`'s workflow under `director`; exits when the sink's sum is not
// `copies` times that of every event once.
double run_once(const std::function<void(Workflow&, std::atomic<std::int64_t>&)>& build,
                Director& director, int copies) {
  std::atomic<std::int64_t> sum{0};
  Workflow workflow("scaling");
  build(workflow, sum);
  RealClock clock;
  auto start = Clock::now();
  run_workflow(workflow, director, clock);
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const std::int64_t expected = copies * (g_events * (g_events + 1) / 2);
  if (sum.load() != expected) {
    std::fprintf(stderr, "parallel_scaling: the sink got %lld, expected %lld\n",
                 static_cast<long long>(sum.load()), static_cast<long long>(expected));
    std::exit(1);
  }
  return seconds;
}

void build_branches(Workflow& workflow, std::atomic<std::int64_t>& sum) {
  workflow.emplace<Numbers>("source", g_events);
  workflow.emplace<Count>("sink", sum);
  for (char branch : {'a', 'b'}) {
    std::string upstream = "source";
    for (int stage = 0; stage < 3; ++stage) {
      std::string name = std::string(1, branch) + std::to_string(stage);
      workflow.emplace<Work>(name);
      workflow.connect(upstream, name);
      upstream = name;
    }
    workflow.connect(upstream, "sink");
  }
}

void build_replicas(Workflow& workflow, std::atomic<std::int64_t>& sum) {
  const ActorId source = workflow.emplace<Numbers>("source", g_events);
  workflow.emplace<Count>("sink", sum);
  auto rule = std::make_shared<const RouteRule>(Expression::compile("/"), 2);
  for (int replica = 0; replica < 2; ++replica) {
    std::string name = "work[" + std::to_string(replica) + "]";
    // The work of both branches of `branches` per event.
    const ActorId work = workflow.emplace<Work>(name, 6);
    workflow.connect(
        Connection{{source, 0}, {work, 0}, {}, std::nullopt, std::nullopt, rule, replica});
    workflow.connect(name, "sink");
  }
}

// Seconds for `threads` threads each doing the same fixed work side by side (long enough, a few
// hundred milliseconds, that starting the threads does not count): the ceiling is one thread's
// time over two threads' (2: no loss).
double spin_threads(int threads) {
  std::vector<std::thread> running;
  std::atomic<std::uint64_t> sink{0};
  const std::int64_t calls = std::max<std::int64_t>(g_events * 3, 100'000'000 / g_work);
  auto start = Clock::now();
  for (int t = 0; t < threads; ++t)
    running.emplace_back([&sink, t, calls] {
      std::uint64_t x = 0;
      for (std::int64_t i = 0; i < calls; ++i)
        x += spin(static_cast<std::uint64_t>(i + t) + 1, g_work);
      sink += x;
    });
  for (auto& thread : running)
    thread.join();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

bool flag(const char* arg, const char* name, std::int64_t& value) {
  std::size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0 || arg[n] != '=') return false;
  value = std::atoll(arg + n + 1);
  return value > 0;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::int64_t rounds = 0;
    if (flag(argv[i], "--events", g_events) || flag(argv[i], "--work", g_work)) continue;
    if (flag(argv[i], "--rounds", rounds)) {
      g_rounds = static_cast<int>(rounds);
      continue;
    }
    std::fprintf(stderr, "usage: parallel_scaling [--events=N] [--work=N] [--rounds=N]\n");
    return 2;
  }
  struct Config {
    const char* workflow;
    const char* director;
    std::function<void(Workflow&, std::atomic<std::int64_t>&)> build;
    int copies;
    std::function<std::unique_ptr<Director>()> make;
    std::vector<double> seconds;
  };
  auto scheduled = [](unsigned workers) {
    return [workers] {
      return std::make_unique<ScheduledDirector>(std::make_unique<schedulers::FifoScheduler>(),
                                                 workers);
    };
  };
  auto threaded = [] { return std::make_unique<ThreadedDirector>(); };
  std::vector<Config> configs = {
      {"branches", "fifo, 1 worker", build_branches, 2, scheduled(1), {}},
      {"branches", "fifo, 2 workers", build_branches, 2, scheduled(2), {}},
      {"branches", "threaded", build_branches, 2, threaded, {}},
      {"replicas", "fifo, 1 worker", build_replicas, 1, scheduled(1), {}},
      {"replicas", "fifo, 2 workers", build_replicas, 1, scheduled(2), {}},
      {"replicas", "threaded", build_replicas, 1, threaded, {}},
  };
  std::vector<double> one_thread, two_threads;
  for (int round = 0; round < g_rounds; ++round) {
    one_thread.push_back(spin_threads(1));
    two_threads.push_back(spin_threads(2));
    for (Config& config : configs) {
      auto director = config.make();
      config.seconds.push_back(run_once(config.build, *director, config.copies));
    }
  }
  const double ceiling = median(one_thread) / median(two_threads) * 2;
  std::printf("%lld events, %lld iterations of work per event and stage, %d rounds (medians)\n",
              static_cast<long long>(g_events), static_cast<long long>(g_work), g_rounds);
  std::printf("ceiling: two threads side by side do %.2fx the work of one (%.3f s, %.3f s)\n\n",
              ceiling, median(one_thread), median(two_threads));
  std::printf("%-9s %-16s %9s %9s %10s\n", "workflow", "director", "seconds", "speed-up",
              "/ ceiling");
  for (const Config& config : configs) {
    const Config& one = *std::find_if(configs.begin(), configs.end(), [&](const Config& c) {
      return std::strcmp(c.workflow, config.workflow) == 0 &&
             std::strcmp(c.director, "fifo, 1 worker") == 0;
    });
    const double speedup = median(one.seconds) / median(config.seconds);
    if (&one == &config)
      std::printf("%-9s %-16s %9.3f %9s %10s\n", config.workflow, config.director,
                  median(config.seconds), "1", "");
    else
      std::printf("%-9s %-16s %9.3f %9.2f %10.2f\n", config.workflow, config.director,
                  median(config.seconds), speedup, speedup / ceiling);
  }
  return 0;
}
