// Runs the reference implementation over an input file (plain or .xz): read, parse, reject
// malformed lines, keep reports with an out-of-range speed (warnings), process, hand the answers
// to a sink, and measure how long it took.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "linear_road/answer_sink.hpp"
#include "linear_road/historical_toll_table.hpp"
#include "linear_road/input_parser.hpp"
#include "linear_road/reference.hpp"

namespace cwf::lr {

struct ReferenceRun {
  bool opened = false;
  std::string error;  // the input could not be opened or read to its end
  std::uint64_t lines = 0;
  std::uint64_t records = 0;       // valid lines processed
  std::uint64_t out_of_order = 0;  // valid lines earlier than the previous record: skipped
  InputRejectTally rejects;
  // Position reports kept with their speed left out (input_warning): how many, and the first
  // kWarningsKept as "FILE:LINE: message".
  static constexpr std::size_t kWarningsKept = 5;
  std::uint64_t speeds_left_out = 0;
  std::vector<std::string> first_warnings;
  Reference::Counts counts;
  std::vector<AccidentTracker::Accident> accidents;
  double seconds = 0;  // reading, parsing and processing, not loading the historical tolls
};

// Stops after `max_lines` lines when it is not 0.
ReferenceRun run_reference(const std::string& input_path, const HistoricalTollTable& history,
                           AnswerSink& sink, std::uint64_t max_lines = 0);

}  // namespace cwf::lr
