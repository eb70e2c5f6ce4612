// The cancellations of one running workflow (CWP4; what a case is and what cancelling it does:
// runtime/actor/case_id.hpp): which actors each cancel actor reaches, and the cancellations made,
// which every actor in a scope applies between two firings.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/actor/case_id.hpp"

namespace cwf {

class ActorCell;
class SnapshotReader;
class SnapshotWriter;

// Which actors a cancel actor reaches: declared once, before the run.
struct CancellationScope {
  std::vector<bool> reaches;   // by actor id: queues, windows and Actor::retract
  std::vector<bool> retracts;  // by actor id: remembered outputs get retraction records
};

// The cancellations of one running workflow. Cancel actors add; every actor in a scope applies
// the ones it has not seen yet at its next run. Cancellations are kept for the whole run (one
// small record each), so that a case's events that arrive late are dropped too.
class CaseCancellations {
 public:
  struct Entry {
    CaseId what;
    std::size_t scope;
  };

  explicit CaseCancellations(std::vector<ActorCell*> cells) : cells_(std::move(cells)) {}

  // Before the run: the actors named (by name; throws std::invalid_argument for an unknown one)
  // as reached, and those that retract their outputs (also reached), remembering `remember`
  // outputs each. Returns the scope's number.
  std::size_t declare_scope(const std::vector<std::string>& reaches,
                            const std::vector<std::string>& retracts, std::size_t remember);
  // Any thread: cancels `what` in scope `scope` and wakes every actor the scope reaches.
  void cancel(CaseId what, std::size_t scope);

  // How many cancellations there are (acquire: the entries before it are visible).
  std::size_t count() const { return count_.load(std::memory_order_acquire); }
  // The i-th cancellation (i < count()); stable for the run.
  const Entry& entry(std::size_t i) const;
  const CancellationScope& scope(std::size_t i) const { return scopes_[i]; }

  // Checkpoints: the cancellations made, in order (each case and its scope's number). The scopes
  // are declared again by the cancel actors when the resumed workflow initializes; restore()
  // comes after that, into a list with no cancellation yet, and before the cells restore theirs
  // (ActorCell::restore_engine_state). A key case's expression is compiled again from its text.
  void snapshot(SnapshotWriter& out) const;
  void restore(SnapshotReader& in);

 private:
  std::vector<ActorCell*> cells_;  // by actor id
  std::vector<CancellationScope> scopes_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::atomic<std::size_t> count_{0};
};

}  // namespace cwf
