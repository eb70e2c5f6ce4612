// The toll formula of Linear Road, shared by the reference and the workflow's toll actor: a
// segment costs 2 * (cars - 50)^2 when more than 50 cars were in it during the previous minute,
// its LAV is below 40 mph, and no accident is in force up to 4 segments downstream.
#pragma once

#include <cstdint>
#include <optional>

namespace cwf::lr {

inline constexpr std::int32_t kCongestedCars = 50;  // a toll is due above this many cars
inline constexpr std::int32_t kTollFreeLav = 40;    // ... and below this LAV (mph)

// `cars`: distinct cars in the segment during minute m-1; `lav`: over minutes m-5..m-1, nothing
// when none of them had cars (then `cars` is 0 too, so the toll is 0).
inline std::int32_t segment_toll(std::int32_t cars, std::optional<std::int32_t> lav,
                                 bool accident_ahead) {
  if (accident_ahead || cars <= kCongestedCars || lav.value_or(-1) >= kTollFreeLav) return 0;
  return 2 * (cars - kCongestedCars) * (cars - kCongestedCars);
}

}  // namespace cwf::lr
