// Run-time problems as the user reads them on stderr: what happened to which events, in which
// actor of which workflow file, caused by which input line.
//
//   cwf: sensors.yaml:9: actor 'hot' (filter) rejected an event: cannot compare string 'n/a' > int
//   30
//       event {"sensor":"s1","celsius":"n/a"} from data/sensors.csv:14
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "runtime/actor/event.hpp"

namespace cwf {

enum class ProblemKind { rejected, failed, dropped, lost, warning };

// Where in the workflow a problem arose: the actor as written in the file, and for an actor
// inside a composite, the chain of inner actors ("inner actor 'm' (map, sub.yaml:4)").
struct ProblemSite {
  std::string_view actor;
  std::string_view type;
  std::string_view location;  // "file:line", or empty for actors built in code
  std::string inner;          // empty unless the problem arose inside a composite
};

// Describes the site alone ("sub.yaml:4: actor 'm' (map)"), as a composite names its inner
// actor.
std::string describe_site(const ProblemSite& site);

// The stderr text of one problem (one or two lines, ending in a newline). `count` is the number
// of events concerned when more than one (a sink's write error). `origin` is the input position
// of the event's external cause.
std::string format_problem(const ProblemSite& site, ProblemKind kind, std::string_view message,
                           const Event* event, const std::optional<std::string>& origin,
                           std::uint64_t count = 1);

// A short JSON rendering of a token, cut at `max_chars` with "…".
std::string event_excerpt(const Value& token, std::size_t max_chars = 160);

}  // namespace cwf
