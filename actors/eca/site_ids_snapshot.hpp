// A site's occurrence ids in a checkpoint. The counter is the process's, shared by every actor
// that raises occurrences at the site (site_ids): each of them writes its value, and a restore
// never takes it back, so that actors of one site restored from one checkpoint agree and ids
// stay unique in the process.
#pragma once

#include <atomic>
#include <cstdint>

#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::eca {

inline void save_site_ids(SnapshotWriter& out, const std::atomic<std::int64_t>& ids) {
  out.write_i64(ids.load(std::memory_order_relaxed));
}

// Read before anything else is changed by the caller's restore, so that a refused state leaves
// nothing half-restored: returns the value, applied by apply_site_ids.
inline std::int64_t read_site_ids(SnapshotReader& in) {
  return in.read_i64("the site's next occurrence id");
}

inline void apply_site_ids(std::atomic<std::int64_t>& ids, std::int64_t next_id) {
  std::int64_t now = ids.load(std::memory_order_relaxed);
  while (now < next_id && !ids.compare_exchange_weak(now, next_id, std::memory_order_relaxed)) {
  }
}

}  // namespace cwf::eca
