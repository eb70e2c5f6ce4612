// The unit that travels on a connection: a token with its timestamp and wave tag
// (the seed's CWEvent).
#pragma once

#include "runtime/value.hpp"
#include "runtime/wave_tag.hpp"

namespace cwf {

struct Event {
  Value token;
  Timestamp time = 0;
  WaveTag wave;
};

}  // namespace cwf
