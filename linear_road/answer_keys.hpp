// Integer keys under which answers are matched: two 32-bit fields packed into one 64-bit
// integer, so millions of answers sort and search without strings or hashing.
#pragma once

#include <cstdint>

#include "linear_road/records.hpp"

namespace cwf::lr {

constexpr std::uint64_t pack_key(std::int32_t high, std::int32_t low) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(high)) << 32) |
         static_cast<std::uint32_t>(low);
}

// A car at one report: toll notifications are keyed (carid, time).
constexpr std::uint64_t car_time_key(std::int32_t carid, Seconds time) {
  return pack_key(carid, time);
}

// Accident alerts are keyed (time, carid).
constexpr std::uint64_t time_car_key(Seconds time, std::int32_t carid) {
  return pack_key(time, carid);
}

// A car in one segment of one direction: the Perl validator keys its toll rows so.
constexpr std::uint64_t car_segment_key(std::int32_t carid, std::int32_t dir, std::int32_t seg) {
  return pack_key(carid, (dir << 8) | (seg & 0xff));
}

}  // namespace cwf::lr
