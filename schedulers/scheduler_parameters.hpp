// Reads a policy's parameters from the workflow's director section: unknown names and values of
// the wrong type or range are errors that name the policy, the parameter and what was expected.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/execution/scheduler.hpp"

namespace cwf::schedulers {

class ParameterReader {
 public:
  // Throws std::invalid_argument for a parameter not in `known`.
  ParameterReader(std::string policy, const SchedulerParameters& parameters,
                  std::vector<std::string> known);
  // A positive whole number; `what` says what it counts, for the error message.
  std::uint32_t positive_int(const std::string& name, std::uint32_t fallback,
                             const std::string& what) const;
  // The same, or the word `all`, which stands for `all`.
  std::uint32_t positive_int_or_all(const std::string& name, std::uint32_t fallback,
                                    std::uint32_t all, const std::string& what) const;
  // true or false.
  bool flag(const std::string& name, bool fallback, const std::string& what) const;

 private:
  std::string policy_;
  const SchedulerParameters& parameters_;
};

}  // namespace cwf::schedulers
