// The scheduling policy of the runtime tests (the real ones live in schedulers/), and the
// directors that parameterised tests name.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/execution/scheduled_director.hpp"
#include "runtime/execution/scheduler.hpp"
#include "runtime/execution/threaded_director.hpp"

namespace cwf::testing {

// Fires actors in wake-up order, granting each up to `max_firings` firings at a time.
class InOrderScheduler final : public Scheduler {
 public:
  explicit InOrderScheduler(std::uint32_t max_firings, std::string name = "in-order")
      : max_firings_(max_firings), name_(std::move(name)) {}

  std::string_view name() const override { return name_; }
  void attach(std::span<const SchedulableActor>) override {}
  void actor_got_work(ActorId a) override { ready_.push_back(a); }
  std::optional<Grant> next_actor() override {
    if (ready_.empty()) return std::nullopt;
    ActorId a = ready_.front();
    ready_.erase(ready_.begin());
    return Grant{a, max_firings_};
  }
  void firing_ended(ActorId a, const FiringReport& r) override {
    if (r.has_more_work) ready_.push_back(a);
  }

 private:
  std::uint32_t max_firings_;
  std::string name_;
  std::vector<ActorId> ready_;
};

// The directors parameterised runtime tests run under.
inline const std::vector<std::string> kTestDirectors = {"scheduled", "scheduled_2_workers",
                                                        "threaded"};

// "threaded", or else a scheduled director (one worker, or two for "scheduled_2_workers") with
// an InOrderScheduler whose turns are up to `max_firings_per_turn` windows.
inline std::unique_ptr<Director> make_test_director(const std::string& kind,
                                                    std::uint32_t max_firings_per_turn) {
  if (kind == "threaded") return std::make_unique<ThreadedDirector>();
  unsigned workers = kind == "scheduled_2_workers" ? 2 : 1;
  return std::make_unique<ScheduledDirector>(
      std::make_unique<InOrderScheduler>(max_firings_per_turn), workers);
}

}  // namespace cwf::testing
