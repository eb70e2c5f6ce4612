#include "runtime/execution/worker_governor.hpp"

#include <algorithm>

namespace cwf {

WorkerGovernor::WorkerGovernor(unsigned workers, Settings settings)
    : workers_(std::max(1u, workers)),
      settings_(settings),
      active_(workers_),
      hold_(settings.first_hold) {}

unsigned WorkerGovernor::observe(Duration now, std::uint64_t events) {
  if (workers_ == 1) return active_;
  if (stage_ != Stage::starting && active_ == 1) time_with_one_ += now - last_seen_;
  last_seen_ = now;
  switch (stage_) {
    case Stage::starting:
      stage_ = Stage::warming_up;
      stage_end_ = now + settings_.warm_up;
      break;
    case Stage::warming_up:
    case Stage::holding:
      if (now >= stage_end_) start_trial(now, events);
      break;
    case Stage::trial:
      if (now < stage_end_) break;
      (phase_ % 2 == 0 ? events_one_ : events_all_) += events - phase_start_events_;
      if (++phase_ == 4 || (phase_ == 2 && all_lead_decisively())) {
        decide(now);
        break;
      }
      begin_phase(now, events);
      break;
  }
  return active_;
}

void WorkerGovernor::start_trial(Duration now, std::uint64_t events) {
  stage_ = Stage::trial;
  phase_ = 0;
  events_one_ = events_all_ = 0;
  begin_phase(now, events);
}

void WorkerGovernor::begin_phase(Duration now, std::uint64_t events) {
  active_ = phase_ % 2 == 0 ? 1 : workers_;
  phase_start_events_ = events;
  stage_end_ = now + settings_.phase;
}

bool WorkerGovernor::enough_to_tell() const {
  return events_one_ + events_all_ >= settings_.least_events;
}

bool WorkerGovernor::all_lead_decisively() const {
  return settings_.decisive_lead > 0 && enough_to_tell() &&
         static_cast<double>(events_all_) >=
             settings_.decisive_lead * static_cast<double>(events_one_);
}

void WorkerGovernor::decide(Duration now) {
  ++trials_;
  const bool one = enough_to_tell() && static_cast<double>(events_one_) >
                                           settings_.margin * static_cast<double>(events_all_);
  won_by_one_ += one;
  // The same answer again: it is likely to hold for longer.
  hold_ = trials_ > 1 && one == chose_one_ ? std::min(2 * hold_, settings_.longest_hold)
                                           : settings_.first_hold;
  chose_one_ = one;
  active_ = one ? 1 : workers_;
  stage_ = Stage::holding;
  stage_end_ = now + hold_;
}

}  // namespace cwf
