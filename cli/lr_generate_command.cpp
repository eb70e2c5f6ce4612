// `cwf lr generate`: a Linear Road dataset from our own traffic simulation
// (linear_road/traffic_generator.hpp), deterministic per seed.
#include <charconv>
#include <chrono>
#include <filesystem>
#include <limits>
#include <ostream>
#include <sstream>
#include <string>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "linear_road/csv_file_writer.hpp"
#include "linear_road/historical_tolls.hpp"
#include "linear_road/segment_minute_summary.hpp"
#include "linear_road/traffic_generator.hpp"

namespace cwf::cli {

namespace {

const char* kGenerateUsage =
    R"(usage: cwf lr generate --out DIR [--xways L] [--minutes M] [--seed S]

Simulates traffic on L expressways for M minutes and writes a Linear Road dataset:
  DIR/input.dat              position reports and queries, sorted by time (FORMAT.md's 15 fields)
  DIR/historical-tolls.dat   carid,day,xway,toll for every car and day 1..69
  DIR/README                 what was generated: lines per type, cars, re-entries, accidents
The same arguments always give byte-identical files.

  --xways L     expressways, 1..1000 (default 1)
  --minutes M   simulated minutes, 1..10080 (default 180, the benchmark's three hours)
  --seed S      any unsigned 64-bit number (default 1)
)";

// A whole number in [low, high] or a usage error naming the option.
std::uint64_t parse_whole(const std::optional<std::string>& text, const char* option,
                          std::uint64_t fallback, std::uint64_t low, std::uint64_t high) {
  if (!text) return fallback;
  std::uint64_t value = 0;
  const char* end = text->data() + text->size();
  auto [ptr, error] = std::from_chars(text->data(), end, value);
  if (text->empty() || error != std::errc() || ptr != end || value < low || value > high) {
    throw UsageError(std::string("--") + option + " expects a whole number from " +
                     std::to_string(low) + " to " + std::to_string(high) + " (got '" + *text +
                     "')");
  }
  return value;
}

std::string describe(const lr::TrafficOptions& options, const lr::TrafficStats& stats,
                     const lr::SegmentMinuteSummary& summary) {
  std::ostringstream text;
  text << "Linear Road dataset from `cwf lr generate --xways " << options.xways << " --minutes "
       << options.minutes << " --seed " << options.seed << "`\n\n"
       << "input.dat: "
       << stats.position_reports + stats.balance_queries + stats.expenditure_queries << " lines\n"
       << "  type 0 position reports:    " << summary.lines_of_type(0) << "\n"
       << "  type 2 account balance:     " << summary.lines_of_type(2) << "\n"
       << "  type 3 daily expenditure:   " << summary.lines_of_type(3) << "\n"
       << "cars: " << stats.cars << " (carid 0.." << stats.cars - 1 << "), trips: " << stats.trips
       << ", re-entries: " << stats.reentries << "\n"
       << "accidents planted: " << stats.accidents_planted << " of " << stats.accidents_scheduled
       << " scheduled\n"
       << "busiest segment-minute: " << summary.busiest_cars() << " cars, mean speed "
       << summary.busiest_mean_speed() << " mph\n"
       << "congested segment-minutes (> 50 cars, mean speed < 40 mph): " << summary.congested()
       << "\n"
       << "historical-tolls.dat: " << stats.cars * lr::kHistoryDays << " lines\n";
  return text.str();
}

}  // namespace

int lr_generate_command(const Words& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) {
    out << kGenerateUsage;
    return 0;
  }
  lr::TrafficOptions options;
  std::filesystem::path dir;
  try {
    Arguments parsed(args, {}, {"xways", "minutes", "seed", "out"});
    if (!parsed.positional().empty())
      throw UsageError("unexpected argument '" + parsed.positional()[0] + "'");
    if (!parsed.value("out")) throw UsageError("--out DIR is required");
    dir = *parsed.value("out");
    options.xways = static_cast<int>(parse_whole(parsed.value("xways"), "xways", 1, 1, 1000));
    options.minutes =
        static_cast<int>(parse_whole(parsed.value("minutes"), "minutes", 180, 1, 10080));
    options.seed =
        parse_whole(parsed.value("seed"), "seed", 1, 0, std::numeric_limits<std::uint64_t>::max());
  } catch (const UsageError& e) {
    err << "cwf lr generate: " << e.what() << " (cwf lr generate --help)\n";
    return 2;
  }

  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error || !std::filesystem::is_directory(dir)) {
    err << "cwf lr generate: cannot create directory " << dir.string() << ": "
        << (error ? error.message() : "a file of that name exists") << "\n";
    return 2;
  }

  const auto started = std::chrono::steady_clock::now();
  const std::string input_path = (dir / "input.dat").string();
  const std::string tolls_path = (dir / "historical-tolls.dat").string();
  lr::CsvFileWriter input(input_path);
  if (!input.ok()) {
    err << "cwf lr generate: cannot write " << input_path << "\n";
    return 1;
  }
  lr::SegmentMinuteSummary summary(options.xways);
  lr::TrafficGenerator generator(options);
  generator.run([&](const lr::InputRecord& record) {
    input.line(record);
    summary.add(record);
  });
  summary.finish();
  if (!input.close()) {
    err << "cwf lr generate: writing " << input_path << " failed\n";
    return 1;
  }

  lr::CsvFileWriter tolls(tolls_path);
  lr::generate_historical_tolls(generator.stats().cars, options.xways, options.seed,
                                generator.expenditure_questions(),
                                [&](const lr::HistoricalToll& row) {
                                  tolls.line({row.carid, row.day, row.xway, row.toll});
                                });
  if (!tolls.close()) {
    err << "cwf lr generate: writing " << tolls_path << " failed\n";
    return 1;
  }

  const std::string readme = describe(options, generator.stats(), summary);
  {
    std::FILE* file = std::fopen((dir / "README").string().c_str(), "wb");
    if (!file || std::fwrite(readme.data(), 1, readme.size(), file) != readme.size() ||
        std::fclose(file) != 0) {
      err << "cwf lr generate: cannot write " << (dir / "README").string() << "\n";
      return 1;
    }
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
  out << readme << "written to " << dir.string() << " in " << elapsed.count() << " s\n";
  return 0;
}

}  // namespace cwf::cli
