// The L-rating of the Linear Road workflow: the largest number of expressways L for which, with
// the input replicated for L expressways (linear_road/replication.hpp) and paced with time
// compression k (Time t released at t/k s), every answer is within its response-time limit
// (5 s for types 0-2, 10 s for type 3, measured in simulated seconds: wall response * k) and the
// answers are exactly those of the reference implementation on the same replicated stream.
// Also the as-fast-as-possible comparison: tuples/s of the workflow and of the reference on the
// same replicated stream. `cwf lr rate` is the command (docs/linear-road.md, "L-rating").
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "linear_road/answer_digest.hpp"
#include "linear_road/historical_toll_table.hpp"
#include "linear_road/replication.hpp"
#include "linear_road/response_histogram.hpp"
#include "linear_road/validation_report.hpp"
#include "runtime/execution/runner.hpp"
#include "runtime/execution/scheduler.hpp"
#include "runtime/loading/actor_registry.hpp"
#include "runtime/loading/param_overrides.hpp"

namespace cwf::lr {

// What a run reports every progress interval.
struct RatingProgress {
  std::int32_t xways = 0;
  Seconds time = 0;              // Time of the latest tuple let in
  std::uint64_t tuples = 0;      // emitted so far
  double tuples_per_second = 0;  // since the previous report
  double p99 = 0;                // simulated seconds, answers of the last full wall second
  std::uint64_t late = 0;
  double elapsed = 0;  // wall seconds since the run started
};

struct RatingOptions {
  std::string input;         // plain or .xz
  std::string tolls;         // empty: none (every type-3 answer is 0)
  std::string workflow;      // workflows/linear_road.yaml
  double compression = 60;   // 0: as fast as possible (no response-time limit applies)
  std::int32_t minutes = 0;  // > 0: only tuples with Time < 60 * minutes
  // Director overrides (empty / 0: the workflow's own).
  std::string director;
  std::string scheduler;
  unsigned workers = 0;
  // Parameters of the policy, over the workflow's own (e.g. fifo's affinity).
  std::map<std::string, Value> scheduler_parameters;
  // Set: the director's adapt_workers, over the workflow's.
  std::optional<bool> adapt_workers;
  // Further parameters of the workflow's actors (`--set`), applied after the rating's own.
  std::vector<ParamOverride> settings;
  // Non-empty: every trial writes the workflow's answers (DIR/L<n>/answers.out) and the
  // reference's (DIR/L<n>/expected.out) and validates them with validate_answers (exact mode).
  std::string answers_dir;
  // Stop a paced trial as soon as an answer is late (it has failed; the rest would only take
  // time).
  bool stop_when_late = true;
  Duration progress_interval = 5 * kSecond;
  std::function<void(const RatingProgress&)> progress;
  const ActorRegistry* actors = nullptr;
  const SchedulerRegistry* schedulers = nullptr;
};

struct RatingTrial {
  std::int32_t xways = 0;
  double compression = 0;
  std::string director;
  std::uint64_t tuples = 0;  // emitted by the source
  double seconds = 0;        // from the source's first firing to the end of the run
  double tuples_per_second = 0;
  std::array<ResponseHistogram, 4> responses;  // wall time
  std::array<std::uint64_t, 4> answers{};
  std::array<std::uint64_t, 4> late{};
  bool stopped_early = false;  // late answers: stopped at `stopped_at` (Time)
  Seconds stopped_at = 0;
  std::uint64_t source_errors = 0;
  // The reference on the same replicated stream.
  std::array<std::uint64_t, 4> expected{};
  bool answers_match = false;  // digests equal (same answers of every type)
  double reference_seconds = 0;
  double reference_tuples_per_second = 0;
  std::optional<ValidationReport> report;  // with answers_dir
  RunSummary summary;

  std::uint64_t total_late() const { return late[0] + late[1] + late[2] + late[3]; }
  bool validated() const {
    return !stopped_early && answers_match && source_errors == 0 && (!report || report->passed());
  }
  bool passed() const { return validated() && total_late() == 0; }
  // Response time in simulated seconds (wall * k; wall seconds as fast as possible).
  double simulated(Duration wall) const {
    return static_cast<double>(wall) / kSecond * (compression > 0 ? compression : 1.0);
  }
};

struct Rating {
  ReplicaShape shape;
  std::vector<RatingTrial> trials;  // in the order run
  std::int32_t rated = 0;           // largest L that passed (0: none)
  const RatingTrial* rated_trial() const;
};

// Throws std::runtime_error when the input, the tolls or the workflow cannot be read.
class Rater {
 public:
  explicit Rater(RatingOptions options);
  const ReplicaShape& shape() const { return shape_; }
  // One trial at L expressways: the workflow (paced, or as fast as possible with compression 0),
  // then the reference on the same stream.
  RatingTrial trial(std::int32_t xways);
  // Trials at every L of `xways`, in order; rated = the largest that passed.
  Rating rate_list(const std::vector<std::int32_t>& xways);
  // Doubling from 1 while trials pass (up to `max_xways`), then bisection between the last pass
  // and the first failure.
  Rating search(std::int32_t max_xways);

 private:
  RatingOptions options_;
  ReplicaShape shape_;
  HistoricalTollTable history_;
};

}  // namespace cwf::lr
