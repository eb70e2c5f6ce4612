// lr_source: reads a Linear Road input file (plain or .xz) with the benchmark's parser and emits
// one tuple record per valid line (linear_road/workflow_events.hpp), stamped with its event time
// (Time seconds on the workflow clock). It routes by type itself: position reports and balance
// queries on `out` (one chain, in input order), daily-expenditure queries on `expenditure`;
// travel-time queries (type 4, which no validator defines) are only counted. A `filter` per type
// would add an enqueue and a firing for every tuple, a fifth of the workflow's cost. Malformed
// lines and lines earlier than the previous record are reported as errors and skipped: the
// downstream statistics assume time order.
//
// Pacing: with `compression` k > 0 the tuple with Time t is released t/k seconds (workflow
// clock) after the first one, as the benchmark's data driver does; 0 releases as fast as
// possible. Every tuple carries the clock time it was released at (`released`), from which the
// answer sink computes response times: paced, the time it was due (so that a source falling
// behind its schedule shows as response time, not as a slower input), else when it was read.
//
// Replication (linear_road/replication.hpp): `xways` L > 1 emits L copies of every tuple, copy i
// with xway + i*X, carid + i*C, qid + i*Q (`replica_cars` C, `replica_xways` X, `replica_qids`
// Q; 0: scanned from the input at initialize). `minutes` M > 0 stops before Time 60*M.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "actors/line_reader.hpp"
#include "linear_road/input_parser.hpp"
#include "linear_road/replication.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::lr {

class SourceActor final : public Actor {
 public:
  static inline const ActorPorts kPorts{
      {},
      {{"out",
        "tuple records (type, time, carid, speed, xway, lane, dir, seg, pos, qid, day, "
        "released, ...): position reports and account-balance queries, in input order"},
       {"expenditure", "the daily-expenditure queries (type 3), as tuple records"}}};
  static constexpr int kOut = 0;
  static constexpr int kExpenditure = 1;

  struct Options {
    double compression = 0;
    // Small on purpose: a scheduler turn of a source is many firings (fifo: 64), and on several
    // workers the next actor can start only when the turn ends, so short turns keep the chain
    // pipelined across cores. Linear Road on 2 workers (s, shared dataset): fifo 0.62 with 32,
    // 1.07 with 256; qbs 0.92 / 0.95, rr 0.92 / 0.88, rb 0.70 / 0.87; below 32 qbs, rr and rb
    // slow down (more, shorter turns), and one worker is as fast with any of them.
    std::int64_t batch = 32;
    std::int32_t copies = 1;  // `xways`
    ReplicaShape shape;       // empty: scanned when copies > 1
    std::int32_t minutes = 0;
  };

  SourceActor(std::string path, const Options& options);

  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  bool postfire(FiringContext& context) override;
  void wrapup(ActorContext& context) override;
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

  const InputRejectTally& rejects() const { return rejects_; }
  std::uint64_t out_of_order() const { return out_of_order_; }
  // Position reports kept with their speed left out (out of range; reported as warnings).
  std::uint64_t speeds_left_out() const { return speeds_left_out_; }
  std::uint64_t emitted() const { return emitted_; }
  std::uint64_t travel_time_queries() const { return travel_time_queries_; }
  std::uint64_t lines() const { return reader_line_count_; }
  // Workflow clock at the first firing (-1 before): where processing, not loading, starts.
  Timestamp first_fired() const { return first_fired_; }
  // Readable from any thread while the run goes on: the Time of the latest tuple let in and the
  // tuples emitted so far.
  Seconds progress_time() const { return progress_time_.load(std::memory_order_relaxed); }
  std::uint64_t progress_emitted() const {
    return progress_emitted_.load(std::memory_order_relaxed);
  }
  const ReplicaShape& shape() const { return options_.shape; }

 private:
  // Emits the copies of `record` released at `released`.
  void emit(FiringContext& context, const InputRecord& record, Timestamp released);

  std::string path_;
  Options options_;
  actors::LineReader reader_;
  InputRejectTally rejects_;
  std::uint64_t out_of_order_ = 0;
  std::uint64_t speeds_left_out_ = 0;
  std::uint64_t emitted_ = 0;
  std::uint64_t travel_time_queries_ = 0;
  std::uint64_t reader_line_count_ = 0;
  Timestamp first_fired_ = -1;
  Seconds latest_ = 0;
  bool done_ = false;
  bool anchored_ = false;
  Timestamp anchor_clock_ = 0;
  Seconds anchor_time_ = 0;
  std::optional<InputRecord> pending_;  // paced: read, waiting for its release time
  Timestamp pending_due_ = 0;
  std::atomic<Seconds> progress_time_{0};
  std::atomic<std::uint64_t> progress_emitted_{0};
};

ActorType source_actor_type();

}  // namespace cwf::lr
