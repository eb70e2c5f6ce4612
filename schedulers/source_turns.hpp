// How QBS and round-robin treat source actors (seed 5.4.1-5.4.2): sources regulate the input, so
// they are not ordered with the other actors but fire at regular intervals: after every
// `interval` internal firings (or at once when no internal actor has work), at most once per
// director iteration each, taking turns in round-robin order. A turn of several firings keeps
// the ratio: after n internal firings a source may fire n / interval times (at least once, at
// most the policy's source batch), so one source firing per `interval` internal firings holds
// whatever the batch sizes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/actor/port.hpp"

namespace cwf::schedulers {

class SourceTurns {
 public:
  void attach(std::vector<ActorId> sources, std::size_t actors, std::uint32_t interval) {
    sources_ = std::move(sources);
    interval_ = interval;
    has_work_.assign(actors, false);
    fired_.assign(actors, false);
    since_ = interval;  // the first turn may go to a source
  }
  std::uint32_t interval() const { return interval_; }
  void got_work(ActorId source) { has_work_[source] = true; }
  void internal_fired(std::uint32_t firings) { since_ += firings; }
  bool due(bool internal_work) const { return since_ >= interval_ || !internal_work; }
  bool has_work(ActorId source) const { return has_work_[source]; }
  bool fired_this_iteration(ActorId source) const { return fired_[source]; }

  struct Turn {
    ActorId source;
    std::uint32_t firings;  // most firings for this turn
  };
  // The next source in turn that has work, has not fired in this iteration and `may_fire` (the
  // policy's condition, e.g. a positive quantum).
  template <typename MayFire>
  std::optional<Turn> take(bool internal_work, std::uint32_t batch, MayFire may_fire) {
    for (std::size_t i = 0; i < sources_.size(); ++i) {
      ActorId source = sources_[(next_ + i) % sources_.size()];
      if (!has_work_[source] || fired_[source] || !may_fire(source)) continue;
      next_ = (next_ + i + 1) % sources_.size();
      fired_[source] = true;
      has_work_[source] = false;  // until it reports more work
      std::uint32_t firings =
          internal_work ? std::clamp<std::uint32_t>(since_ / interval_, 1, batch) : batch;
      since_ = 0;
      return Turn{source, firings};
    }
    return std::nullopt;
  }
  void firing_ended(ActorId source, bool more_work) { has_work_[source] = more_work; }
  void new_iteration() { fired_.assign(fired_.size(), false); }
  const std::vector<ActorId>& sources() const { return sources_; }

 private:
  std::vector<ActorId> sources_;
  std::uint32_t interval_ = 1;
  std::uint32_t since_ = 0;  // internal firings since the last source turn
  std::size_t next_ = 0;
  std::vector<bool> has_work_;
  std::vector<bool> fired_;
};

}  // namespace cwf::schedulers
