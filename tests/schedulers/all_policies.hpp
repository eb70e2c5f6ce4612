// The scheduling policies the `cwf` command knows, for tests that run workflows with them.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "runtime/execution/director_factory.hpp"
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

// A director by a short name: "threaded", or "POLICY/WORKERS" for the scheduled director.
inline std::unique_ptr<Director> director_named(const std::string& name) {
  DirectorConfig config;
  if (name == "threaded") {
    config.type = "threaded";
  } else {
    config.scheduler = name.substr(0, name.find('/'));
    config.workers = static_cast<unsigned>(std::stoul(name.substr(name.find('/') + 1)));
  }
  return make_director(config, all_policies());
}

// A test-name-safe form of such a name, for INSTANTIATE_TEST_SUITE_P.
inline std::string director_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name)
    if (c == '/') c = '_';
  return name;
}

}  // namespace cwf::schedulers::testing
