// catalog_match: joins each event with the nearest object of a sky catalog within a radius (the
// AstroShelf workflow's cross-matches, seed 002 §4.7.2, l.729-731: a supernova "matched with its
// host galaxy", other events "joined with data available from various external catalogs").
#pragma once

#include <memory>
#include <string>

#include "actors/spatial/catalog_index.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::spatial {

class CatalogMatch final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {{"in", "events with a position"}},
      {{"out",
        "the events with a catalog object within `radius`, the object in field `as` "
        "with its `separation` (degrees)"},
       {"unmatched", "the events with no catalog object within `radius`, unchanged"}}};
  static constexpr int kOut = 0, kUnmatched = 1;

  struct Options {
    std::shared_ptr<const CatalogIndex> catalog;  // shared by the copies `cwf set` makes
    double radius = 0;                            // degrees
    std::string as;
    Expression ra, dec;
  };
  explicit CatalogMatch(Options options);

  void fire(FiringContext& context) override;
  // The catalog is read when the workflow is loaded; every output follows from the event.
  Checkpointing checkpointing() const override { return Checkpointing::none; }

 private:
  Options options_;
};

ActorType catalog_match_type();

}  // namespace cwf::spatial
