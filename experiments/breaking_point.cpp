#include "experiments/breaking_point.hpp"

#include <algorithm>

namespace cwf::experiments {

BreakingPoint breaking_point(const std::vector<SecondSample>& series, double limit_s,
                             int smoothing) {
  BreakingPoint result;
  // Walk back from the end over the seconds above the limit; the first one at or below it ends
  // the stretch.
  int start = -1;
  for (int i = static_cast<int>(series.size()) - 1; i >= 0; --i) {
    const auto& response = series[static_cast<std::size_t>(i)].response_s;
    if (!response) continue;
    if (*response <= limit_s) break;
    start = i;
  }
  if (start < 0) return result;
  result.broke = true;
  result.second = start;
  int from = std::max(0, start - std::max(1, smoothing) + 1);
  double sum = 0;
  for (int i = from; i <= start; ++i)
    sum += series[static_cast<std::size_t>(i)].input_rate;
  result.input_rate = sum / (start - from + 1);
  return result;
}

}  // namespace cwf::experiments
