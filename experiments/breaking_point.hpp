// The breaking point of a run: the second from which the response time exceeds the limit (5 s,
// the Linear Road deadline) and never comes back below it, and the input rate at that moment.
// A spike that recovers does not count.
#pragma once

#include <optional>
#include <vector>

namespace cwf::experiments {

struct SecondSample {
  double input_rate = 0;  // tuples released in this second
  // Mean response time of the answers of this second; nullopt when no answer left in it (such
  // seconds neither break nor recover a run).
  std::optional<double> response_s;
};

struct BreakingPoint {
  bool broke = false;
  int second = -1;        // the first second of the final stretch above the limit
  double input_rate = 0;  // mean input rate over the `smoothing` seconds ending there
};

// `series[i]` is second i of the run. Broke when some second with an answer is above `limit_s`
// and every later second with an answer is too.
BreakingPoint breaking_point(const std::vector<SecondSample>& series, double limit_s = 5.0,
                             int smoothing = 10);

}  // namespace cwf::experiments
