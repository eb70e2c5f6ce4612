#include "schedulers/scheduler_parameters.hpp"

#include <limits>
#include <stdexcept>

namespace cwf::schedulers {

namespace {
std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names)
    out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "none" : out;
}
}  // namespace

ParameterReader::ParameterReader(std::string policy, const SchedulerParameters& parameters,
                                 std::vector<std::string> known)
    : policy_(std::move(policy)), parameters_(parameters) {
  for (const auto& [name, value] : parameters) {
    bool found = false;
    for (const auto& k : known)
      found = found || k == name;
    if (!found)
      throw SchedulerParameterError(name, "the " + policy_ + " scheduler has no parameter '" +
                                              name + "' (known: " + join(known) + ")");
  }
}

std::uint32_t ParameterReader::positive_int(const std::string& name, std::uint32_t fallback,
                                            const std::string& what) const {
  auto it = parameters_.find(name);
  if (it == parameters_.end()) return fallback;
  const Value& value = it->second;
  if (!value.is_int() || value.as_int() < 1 ||
      value.as_int() > std::numeric_limits<std::uint32_t>::max())
    throw SchedulerParameterError(name, policy_ + " scheduler: '" + name +
                                            "' must be a positive int (" + what + "), got " +
                                            value.to_json());
  return static_cast<std::uint32_t>(value.as_int());
}

std::uint32_t ParameterReader::positive_int_or_all(const std::string& name, std::uint32_t fallback,
                                                   std::uint32_t all,
                                                   const std::string& what) const {
  auto it = parameters_.find(name);
  if (it != parameters_.end() && it->second.is_string()) {
    if (it->second.as_string() == "all") return all;
    throw SchedulerParameterError(name, policy_ + " scheduler: '" + name +
                                            "' must be a positive int or all (" + what + "), got " +
                                            it->second.to_json());
  }
  return positive_int(name, fallback, what);
}

bool ParameterReader::flag(const std::string& name, bool fallback, const std::string& what) const {
  auto it = parameters_.find(name);
  if (it == parameters_.end()) return fallback;
  if (!it->second.is_bool())
    throw SchedulerParameterError(name, policy_ + " scheduler: '" + name +
                                            "' must be true or false (" + what + "), got " +
                                            it->second.to_json());
  return it->second.as_bool();
}

}  // namespace cwf::schedulers
