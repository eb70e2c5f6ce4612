#include "runtime/execution/time_keeper.hpp"

#include <string>

#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf {

void TimeKeeper::snapshot(SnapshotWriter& out) const {
  out.write_u64(next_root_sequence_);
}

void TimeKeeper::restore(SnapshotReader& in) {
  std::uint64_t next = in.read_u64("the next wave root's sequence");
  // Each actor numbers its waves in a space of its own (the top bits): a sequence from another
  // space would start waves that another actor starts too. The space's first number is 1.
  std::uint64_t ordinal = source_ordinal_of(next_root_sequence_);
  if (source_ordinal_of(next) != ordinal || next == ordinal << kOrdinalShift)
    in.reject("the next wave root's sequence", std::to_string(next) +
                                                   " is not in the numbering of actor ordinal " +
                                                   std::to_string(ordinal));
  next_root_sequence_ = next;
}

}  // namespace cwf
