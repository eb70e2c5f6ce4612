// tag_interest: tags each event with the users who registered an interest in the sky region it
// falls in and in its type ("Tag Interest" of the AstroShelf monitoring workflow, seed 002
// §4.7.2, l.722: registrations "registered into an R-Tree spatial index which resides inside the
// actor"). Registrations come from a file when the workflow starts and on the `interests` port
// while it runs; an event is matched against the regions registered before it is fired on.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "actors/spatial/interest_index.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::spatial {

class TagInterest final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "events with a position and a type"},
       {"interests",
        "registrations {user, region, box, types} and withdrawals {user, region, "
        "remove: true}"}},
      {{"out", "the events someone is interested in, with `users` (or, per user, `user`)"},
       {"unwatched", "the events no one is interested in, unchanged"}}};
  static constexpr int kIn = 0, kInterests = 1;
  static constexpr int kOut = 0, kUnwatched = 1;

  struct Options {
    Expression ra, dec, type;
    bool per_user = false;
    std::vector<Interest> initial;  // from the `interests` file
  };
  explicit TagInterest(Options options);

  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

 private:
  void register_interest(const Value& record, FiringContext& context);
  void tag(std::size_t i, FiringContext& context);  // the window's event i

  Options options_;
  InterestIndex index_;
  std::vector<std::string_view> users_;  // scratch: the users of the event being tagged
};

ActorType tag_interest_type();

}  // namespace cwf::spatial
