#include "schedulers/register.hpp"

#include "schedulers/fifo_scheduler.hpp"

namespace cwf::schedulers {

void register_all(SchedulerRegistry& registry) {
  registry.add("fifo", "actors fire in the order they got work, each on all its windows",
               [](const SchedulerParameters& params) {
                 std::uint32_t batch = FifoScheduler::kAllWindows;
                 if (auto it = params.find("batch"); it != params.end())
                   batch = static_cast<std::uint32_t>(it->second.as_int());
                 return std::make_unique<FifoScheduler>(batch);
               });
}

}  // namespace cwf::schedulers
