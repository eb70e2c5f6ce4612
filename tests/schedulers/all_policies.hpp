// The scheduling policies the `cwf` command knows, for tests that run workflows with them.
#pragma once

#include "runtime/execution/scheduler.hpp"
#include "schedulers/register.hpp"

namespace cwf::schedulers::testing {

inline SchedulerRegistry& all_policies() {
  static SchedulerRegistry registry = [] {
    SchedulerRegistry created;
    register_all(created);
    return created;
  }();
  return registry;
}

}  // namespace cwf::schedulers::testing
