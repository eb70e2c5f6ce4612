#include "schedulers/register.hpp"

#include <algorithm>
#include <stdexcept>

#include "schedulers/fifo_scheduler.hpp"

namespace cwf::schedulers {

void register_all(SchedulerRegistry& registry) {
  registry.add("fifo", "actors fire in the order they got work, each on all its windows",
               [](const SchedulerParameters& params) {
                 std::uint32_t batch = FifoScheduler::kAllWindows;
                 for (const auto& [name, value] : params) {
                   if (name != "batch")
                     throw std::invalid_argument("the fifo scheduler has no parameter '" + name +
                                                 "' (known: batch)");
                   if (!value.is_int() || value.as_int() < 1)
                     throw std::invalid_argument(
                         "fifo scheduler: 'batch' must be a positive int (windows per turn), got " +
                         value.to_json());
                   batch = static_cast<std::uint32_t>(
                       std::min<std::int64_t>(value.as_int(), FifoScheduler::kAllWindows));
                 }
                 return std::make_unique<FifoScheduler>(batch);
               });
}

}  // namespace cwf::schedulers
