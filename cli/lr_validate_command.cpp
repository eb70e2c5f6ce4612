// `cwf lr validate`: compares a product's answers with expected answers (linear_road/
// validation.hpp) and prints the report. Exit 0: nothing missing, wrong, unexplained-extra,
// late or malformed; 1: something is; 2: bad usage or an unreadable file.
#include <charconv>
#include <ostream>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "linear_road/integer_file.hpp"
#include "linear_road/validation.hpp"

namespace cwf::cli {

namespace {

const char* kUsage =
    "usage: cwf lr validate --expected DIR --actual FILE [--input FILE] [--show N]\n"
    "  compares the answers in FILE with the expected answers, per answer type: missing, wrong,\n"
    "  extra and late answers, with the first N of each shown (--show, default a few)\n"
    "  DIR: the shared dataset (expected-perl-*) or a directory with expected.out\n"
    "  exit status: 0 PASS; 1 FAIL; 2 bad usage or a file that cannot be read\n";

std::size_t parse_show(const std::string& text) {
  std::size_t n = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || ptr != text.data() + text.size())
    throw UsageError("--show expects a whole number (got '" + text + "')");
  return n;
}

}  // namespace

int lr_validate_command(const Words& words, std::ostream& out, std::ostream& err) {
  lr::ValidationOptions options;
  if (wants_help(words)) {
    out << kUsage;
    return 0;
  }
  try {
    Arguments args(words, {}, {"expected", "actual", "input", "show"});
    if (!args.positional().empty())
      throw UsageError("unexpected argument '" + args.positional().front() + "'");
    auto expected = args.value("expected");
    auto actual = args.value("actual");
    if (!expected || !actual) throw UsageError("--expected and --actual are required");
    options.expected_dir = *expected;
    options.actual_path = *actual;
    options.input_path = args.value("input").value_or("");
    if (auto show = args.value("show")) options.show = parse_show(*show);
  } catch (const UsageError& e) {
    err << "cwf lr validate: " << e.what() << '\n' << kUsage;
    return 2;
  }
  try {
    lr::ValidationReport report = lr::validate_answers(options);
    lr::print_validation_report(report, out);
    return report.passed() ? 0 : 1;
  } catch (const lr::DataFileError& e) {
    err << "cwf lr validate: " << e.what() << '\n';
    return 2;
  }
}

}  // namespace cwf::cli
