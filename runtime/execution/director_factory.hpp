// Builds the director a DirectorConfig asks for.
#pragma once

#include <memory>

#include "runtime/execution/director.hpp"
#include "runtime/execution/scheduler.hpp"
#include "runtime/graph/workflow.hpp"

namespace cwf {

// Throws std::invalid_argument for an unknown director type or scheduler.
std::unique_ptr<Director> make_director(const DirectorConfig& config,
                                        const SchedulerRegistry& schedulers);

}  // namespace cwf
