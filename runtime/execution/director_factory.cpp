#include "runtime/execution/director_factory.hpp"

#include <stdexcept>

#include "runtime/execution/scheduled_director.hpp"
#include "runtime/execution/threaded_director.hpp"

namespace cwf {

std::unique_ptr<Director> make_director(const DirectorConfig& config,
                                        const SchedulerRegistry& schedulers) {
  if (config.type == "threaded") return std::make_unique<ThreadedDirector>();
  if (config.type == "scheduled") {
    auto director = std::make_unique<ScheduledDirector>(
        schedulers.create(config.scheduler, config.parameters), config.workers);
    if (config.adapt_workers) director->adapt_workers();
    return director;
  }
  throw std::invalid_argument("unknown director type '" + config.type +
                              "' (known: scheduled, threaded)");
}

}  // namespace cwf
