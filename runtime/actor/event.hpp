// The unit that travels on a connection: a token with its timestamp and wave tag
// (the seed's CWEvent).
#pragma once

#include <limits>

#include "runtime/time/wave_tag.hpp"
#include "runtime/values/value.hpp"

namespace cwf {

struct Event {
  Value token;
  Timestamp time = 0;
  WaveTag wave;
};

// How far a stream has got when nothing is known yet (progress: Actor::output_progress,
// Receiver::progress_time).
constexpr Timestamp kNoProgress = std::numeric_limits<Timestamp>::min();

}  // namespace cwf
