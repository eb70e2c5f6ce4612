#include "runtime/execution/scheduler.hpp"

#include <stdexcept>

namespace cwf {

void SchedulerRegistry::add(std::string name, std::string description, Factory factory) {
  entries_[std::move(name)] = Entry{std::move(description), std::move(factory)};
}

bool SchedulerRegistry::contains(std::string_view name) const {
  return entries_.find(name) != entries_.end();
}

std::unique_ptr<Scheduler> SchedulerRegistry::create(std::string_view name,
                                                     const SchedulerParameters& params) const {
  auto it = entries_.find(name);
  if (it == entries_.end()) {
    std::string known;
    for (const auto& [n, e] : entries_)
      known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown scheduler '" + std::string(name) + "' (known: " + known +
                                ")");
  }
  return it->second.factory(params);
}

std::vector<std::pair<std::string, std::string>> SchedulerRegistry::list() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [n, e] : entries_)
    out.emplace_back(n, e.description);
  return out;
}

}  // namespace cwf
