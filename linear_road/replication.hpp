// Replicating a Linear Road dataset for L expressways without writing L-times-bigger files: copy
// i (0..L-1) of every input tuple gets xway + i*X, carid + i*C and qid + i*Q, where X, C and Q
// are one more than the largest xway, carid and qid of the original. Copies never share a car,
// an expressway or a query, so every copy is answered exactly as the original is, and emitting
// the L copies of each tuple in turn keeps the stream sorted by time. The historical tolls are
// replicated the same way by mapping a lookup back to the original row
// (HistoricalTollTable::replicate), so daily-expenditure answers stay consistent.
#pragma once

#include <cstdint>
#include <string>

#include "linear_road/records.hpp"

namespace cwf::lr {

struct ReplicaShape {
  std::int32_t cars = 0;      // C: largest carid + 1
  std::int32_t xways = 0;     // X: largest xway + 1
  std::int32_t qids = 0;      // Q: largest qid + 1
  std::uint64_t records = 0;  // valid records scanned (within the time limit)
  Seconds last_time = 0;      // the largest Time among them: how long a paced replay lasts
  bool empty() const { return cars == 0; }
};

// Scans the valid records of an input file (plain or .xz) with Time < `until` (0: all) for the
// largest carid, xway and qid. Throws std::runtime_error when the file cannot be read.
ReplicaShape scan_replica_shape(const std::string& path, Seconds until = 0);

// Copy `copy` (0: the original) of `record`.
inline InputRecord replica(const InputRecord& record, std::int32_t copy,
                           const ReplicaShape& shape) {
  if (copy == 0) return record;
  InputRecord r = record;
  r.carid += copy * shape.cars;
  if (r.xway >= 0) r.xway += copy * shape.xways;
  if (r.qid >= 0) r.qid += copy * shape.qids;
  return r;
}

}  // namespace cwf::lr
