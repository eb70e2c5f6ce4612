// `cwf lr reference`: the single-threaded reference implementation of Linear Road
// (linear_road/reference.hpp) over an input file, answers to a file in the product format.
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <string>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "cli/lr_paths.hpp"
#include "linear_road/answer_writer.hpp"
#include "linear_road/historical_toll_table.hpp"
#include "linear_road/input_parser.hpp"
#include "linear_road/reference_run.hpp"

namespace cwf::cli {

namespace {

const char* kReferenceUsage =
    R"(usage: cwf lr reference --input FILE [--tolls FILE] --out FILE

Runs the single-threaded reference implementation of Linear Road over an input file and writes
its answers, one per line, in the product format of FORMAT.md:
  0,carid,time,emit,lav,toll          toll notification
  1,time,emit,xway,accseg,dir,carid   accident alert
  2,time,emit,resulttime,qid,balance  account balance
  3,time,emit,qid,toll                daily expenditure
emit = time: the reference answers instantly by definition. Prints the answers per type,
malformed input lines per reason (skipped), position reports kept without their speed (a speed
outside 0..100 is left out of the statistics; the first ones are shown as warnings), and the
speed.

  --input FILE  the input (15 comma-separated fields a line); FILE.xz is read decompressed
  --tolls FILE  historical tolls (carid,day,xway,toll) for daily-expenditure queries; default
                historical-tolls.dat or historical-tolls.dat.xz beside the input, if present
  --out FILE    where the answers go; '-' for standard output (the summary then goes to the
                error stream)

Exit status: 0 when every input line was used and every answer written; 3 when lines were
rejected or skipped (their answers are missing) or the answers could not all be written; 2 for
bad usage or an input that cannot be read; 1 when reading failed part way.
)";

}  // namespace

int lr_reference_command(const Words& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) {
    out << kReferenceUsage;
    return 0;
  }
  std::string input, tolls, output;
  try {
    Arguments parsed(args, {}, {"input", "tolls", "out"});
    if (!parsed.positional().empty())
      throw UsageError("unexpected argument '" + parsed.positional()[0] + "'");
    if (!parsed.value("input")) throw UsageError("--input FILE is required");
    if (!parsed.value("out")) throw UsageError("--out FILE is required ('-' for standard output)");
    input = *parsed.value("input");
    output = *parsed.value("out");
    tolls = parsed.value("tolls").value_or(default_tolls_path(input));
  } catch (const UsageError& e) {
    err << "cwf lr reference: " << e.what() << " (cwf lr reference --help)\n";
    return 2;
  }
  std::ostream& report = output == "-" ? err : out;

  lr::HistoricalTollTable history;
  if (!tolls.empty()) {
    const auto started = std::chrono::steady_clock::now();
    lr::HistoricalTollTable::LoadResult loaded = history.load(tolls);
    if (!loaded.error.empty()) {
      err << "cwf lr reference: " << loaded.error << "\n";
      return loaded.opened ? 1 : 2;
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    report << "historical tolls: " << loaded.rows << " rows from " << tolls << " (" << std::fixed
           << std::setprecision(2) << seconds << " s)";
    if (loaded.malformed > 0) {
      report << ", " << loaded.malformed << " malformed, first at line";
      for (std::uint64_t line : loaded.first_malformed_lines)
        report << " " << line;
    }
    report << "\n";
  } else {
    report << "historical tolls: none (daily-expenditure queries are answered with 0)\n";
  }

  lr::AnswerWriter writer;
  if (output == "-") {
    writer.attach(1);
  } else if (!writer.open(output)) {
    err << "cwf lr reference: cannot write " << writer.error() << "\n";
    return 2;
  }
  lr::ReferenceRun run = lr::run_reference(input, history, writer);
  bool written = writer.close();
  if (!run.opened) {
    err << "cwf lr reference: cannot read " << run.error << "\n";
    return 2;
  }

  const lr::Reference::Counts& c = run.counts;
  report << "input: " << run.lines << " lines, " << run.records << " records ("
         << c.position_reports << " position reports, " << c.balance_queries << " account-balance, "
         << c.expenditure_queries << " daily-expenditure, " << c.travel_time_queries
         << " travel-time queries, not answered)\n";
  print_rejects(run.rejects, report);
  print_speeds_left_out(run.speeds_left_out, report);
  for (const std::string& warning : run.first_warnings)
    err << "cwf lr reference: warning: " << warning << "\n";
  if (run.out_of_order > 0) report << "out of time order (skipped): " << run.out_of_order << "\n";
  report << "answers: " << writer.lines() << " lines to " << output << "\n"
         << "  0 toll notifications:  " << c.tolls << " (" << c.nonzero_tolls << " non-zero)\n"
         << "  1 accident alerts:     " << c.alerts << "\n"
         << "  2 account balances:    " << c.balances << "\n"
         << "  3 daily expenditures:  " << c.expenditures;
  if (c.unknown_expenditures > 0)
    report << " (" << c.unknown_expenditures << " without a historical row: 0)";
  report << "\n"
         << "re-entering cars (new trips): " << c.new_trips << "\n"
         << "accidents: " << run.accidents.size() << "\n";
  for (const auto& a : run.accidents) {
    report << "  xway " << a.xway << " dir " << a.dir << " seg " << a.seg << " pos " << a.pos
           << " cars " << a.car1 << "," << a.car2 << ": detected " << a.detected
           << " s, alerts in minutes " << a.first_minute() << ".." << a.last_minute() << "\n";
  }
  double rate = run.seconds > 0 ? static_cast<double>(run.lines) / run.seconds : 0;
  report << "time: " << std::fixed << std::setprecision(2) << run.seconds << " s, "
         << std::setprecision(0) << rate << " tuples/s\n";

  if (!run.error.empty()) {
    err << "cwf lr reference: " << run.error << "\n";
    return 1;
  }
  if (!written) {
    err << "cwf lr reference: writing " << output << ": " << writer.error()
        << ": answers may be lost (exit status 3)\n";
    return kExitIncomplete;
  }
  if (run.rejects.total() + run.out_of_order > 0) {
    err << "cwf lr reference: " << run.rejects.total() << " input line(s) rejected and "
        << run.out_of_order
        << " skipped as out of time order (listed above): exit status 3, the answers do not "
           "cover them\n";
    return kExitIncomplete;
  }
  return kExitOk;
}

}  // namespace cwf::cli
