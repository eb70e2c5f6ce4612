#include "runtime/execution/clock_snapshot.hpp"

#include <string>

#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf {

void snapshot_clock(const Clock& clock, SnapshotWriter& out) {
  out.write_string(clock.name());
  out.write_timestamp(clock.now());
}

void restore_clock(Clock& clock, SnapshotReader& in) {
  std::string kind = in.read_string("the clock's kind");
  Timestamp time = in.read_timestamp("the clock's time");
  // A virtual clock's time is the run's own, and a scaled clock's runs ahead of (or behind) wall
  // time: each goes on from where it was, so that paced sources and deadlines neither stall nor
  // find their events late. A real clock is wall time. A checkpoint of a run on another kind of
  // clock resumes on whatever clock the new run uses.
  if (auto* virtual_clock = dynamic_cast<VirtualClock*>(&clock); virtual_clock && kind == "virtual")
    virtual_clock->advance_to(time);
  if (auto* scaled = dynamic_cast<ScaledClock*>(&clock); scaled && kind == "scaled")
    scaled->restart_at(time);
}

}  // namespace cwf
