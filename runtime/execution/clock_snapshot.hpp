// The workflow clock in a checkpoint: its kind and its time. A virtual clock moves only when
// told, so a resumed run would start it again at its start: it is set to the time it had (it
// never moves backwards). A scaled clock goes on from the time it had, at its speed. A real
// clock follows wall time and is left alone: the time written is for people reading it.
#pragma once

#include "runtime/time/clock.hpp"

namespace cwf {

class SnapshotReader;
class SnapshotWriter;

void snapshot_clock(const Clock& clock, SnapshotWriter& out);
// Throws SnapshotError for damaged bytes.
void restore_clock(Clock& clock, SnapshotReader& in);

}  // namespace cwf
