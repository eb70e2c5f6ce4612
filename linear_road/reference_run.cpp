#include "linear_road/reference_run.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>

#include "actors/line_reader.hpp"

namespace cwf::lr {

ReferenceRun run_reference(const std::string& input_path, const HistoricalTollTable& history,
                           AnswerSink& sink, std::uint64_t max_lines) {
  ReferenceRun run;
  actors::LineReader reader;
  if (!reader.open(input_path)) {
    run.error = input_path + ": " + std::strerror(errno);
    return run;
  }
  run.opened = true;
  const auto started = std::chrono::steady_clock::now();
  Reference reference(sink, history);
  std::string_view line;
  InputRecord record;
  Seconds latest = 0;
  while ((max_lines == 0 || run.lines < max_lines) && reader.next(line)) {
    ++run.lines;
    InputReject reason = parse_input_line(line, record);
    if (reason != InputReject::none) {
      run.rejects.add(reason, reader.line_number());
      continue;
    }
    // The reference's windows assume time order; a record from the past would corrupt them.
    if (record.time < latest) {
      ++run.out_of_order;
      continue;
    }
    latest = record.time;
    if (InputWarning warning = input_warning(record); warning != InputWarning::none) {
      if (run.first_warnings.size() < ReferenceRun::kWarningsKept)
        run.first_warnings.push_back(input_path + ":" + std::to_string(reader.line_number()) +
                                     ": " + input_warning_message(warning, record));
      ++run.speeds_left_out;
    }
    reference.process(record);
    ++run.records;
  }
  if (!reader.error().empty()) run.error = input_path + ": " + reader.error();
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  run.counts = reference.counts();
  run.accidents = reference.accidents();
  return run;
}

}  // namespace cwf::lr
