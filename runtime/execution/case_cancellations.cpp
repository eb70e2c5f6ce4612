#include "runtime/execution/case_cancellations.hpp"

#include <stdexcept>

#include "runtime/execution/actor_cell.hpp"

namespace cwf {

std::size_t CaseCancellations::declare_scope(const std::vector<std::string>& reaches,
                                             const std::vector<std::string>& retracts,
                                             std::size_t remember) {
  CancellationScope scope{std::vector<bool>(cells_.size()), std::vector<bool>(cells_.size())};
  auto find = [this](const std::string& name) -> std::size_t {
    for (std::size_t id = 0; id < cells_.size(); ++id)
      if (cells_[id]->name() == name) return id;
    throw std::invalid_argument("no actor named '" + name + "' to cancel cases in");
  };
  for (const std::string& name : reaches)
    scope.reaches[find(name)] = true;
  for (const std::string& name : retracts) {
    std::size_t id = find(name);
    scope.reaches[id] = scope.retracts[id] = true;
    cells_[id]->remember_outputs(remember);
  }
  std::lock_guard lock(mutex_);
  scopes_.push_back(std::move(scope));
  return scopes_.size() - 1;
}

void CaseCancellations::cancel(CaseId what, std::size_t scope) {
  {
    std::lock_guard lock(mutex_);
    entries_.push_back(std::make_unique<Entry>(Entry{std::move(what), scope}));
    count_.store(entries_.size(), std::memory_order_release);
  }
  // Each actor reached applies it at its next run, even with no new input.
  const CancellationScope& reached = scopes_[scope];
  for (std::size_t id = 0; id < cells_.size(); ++id)
    if (reached.reaches[id]) cells_[id]->wake();
}

const CaseCancellations::Entry& CaseCancellations::entry(std::size_t i) const {
  std::lock_guard lock(mutex_);
  return *entries_[i];
}

}  // namespace cwf
