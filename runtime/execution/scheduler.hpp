// The policy interface of the scheduled director (STAFiLOS, seed 5.3). The director tells the
// policy when an actor gets work and how its firings went; the policy tells the director which
// actor fires next and how many windows it may fire before asking again. Policies live in
// schedulers/ and are created by name through the SchedulerRegistry.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/actor/actor_stats.hpp"
#include "runtime/actor/port.hpp"
#include "runtime/graph/worker_homes.hpp"
#include "runtime/time/clock.hpp"
#include "runtime/values/value.hpp"

namespace cwf {

// What a policy may know about an actor.
struct SchedulableActor {
  ActorId id = 0;
  std::string name;
  int priority = 20;
  bool is_source = false;
  std::vector<ActorId> downstream;
  const ActorStats* stats = nullptr;
  // Events waiting in the actor's input queues (safe to call while other actors run).
  std::function<std::size_t()> queue_length;
  // Events delivered that the actor has not taken in yet (see ActorCell::inbox_length).
  std::function<std::size_t()> inbox_length;
  // The worker it prefers to fire on (runtime/graph/worker_homes.hpp), or kNoHome.
  int home = kNoHome;
};

struct Grant {
  ActorId actor = 0;
  std::uint32_t max_firings = 1;
};

struct FiringReport {
  std::uint32_t firings = 0;
  Duration cost = 0;             // wall time of the whole grant (or the cost model's figure)
  std::uint64_t events_out = 0;  // events the grant emitted
  bool has_more_work = false;    // the actor still has windows (a source: may fire again)
};

// Deterministic mode: the cost of a grant of `firings` firings of `actor`, used instead of the
// measured wall time (see ScheduledDirector::set_cost_model).
using CostModel = std::function<Duration(ActorId actor, std::uint32_t firings)>;

// Calls are never concurrent: on several workers the director serialises them, so a policy is
// single-threaded code. An actor handed out by next_actor() is not handed out again before its
// firing_ended(); the director reports actor_got_work() only for actors the policy does not hold.
class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual std::string_view name() const = 0;
  virtual void attach(std::span<const SchedulableActor> actors) = 0;
  // The actor went from no work to work (new input, a source woken, a timer).
  virtual void actor_got_work(ActorId actor) = 0;
  // The next actor to fire in this iteration; nullopt ends the iteration.
  virtual std::optional<Grant> next_actor() = 0;
  // The same, asked by worker `worker` of the director's (0 .. workers - 1): a policy that weighs
  // the actors' homes (SchedulableActor::home) prefers that worker's own actors and hands out
  // another's only when it has none ready. Others give next_actor().
  virtual std::optional<Grant> next_actor_on(unsigned /*worker*/) { return next_actor(); }
  virtual void firing_started(ActorId) {}
  virtual void firing_ended(ActorId actor, const FiringReport& report) = 0;
  virtual void iteration_started() {}
  virtual void iteration_ended() {}
  // Whether its choices use FiringReport::cost. One that does not spares a sub-workflow's
  // per-firing runs two clock reads per grant (the run's statistics still count the cost where
  // anyone reads them: a top-level run's).
  virtual bool uses_costs() const { return true; }
};

using SchedulerParameters = std::map<std::string, Value>;

// A scheduling policy's parameter that is unknown or has a bad value: names the parameter, so
// that the workflow loader can point at the line that sets it.
class SchedulerParameterError : public std::invalid_argument {
 public:
  SchedulerParameterError(std::string parameter, const std::string& message)
      : std::invalid_argument(message), parameter_(std::move(parameter)) {}
  const std::string& parameter() const { return parameter_; }

 private:
  std::string parameter_;
};

class SchedulerRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Scheduler>(const SchedulerParameters&)>;
  void add(std::string name, std::string description, Factory factory);
  // Throws std::invalid_argument listing the known policies, SchedulerParameterError for a bad
  // parameter.
  std::unique_ptr<Scheduler> create(std::string_view name, const SchedulerParameters& params) const;
  bool contains(std::string_view name) const;
  std::vector<std::pair<std::string, std::string>> list() const;

 private:
  struct Entry {
    std::string description;
    Factory factory;
  };
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace cwf
