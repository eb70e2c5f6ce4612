#include "schedulers/register.hpp"

#include "schedulers/fifo_scheduler.hpp"
#include "schedulers/qbs_scheduler.hpp"
#include "schedulers/rate_based_scheduler.hpp"
#include "schedulers/round_robin_scheduler.hpp"
#include "schedulers/scheduler_parameters.hpp"

namespace cwf::schedulers {

namespace {
constexpr const char* kBatch = "windows an actor may fire on per turn";
constexpr const char* kSourceBatch = "source firings per turn";
constexpr const char* kSourceInterval = "internal firings between source turns";

// The turn sizes every policy built on AbstractScheduler takes.
template <typename Options>
void read_turns(const ParameterReader& read, Options& options) {
  options.batch = read.positive_int("batch", options.batch, kBatch);
  options.source_batch = read.positive_int("source_batch", options.source_batch, kSourceBatch);
}

// QBS and round-robin also pace their sources (SourceTurns).
template <typename Options>
void read_source_turns(const ParameterReader& read, Options& options) {
  read_turns(read, options);
  options.source_interval =
      read.positive_int("source_interval", options.source_interval, kSourceInterval);
}
}  // namespace

void register_all(SchedulerRegistry& registry) {
  registry.add("fifo", "actors fire in the order they got work, each on all its windows",
               [](const SchedulerParameters& params) {
                 ParameterReader read("fifo", params, {"batch", "affinity"});
                 return std::make_unique<FifoScheduler>(
                     read.positive_int_or_all("batch", FifoScheduler::kAllWindows,
                                              FifoScheduler::kAllWindows, kBatch),
                     read.flag("affinity", true, "whether workers prefer their own replicas"));
               });
  registry.add(
      "qbs", "quantum priority-based: priorities from the workflow, quanta of (40-p)·b µs",
      [](const SchedulerParameters& params) {
        ParameterReader read("qbs", params,
                             {"basic_quantum_us", "source_interval", "batch", "source_batch"});
        QbsOptions options;
        options.basic_quantum =
            read.positive_int("basic_quantum_us",
                              static_cast<std::uint32_t>(options.basic_quantum / kMicrosecond),
                              "the basic quantum b in µs") *
            kMicrosecond;
        read_source_turns(read, options);
        return std::make_unique<QbsScheduler>(options);
      });
  registry.add("rr", "round-robin: equal time slices per period, no priorities",
               [](const SchedulerParameters& params) {
                 ParameterReader read("rr", params,
                                      {"slice_us", "source_interval", "batch", "source_batch"});
                 RoundRobinOptions options;
                 options.slice =
                     read.positive_int("slice_us",
                                       static_cast<std::uint32_t>(options.slice / kMicrosecond),
                                       "the time slice in µs") *
                     kMicrosecond;
                 read_source_turns(read, options);
                 return std::make_unique<RoundRobinScheduler>(options);
               });
  registry.add("rb", "rate-based: highest global selectivity / global cost first, in periods",
               [](const SchedulerParameters& params) {
                 ParameterReader read("rb", params, {"batch", "source_batch"});
                 RateBasedOptions options;
                 read_turns(read, options);
                 return std::make_unique<RateBasedScheduler>(options);
               });
}

}  // namespace cwf::schedulers
