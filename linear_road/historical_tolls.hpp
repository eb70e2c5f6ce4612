// The historical tolls file that answers daily-expenditure queries: `carid,day,xway,toll`, one
// row for every car and every day 1..69, tolls 10..99. Where a generated query asks about a
// (carid, day), the row names the expressway that query asked about; elsewhere it is random.
#pragma once

#include <cstdint>
#include <functional>

#include "linear_road/traffic_generator.hpp"

namespace cwf::lr {

constexpr std::int32_t kLowestHistoricalToll = 10;
constexpr std::int32_t kHighestHistoricalToll = 99;

struct HistoricalToll {
  std::int32_t carid;
  std::int32_t day;
  std::int32_t xway;
  std::int32_t toll;
  friend bool operator==(const HistoricalToll&, const HistoricalToll&) = default;
};

// Rows for cars 0..cars-1, by car then day, deterministic per seed.
void generate_historical_tolls(std::int64_t cars, int xways, std::uint64_t seed,
                               const ExpenditureQuestions& questions,
                               const std::function<void(const HistoricalToll&)>& sink);

}  // namespace cwf::lr
