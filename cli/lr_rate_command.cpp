// `cwf lr rate`: the L-rating of the Linear Road workflow (linear_road/rating.hpp): the input
// replicated for L expressways and paced with time compression k, every answer's response time
// measured, the answers compared with the reference's on the same stream; or, with --afap, the
// throughput of the workflow and of the reference on the same replicated stream.
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <ostream>
#include <string>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/load.hpp"
#include "cli/lr_paths.hpp"
#include "cli/registries.hpp"
#include "cli/summary.hpp"
#include "linear_road/rating.hpp"
#include "linear_road/workflow_location.hpp"

namespace cwf::cli {

namespace fs = std::filesystem;

namespace {

const char* kRateUsage =
    R"(usage: cwf lr rate --input FILE|DIR [--xways L1,L2,... | --max-xways N] [options]
       cwf lr rate --input FILE|DIR --afap [--xways L1,L2,...] [options]

The L-rating: replays the input replicated for L expressways (copy i of every tuple gets
xway + i*X, carid + i*C, qid + i*Q; the historical tolls likewise) with time compression K (the
tuple with Time t is released at t/K s), measures every answer's response time (wall emit - wall
release, times K: simulated seconds), and runs the reference implementation on the same stream.
An L passes when no answer is late (over 5 s for types 0-2, 10 s for type 3) and the workflow's
answers are exactly the reference's. The rating is the largest L that passed. Progress goes to
standard error.

  --input FILE|DIR    the input (FILE.xz read decompressed), or a directory holding input.dat
                      (e.g. one written by cwf lr generate)
  --tolls FILE        historical tolls; default historical-tolls.dat[.xz] beside the input
  --compression K     time compression (default 60)
  --xways L1,L2,...   the L to try, in order (default: a search up to --max-xways)
  --max-xways N       doubling from 1 while L passes, then bisection (default 1024)
  --minutes M         replay only the first M minutes of the input (default: all)
  --afap              as fast as possible: tuples/s of the workflow and of the reference on the
                      same replicated stream (--xways, default 1); no response-time limit
  --answers DIR       keep both answer files per L (DIR/L<n>/answers.out, expected.out) and
                      validate them with the exact comparison of cwf lr validate too
  --keep-going        do not stop a paced run at its first late answer
  --progress S        seconds between progress lines (default 5)
  --workflow FILE     default workflows/linear_road.yaml
  --set ACTOR.PARAM=VALUE
                      set a parameter of an actor of the workflow, after the rating's own
                      (repeatable; as cwf run --set)
  --director scheduled|threaded, --scheduler fifo|qbs|rr|rb, --workers N
                      override the workflow's director
)";

std::int64_t parse_int(const std::string& text, const std::string& option, std::int64_t low,
                       std::int64_t high) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < low || value > high)
    throw UsageError("--" + option + " expects a whole number from " + std::to_string(low) +
                     " to " + std::to_string(high) + " (got '" + text + "')");
  return value;
}

double parse_real(const std::string& text, const std::string& option, double low) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || !(value >= low) || value > 1e6)
    throw UsageError("--" + option + " expects a number of at least " + std::to_string(low) +
                     " (got '" + text + "')");
  return value;
}

std::vector<std::int32_t> parse_xways(const std::string& text) {
  std::vector<std::int32_t> list;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = text.find(',', start);
    std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    list.push_back(static_cast<std::int32_t>(parse_int(item, "xways", 1, 100'000)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return list;
}

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

// 1234567 -> "1,234,567"
std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

const char* kTypeNames[4] = {"0 toll notifications", "1 accident alerts", "2 account balances",
                             "3 daily expenditures"};

void print_trial(const lr::RatingTrial& t, bool afap, std::ostream& out) {
  out << "L = " << t.xways << ": " << grouped(t.tuples) << " tuples in " << fixed(t.seconds, 2)
      << " s, " << grouped(static_cast<std::uint64_t>(t.tuples_per_second)) << " tuples/s";
  if (afap) {
    out << "; reference " << fixed(t.reference_seconds, 2) << " s, "
        << grouped(static_cast<std::uint64_t>(t.reference_tuples_per_second)) << " tuples/s";
    if (t.reference_tuples_per_second > 0)
      out << "; workflow / reference = "
          << fixed(t.tuples_per_second / t.reference_tuples_per_second, 2);
  }
  out << "\n";
  if (!afap) {
    out << "  response time (simulated s)   answers     mean      p50      p99      max   late\n";
    for (std::size_t i = 0; i < 4; ++i) {
      const lr::ResponseHistogram& h = t.responses[i];
      char line[256];
      std::snprintf(line, sizeof line, "  %-26s %10s %8.3f %8.3f %8.3f %8.3f %6llu\n",
                    kTypeNames[i], grouped(t.answers[i]).c_str(), t.simulated(h.mean()),
                    t.simulated(h.percentile(0.5)), t.simulated(h.percentile(0.99)),
                    t.simulated(h.max()), static_cast<unsigned long long>(t.late[i]));
      out << line;
    }
  } else {
    out << "  answers:";
    for (std::size_t i = 0; i < 4; ++i)
      out << " " << kTypeNames[i] << " " << grouped(t.answers[i]) << (i < 3 ? "," : "\n");
  }
  out << "  validation: ";
  if (t.stopped_early) {
    out << "not run (stopped at Time " << t.stopped_at << " s, minute "
        << lr::minute_of(t.stopped_at) << ", at the first late answers)\n";
  } else {
    if (t.answers_match)
      out << "the reference's answers exactly ("
          << grouped(t.expected[0] + t.expected[1] + t.expected[2] + t.expected[3]) << ")";
    else {
      out << "DIFFERENT from the reference's (expected per type";
      for (std::size_t i = 0; i < 4; ++i)
        out << " " << grouped(t.expected[i]);
      out << ")";
    }
    if (t.source_errors > 0) out << "; " << t.source_errors << " malformed or unordered lines";
    if (t.report) out << "; cwf lr validate (exact): " << (t.report->passed() ? "PASS" : "FAIL");
    out << "\n";
  }
  if (!afap) out << "  verdict: " << (t.passed() ? "PASS" : "FAIL") << "\n";
}

}  // namespace

int lr_rate_command(const Words& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) {
    out << kRateUsage;
    return 0;
  }
  lr::RatingOptions options;
  std::vector<std::int32_t> list;
  std::int32_t max_xways = 1024;
  bool afap = false;
  try {
    Arguments parsed(args, {"afap", "keep-going"},
                     {"input", "tolls", "compression", "xways", "max-xways", "minutes", "answers",
                      "progress", "workflow", "director", "scheduler", "workers", "set"});
    if (!parsed.positional().empty())
      throw UsageError("unexpected argument '" + parsed.positional()[0] + "'");
    auto input = parsed.value("input");
    if (!input) throw UsageError("--input FILE|DIR is required");
    options.input = *input;
    std::error_code error;
    if (fs::is_directory(options.input, error)) {
      fs::path dir = options.input;
      options.input.clear();
      for (const char* name : {"input.dat", "input.dat.xz"})
        if (fs::is_regular_file(dir / name, error)) {
          options.input = (dir / name).string();
          break;
        }
      if (options.input.empty())
        throw UsageError("--input " + dir.string() + ": the directory holds no input.dat[.xz]");
    } else if (!fs::is_regular_file(options.input, error)) {
      throw UsageError("--input " + options.input + ": no such file or directory");
    }
    options.tolls = parsed.value("tolls").value_or(default_tolls_path(options.input));
    if (!options.tolls.empty() && !fs::is_regular_file(options.tolls, error))
      throw UsageError("--tolls " + options.tolls + ": no such file");
    afap = parsed.flag("afap");
    if (afap && parsed.value("compression"))
      throw UsageError("--afap runs as fast as possible: it takes no --compression");
    if (afap && parsed.value("max-xways"))
      throw UsageError("--afap measures throughput at given L (--xways), it does not search");
    if (parsed.value("xways") && parsed.value("max-xways"))
      throw UsageError("give --xways or --max-xways, not both");
    options.compression =
        afap ? 0 : parse_real(parsed.value("compression").value_or("60"), "compression", 0.001);
    if (auto x = parsed.value("xways")) list = parse_xways(*x);
    if (auto m = parsed.value("max-xways"))
      max_xways = static_cast<std::int32_t>(parse_int(*m, "max-xways", 1, 100'000));
    if (afap && list.empty()) list = {1};
    if (auto m = parsed.value("minutes"))
      options.minutes = static_cast<std::int32_t>(parse_int(*m, "minutes", 1, 1'000'000));
    if (auto p = parsed.value("progress"))
      options.progress_interval =
          static_cast<Duration>(parse_real(*p, "progress", 0.1) * static_cast<double>(kSecond));
    options.answers_dir = parsed.value("answers").value_or("");
    options.stop_when_late = !parsed.flag("keep-going");
    options.workflow = parsed.value("workflow").value_or(lr::find_linear_road_workflow());
    if (options.workflow.empty())
      throw UsageError(
          "cannot find workflows/linear_road.yaml (in the current directory or the source tree "
          "of this program); name it with --workflow FILE");
    options.settings = param_overrides(parsed);
    options.director = parsed.value("director").value_or("");
    options.scheduler = parsed.value("scheduler").value_or("");
    if (auto w = parsed.value("workers"))
      options.workers = static_cast<unsigned>(parse_int(*w, "workers", 1, 1024));
  } catch (const std::exception& e) {
    err << "cwf lr rate: " << e.what() << " (cwf lr rate --help)\n";
    return 2;
  }
  options.actors = &actor_registry();
  options.schedulers = &scheduler_registry();
  options.progress = [&err](const lr::RatingProgress& p) {
    err << "  L = " << p.xways << ", minute " << lr::minute_of(p.time) << ", " << grouped(p.tuples)
        << " tuples, " << grouped(static_cast<std::uint64_t>(p.tuples_per_second))
        << " tuples/s, p99 response " << fixed(p.p99, 3) << " s, late " << p.late << " ("
        << fixed(p.elapsed, 0) << " s)\n"
        << std::flush;
  };

  // A rating takes minutes (every L replays the whole input paced, then the reference runs over
  // the same stream): say so before the first silent stretch, the scan of the input.
  err << "cwf lr rate: this takes a while: "
      << (afap ? "every L runs the workflow and the reference as fast as possible"
               : "every L tried replays the input at compression " + fixed(options.compression, 3) +
                     ", then runs the reference over it" +
                     (list.empty() ? "; L doubles from 1 while it passes (up to " +
                                         std::to_string(max_xways) + "), then bisects"
                                   : std::string()))
      << ". Progress goes here every "
      << fixed(static_cast<double>(options.progress_interval) / static_cast<double>(kSecond), 0)
      << " s; reading the input first.\n"
      << std::flush;
  try {
    lr::Rater rater(options);
    const lr::ReplicaShape& shape = rater.shape();
    if (!afap)
      err << "cwf lr rate: the input spans " << shape.last_time << " s of data: about "
          << fixed(static_cast<double>(shape.last_time) / options.compression, 0)
          << " s of replay per L tried\n"
          << std::flush;
    out << "input: " << options.input << ", " << grouped(shape.records) << " records"
        << (options.minutes > 0 ? " in the first " + std::to_string(options.minutes) + " minutes"
                                : std::string())
        << "; copies remap xway + i*" << shape.xways << ", carid + i*" << shape.cars << ", qid + i*"
        << shape.qids << "\n";
    if (afap)
      out << "as fast as possible\n";
    else
      out << "compression " << fixed(options.compression, 3) << " (Time t released at t/"
          << fixed(options.compression, 3) << " s)\n";
    out << std::flush;
    lr::Rating rating = list.empty() ? rater.search(max_xways) : rater.rate_list(list);
    for (const lr::RatingTrial& t : rating.trials)
      print_trial(t, afap, out);
    if (afap) {
      bool all = true;
      for (const lr::RatingTrial& t : rating.trials)
        all = all && t.validated();
      out << "validation: " << (all ? "PASS" : "FAIL") << "\n";
      if (!rating.trials.empty()) {
        out << "per-actor statistics (L = " << rating.trials.back().xways << "):\n";
        print_summary(rating.trials.back().summary, out);
      }
      return all ? 0 : 1;
    }
    out << "L-rating: " << rating.rated << " (compression " << fixed(options.compression, 3)
        << ", director " << (rating.trials.empty() ? "" : rating.trials.front().director)
        << (options.minutes > 0 ? ", first " + std::to_string(options.minutes) + " minutes"
                                : std::string())
        << ")\n";
    if (const lr::RatingTrial* rated = rating.rated_trial()) {
      out << "per-actor statistics of the rated run (L = " << rated->xways << "):\n";
      print_summary(rated->summary, out);
    }
    return 0;
  } catch (const std::exception& e) {
    err << "cwf lr rate: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace cwf::cli
