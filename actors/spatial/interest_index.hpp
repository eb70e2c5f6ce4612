// The sky regions users registered an interest in, indexed by a Boost.Geometry R-tree: which users
// want to hear of an event of a given type at a given position.
//
// A region is a box in equatorial coordinates, [ra_min, dec_min, ra_max, dec_max] in degrees; a
// box whose ra_min is greater than its ra_max crosses right ascension 0 ([350, -5, 10, 5] is the
// 20 degrees around it) and is indexed as its two halves. Edges belong to the region. A user
// names each region; registering a name again replaces that region, and a registration with
// `remove: true` withdraws it.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "actors/spatial/sky_point.hpp"
#include "runtime/values/value.hpp"

namespace cwf::spatial {

struct Interest {
  std::string user;
  std::string region;
  std::array<double, 4> box{};     // ra_min, dec_min, ra_max, dec_max, as registered
  std::vector<std::string> types;  // empty: every type
  bool remove = false;             // a withdrawal of (user, region)
};

// A registration record {user, region, box, types?, remove?}, or the reason it is not one.
std::optional<Interest> read_interest(const Value& record, std::string& error);
// The record read_interest reads back (for checkpoints and listings).
Value interest_record(const Interest& interest);

class InterestIndex {
 public:
  InterestIndex();
  ~InterestIndex();
  // A moved-from index may only be assigned to or destroyed.
  InterestIndex(InterestIndex&&) noexcept;
  InterestIndex& operator=(InterestIndex&&) noexcept;

  // Adds the region, or replaces the user's region of that name; a withdrawal removes it.
  // Returns false for a withdrawal of a region that is not registered.
  bool apply(const Interest& interest);
  // The users with a region holding `point` that takes events of `type`, sorted, each once, into
  // `users` (cleared first; a caller's vector reused from event to event allocates nothing). The
  // views are valid until the next apply.
  void users_at(SkyPoint point, std::string_view type, std::vector<std::string_view>& users) const;
  std::size_t size() const { return slot_of_.size(); }
  // The regions registered, by user and region name.
  std::vector<Interest> regions() const;

 private:
  struct Tree;  // the R-tree (Boost.Geometry stays out of this header: it is slow to compile)
  std::unique_ptr<Tree> tree_;
  std::vector<std::optional<Interest>> slots_;  // by slot; a withdrawn region leaves a hole
  std::vector<std::size_t> free_slots_;         // the holes, taken by the next regions
  std::map<std::pair<std::string, std::string>, std::size_t> slot_of_;  // (user, region) -> slot
};

}  // namespace cwf::spatial
