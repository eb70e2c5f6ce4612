// Parses one Linear Road input line (`type,time,carid,speed,xway,lane,dir,seg,pos,qid,sinit,
// send,dow,tod,day`) into an InputRecord without allocating. A line that is not 15 integers, or
// one of whose fields that its type needs is out of the benchmark's range, is rejected with a
// reason instead of being half-used: a damaged input must show up in the counts, not as odd
// answers. One field is the exception: a position report's speed only feeds the segment
// statistics, while its position decides segment entries, tolls and stopped cars. A report whose
// speed alone is out of range is kept (InputWarning::speed) and its speed left out of the
// statistics (speed_in_range), so that the car's segment entry is not lost with it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "linear_road/records.hpp"

namespace cwf {
class SnapshotReader;
class SnapshotWriter;
}  // namespace cwf

namespace cwf::lr {

enum class InputReject : std::uint8_t {
  none,         // the line is a valid record
  field_count,  // not exactly 15 fields
  not_integer,  // a field is empty, not a decimal integer, or does not fit 32 bits
  type,         // type not 0, 2, 3 or 4
  time,         // negative time
  carid,        // negative carid
  xway,         // negative expressway
  lane,         // lane outside 0..4 (position reports)
  dir,          // direction not 0 or 1 (position reports)
  seg,          // segment outside 0..99 (position reports)
  pos,          // position outside 0..527999 (position reports)
  qid,          // negative query id (queries)
  day,          // day outside 1..69 (daily-expenditure queries)
};
inline constexpr std::size_t kInputRejectKinds = 13;

// A short name for reports ("field_count", "seg", ...).
const char* input_reject_name(InputReject reason);

// Fills `record` and returns InputReject::none, or returns why the line was rejected (`record`
// is then unspecified). A record it accepts may still be kept in part: see input_warning.
InputReject parse_input_line(std::string_view line, InputRecord& record);

// What is wrong with a rejected line, for a message: the field, its value and its range, and
// whose report it was ("seg 100 is outside 0..99 (position report of car 7 at time 20)"), when
// the line had 15 integers; else what was wrong with its shape. `record` is the one
// parse_input_line filled in.
std::string input_reject_message(InputReject reason, const InputRecord& record);

// The part of an accepted record that is left out.
enum class InputWarning : std::uint8_t {
  none,   // the whole record is used
  speed,  // a position report's speed outside 0..100: kept, its speed left out of the statistics
};

// Which part of `record` (accepted by parse_input_line) is left out.
InputWarning input_warning(const InputRecord& record);

// "speed -2 of the position report of car 7 at time 20 is outside 0..100: the report is kept,
// its speed is left out of the segment statistics".
std::string input_warning_message(InputWarning warning, const InputRecord& record);

// Counts rejected lines per reason and keeps the first few line numbers of each reason.
class InputRejectTally {
 public:
  static constexpr std::size_t kKeptLines = 5;

  void add(InputReject reason, std::uint64_t line_number);

  std::uint64_t total() const { return total_; }
  std::uint64_t count(InputReject reason) const {
    return counts_[static_cast<std::size_t>(reason)];
  }
  // Line numbers of the first (up to kKeptLines) lines rejected for `reason`.
  const std::vector<std::uint64_t>& first_lines(InputReject reason) const {
    return first_[static_cast<std::size_t>(reason)];
  }
  // Checkpoints (lr_source).
  void save(SnapshotWriter& out) const;
  void restore(SnapshotReader& in);

 private:
  std::uint64_t total_ = 0;
  std::array<std::uint64_t, kInputRejectKinds> counts_{};
  std::array<std::vector<std::uint64_t>, kInputRejectKinds> first_;
};

}  // namespace cwf::lr
