// Durations as people write them in workflow files and on the command line: "500 ms", "1.5 s",
// "2 min"; a bare number is seconds. Stored as integer nanoseconds (cwf::Duration).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "runtime/time/clock.hpp"

namespace cwf {

// Accepts a non-negative decimal number, optionally followed (with or without a space) by a
// unit: ns, us (µs), ms, s (sec), min, h (and their long forms: seconds, minutes, ...).
// Fractions are rounded to the nearest nanosecond. Throws std::invalid_argument naming the text
// and what is wrong with it.
Duration parse_duration(std::string_view text);

// As parse_duration, but returns nullopt instead of throwing; `reason` (if given) receives why
// the text is not a duration, e.g. "unknown unit 'mins' (use ns, us, ms, s, min or h)".
std::optional<Duration> try_parse_duration(std::string_view text, std::string* reason = nullptr);

// Human-readable: the largest unit that keeps the number >= 1 ("250 ms", "1.5 s", "2 min"),
// rounded to 3 decimals with trailing zeros dropped. Minutes and hours are used only when they
// are exact to 3 decimals (90 s is "1.5 min", 100 s stays "100 s"). Zero is "0 s".
std::string format_duration(Duration duration);

}  // namespace cwf
