// End-to-end events per second through NATS on the loopback: a generator's records published by
// nats_publish to a nats-server child process, received by nats_subscribe in a second engine and
// counted there; the time runs from the producer's start until the consumer has every record.
// The baseline, measured in the same iteration, is the same pipeline in one engine without NATS
// (generator -> counting sink), so the ratio is what the trip through the broker costs
// (JSON encoding and decoding, two sockets, the server, the subscriber's polling).
//
// Needs nats-server (/usr/sbin/nats-server); skipped with a message otherwise.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "actors/generator.hpp"
#include "actors/pubsub/nats_publish.hpp"
#include "actors/pubsub/nats_server_process.hpp"
#include "actors/pubsub/nats_subscribe.hpp"
#include "bench/count_sink.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduled_director.hpp"
#include "schedulers/fifo_scheduler.hpp"

namespace {

using namespace cwf;
using Clock = std::chrono::steady_clock;

constexpr std::int64_t kEvents = 200000;
const char* const kRecord = "{id: i, region: i % 3 == 0 ? 'eu' : 'us', amount: i % 1000}";

using cwf_bench::CountSink;

std::unique_ptr<Actor> make(const ActorType& type, std::map<std::string, Value> values) {
  return type.factory(Params(std::move(values), {}, ""));
}

RunSummary run(Workflow& workflow) {
  RealClock clock;
  ScheduledDirector director(std::make_unique<schedulers::FifoScheduler>(), 1);
  return run_workflow(workflow, director, clock);
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// generator -> count, in one engine.
double in_process_seconds() {
  Workflow workflow("in-process");
  workflow.add("gen", make(actors::generator_type(),
                           {{"count", Value(kEvents)}, {"value", Value(kRecord)}}));
  auto sink = std::make_unique<CountSink>();
  CountSink& counted = *sink;
  workflow.add("count", std::move(sink));
  workflow.connect("gen", "count");
  auto start = Clock::now();
  run(workflow);
  double s = seconds_since(start);
  if (counted.count != static_cast<std::size_t>(kEvents)) throw std::runtime_error("lost events");
  return s;
}

// generator -> nats_publish ~ server ~ nats_subscribe -> count, in two engines.
double nats_seconds(const pubsub::NatsServerProcess& server) {
  Workflow consumer("consumer");
  auto sub = make(
      pubsub::nats_subscribe_type(),
      {{"subject", Value("bench.>")}, {"count", Value(kEvents)}, {"servers", Value(server.url())}});
  auto& subscriber = static_cast<pubsub::NatsSubscribe&>(*sub);
  consumer.add("sub", std::move(sub));
  auto sink = std::make_unique<CountSink>();
  CountSink& counted = *sink;
  consumer.add("count", std::move(sink));
  consumer.connect("sub", "count");
  std::thread consumer_thread([&] { run(consumer); });
  while (!subscriber.subscribed())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));

  Workflow producer("producer");
  producer.add("gen", make(actors::generator_type(),
                           {{"count", Value(kEvents)}, {"value", Value(kRecord)}}));
  producer.add("pub", make(pubsub::nats_publish_type(), {{"subject", Value("bench.{/region}")},
                                                         {"servers", Value(server.url())}}));
  producer.connect("gen", "pub");
  auto start = Clock::now();
  run(producer);
  consumer_thread.join();
  double s = seconds_since(start);
  if (counted.count != static_cast<std::size_t>(kEvents)) throw std::runtime_error("lost events");
  return s;
}

void NatsLoopbackVersusInProcess(benchmark::State& state) {
  if (pubsub::NatsServerProcess::find_binary().empty()) {
    state.SkipWithError("nats-server is not installed");
    return;
  }
  pubsub::NatsServerProcess server;
  double nats_total = 0, local_total = 0;
  for (auto _ : state) {
    double local = in_process_seconds();
    double nats = nats_seconds(server);
    state.SetIterationTime(nats);
    nats_total += nats;
    local_total += local;
  }
  double n = static_cast<double>(kEvents) * static_cast<double>(state.iterations());
  state.counters["nats_events_per_s"] = n / nats_total;
  state.counters["in_process_events_per_s"] = n / local_total;
  state.counters["nats_over_in_process"] = local_total / nats_total;
  state.SetItemsProcessed(static_cast<std::int64_t>(n));
}
BENCHMARK(NatsLoopbackVersusInProcess)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
