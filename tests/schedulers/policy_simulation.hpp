// Drives a scheduling policy the way the scheduled director does, with scripted actors instead of
// real ones: each firing costs a fixed time and emits a scripted number of events to each
// downstream actor; arrivals can be scripted at given turns. Wake-ups raised during a grant are
// reported after its firing_ended(), and only for actors the policy does not hold - the director's
// contract. The result is the exact sequence of turns, per iteration, so policy tests can assert
// the order the specification prescribes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "runtime/execution/scheduler.hpp"

namespace cwf::schedulers::testing {

struct ScriptedActor {
  std::string name;
  int priority = 20;
  Duration cost = 100 * kMicrosecond;  // per firing
  // Events emitted per firing, cycling through the list (e.g. {0, 1}: selectivity 0.5).
  std::vector<std::uint32_t> emits = {1};
  std::vector<ActorId> downstream;
  bool source = false;
  std::uint64_t source_firings = 0;  // how often a source can fire in all
};

class PolicySimulation {
 public:
  PolicySimulation(Scheduler& policy, std::vector<ScriptedActor> actors)
      : policy_(policy), actors_(std::move(actors)) {
    std::vector<SchedulableActor> schedulable;
    queue_.assign(actors_.size(), 0);
    held_.assign(actors_.size(), false);
    fired_.assign(actors_.size(), 0);
    for (ActorId id = 0; id < actors_.size(); ++id) {
      const ScriptedActor& a = actors_[id];
      SchedulableActor s;
      s.id = id;
      s.name = a.name;
      s.priority = a.priority;
      s.is_source = a.source;
      s.downstream = a.downstream;
      s.queue_length = [this, id] { return static_cast<std::size_t>(queue_[id]); };
      schedulable.push_back(std::move(s));
      if (a.source) queue_[id] = a.source_firings;
    }
    policy_.attach(schedulable);
    for (ActorId id = 0; id < actors_.size(); ++id)
      if (actors_[id].source && queue_[id] > 0) wake(id);
  }

  // `windows` arrive at `actor` before turn number `turn` (0-based) is handed out.
  void arrive_before_turn(std::size_t turn, ActorId actor, std::uint64_t windows) {
    arrivals_[turn].push_back({actor, windows});
  }
  void arrive(ActorId actor, std::uint64_t windows) {
    queue_[actor] += windows;
    wake(actor);
  }

  // Runs until no actor has work (or `max_turns`); returns the turns as "name×firings" words,
  // iterations separated by " | ", e.g. "B×1 B×1 A×2 | A×1".
  std::string run(std::size_t max_turns = 1000) {
    std::vector<std::string> iterations;
    int empty_iterations = 0;
    while (turns_ < max_turns) {
      deliver_wakeups();
      policy_.iteration_started();
      std::string words;
      while (turns_ < max_turns) {
        apply_arrivals();
        deliver_wakeups();
        auto grant = policy_.next_actor();
        if (!grant) break;
        ++turns_;
        words += (words.empty() ? "" : " ") + fire(*grant);
      }
      policy_.iteration_ended();
      ++iterations_;
      if (!words.empty()) iterations.push_back(words);
      if (!anyone_held() && pending_.empty() && arrivals_.empty()) break;
      // A policy that hands out nothing while actors have work must get there by re-quantifying
      // within a few iterations; more means it is stuck.
      empty_iterations = words.empty() ? empty_iterations + 1 : 0;
      if (empty_iterations > 100) {
        iterations.push_back("(stuck)");
        break;
      }
    }
    std::string trace;
    for (const auto& words : iterations)
      trace += (trace.empty() ? "" : " | ") + words;
    return trace;
  }

  std::uint64_t iterations() const { return iterations_; }
  std::uint64_t fired(ActorId actor) const { return fired_[actor]; }
  std::uint64_t queued(ActorId actor) const { return queue_[actor]; }

 private:
  std::string fire(const Grant& grant) {
    ActorId id = grant.actor;
    ScriptedActor& a = actors_[id];
    std::uint32_t firings = 0;
    std::uint64_t out = 0;
    while (firings < grant.max_firings && queue_[id] > 0) {
      --queue_[id];
      std::uint32_t emits = a.emits[fired_[id] % a.emits.size()];
      ++fired_[id];
      ++firings;
      out += emits;
      for (ActorId down : a.downstream) {
        queue_[down] += emits;
        if (emits > 0) raised_.push_back(down);
      }
    }
    bool more = queue_[id] > 0;
    if (!more) held_[id] = false;
    policy_.firing_ended(id, FiringReport{.firings = firings,
                                          .cost = a.cost * firings,
                                          .events_out = out,
                                          .has_more_work = more});
    for (ActorId down : raised_)
      wake(down);
    raised_.clear();
    return a.name + "×" + std::to_string(firings);
  }

  void wake(ActorId id) {
    if (held_[id]) return;
    held_[id] = true;
    pending_.push_back(id);
  }
  void deliver_wakeups() {
    for (ActorId id : pending_)
      policy_.actor_got_work(id);
    pending_.clear();
  }
  void apply_arrivals() {
    auto it = arrivals_.find(turns_);
    if (it == arrivals_.end()) return;
    for (auto [actor, windows] : it->second)
      arrive(actor, windows);
    arrivals_.erase(it);
  }
  bool anyone_held() const {
    for (bool h : held_)
      if (h) return true;
    return false;
  }

  Scheduler& policy_;
  std::vector<ScriptedActor> actors_;
  std::vector<std::uint64_t> queue_;
  std::vector<bool> held_;
  std::vector<std::uint64_t> fired_;
  std::vector<ActorId> pending_, raised_;
  std::map<std::size_t, std::vector<std::pair<ActorId, std::uint64_t>>> arrivals_;
  std::size_t turns_ = 0;
  std::uint64_t iterations_ = 0;
};

}  // namespace cwf::schedulers::testing
