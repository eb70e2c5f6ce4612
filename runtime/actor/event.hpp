// The unit that travels on a connection: a token with its timestamp and wave tag
// (the seed's CWEvent).
#pragma once

#include "runtime/time/wave_tag.hpp"
#include "runtime/values/value.hpp"

namespace cwf {

struct Event {
  Value token;
  Timestamp time = 0;
  WaveTag wave;
};

}  // namespace cwf
