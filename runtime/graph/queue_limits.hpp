// How many events a connection may hold, and what happens when it is full: bounded memory under
// overload. Every connection has a capacity (the workflow's default unless the connection sets
// its own). With `block`, a producer whose connection is full is not fired again until its
// consumer has taken in half of what is waiting (back-pressure, which reaches the sources through
// every full queue on the way). A source that cannot be slowed (one fed from the network) takes
// one of the shedding policies instead, which never hold the producer back: drop the newest
// event, drop the oldest waiting one, or sample (random early drop between half the capacity and
// the capacity, as load shedding does). Every dropped event is counted and reported as dropped.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace cwf {

enum class Overload { block, drop_newest, drop_oldest, sample };

struct QueueLimits {
  static constexpr std::uint64_t kUnbounded = std::numeric_limits<std::uint64_t>::max();
  // 16,384 events: about 1 MB of event headers per connection, enough for a consumer to take in
  // many producer turns' worth at once.
  static constexpr std::uint64_t kDefaultCapacity = 16384;

  std::uint64_t capacity = kDefaultCapacity;
  Overload overload = Overload::block;

  bool operator==(const QueueLimits&) const = default;
};

// "block", "drop_newest", "drop_oldest", "sample".
std::string_view overload_name(Overload overload);
std::optional<Overload> parse_overload(std::string_view text);

}  // namespace cwf
