#include "linear_road/historical_tolls.hpp"

#include "linear_road/deterministic_random.hpp"

namespace cwf::lr {

namespace {
// Apart from the traffic generator's streams (which use small purpose numbers).
constexpr std::uint64_t kHistoricalTollsPurpose = 0x70115;
}  // namespace

void generate_historical_tolls(std::int64_t cars, int xways, std::uint64_t seed,
                               const ExpenditureQuestions& questions,
                               const std::function<void(const HistoricalToll&)>& sink) {
  DeterministicRandom random = DeterministicRandom::stream(seed, kHistoricalTollsPurpose);
  for (std::int64_t car = 0; car < cars; ++car) {
    for (std::int32_t day = 1; day <= kHistoryDays; ++day) {
      HistoricalToll row;
      row.carid = static_cast<std::int32_t>(car);
      row.day = day;
      // Both drawn on every row, so the rows of other cars do not depend on which were asked.
      row.toll =
          static_cast<std::int32_t>(random.between(kLowestHistoricalToll, kHighestHistoricalToll));
      row.xway = static_cast<std::int32_t>(random.below(static_cast<std::uint64_t>(xways)));
      if (!questions.empty()) {
        auto asked = questions.find(expenditure_key(row.carid, day));
        if (asked != questions.end()) row.xway = asked->second;
      }
      sink(row);
    }
  }
}

}  // namespace cwf::lr
