#include "runtime/execution/case_cancellations.hpp"

#include <stdexcept>

#include "runtime/execution/actor_cell.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

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

void CaseCancellations::snapshot(SnapshotWriter& out) const {
  std::lock_guard lock(mutex_);
  out.write_u64(entries_.size());
  for (const auto& entry : entries_) {
    out.write_u64(entry->scope);
    const CaseId& what = entry->what;
    out.write_bool(what.wave.has_value());
    if (what.wave) {
      out.write_timestamp(what.wave->time);
      out.write_u64(what.wave->sequence);
      continue;
    }
    out.write_value(what.key);
    out.write_bool(what.match != nullptr);
    if (what.match) out.write_string(what.match->source());
  }
}

void CaseCancellations::restore(SnapshotReader& in) {
  std::vector<std::unique_ptr<Entry>> entries;
  const std::size_t n = in.read_count("the cancellations");
  for (std::size_t i = 0; i < n; ++i) {
    auto entry = std::make_unique<Entry>();
    std::uint64_t scope = in.read_u64("a cancellation's scope");
    if (scope >= scopes_.size())
      in.reject("a cancellation's scope",
                "the workflow declares " + std::to_string(scopes_.size()) + " scopes");
    entry->scope = static_cast<std::size_t>(scope);
    if (in.read_bool("whether a case is a wave")) {
      WaveRoot root;
      root.time = in.read_timestamp("a cancelled wave's root time");
      root.sequence = in.read_u64("a cancelled wave's root sequence");
      entry->what.wave = root;
    } else {
      entry->what.key = in.read_value("a cancelled key");
      if (in.read_bool("whether a key case has an expression")) {
        std::string source = in.read_string("a key case's expression");
        try {
          entry->what.match = std::make_shared<const Expression>(Expression::compile(source));
        } catch (const std::exception& e) {
          in.reject("a key case's expression", e.what());
        }
      }
    }
    entries.push_back(std::move(entry));
  }
  std::lock_guard lock(mutex_);
  if (!entries_.empty())
    throw std::logic_error("cancellations restored into a run that has made some");
  entries_ = std::move(entries);
  count_.store(entries_.size(), std::memory_order_release);
}

}  // namespace cwf
