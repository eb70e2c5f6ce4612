// The shipped example workflows, run through the `cwf` binary under every director and policy, must
// print exactly the expected output.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "process.hpp"

namespace cwf::testing {
namespace {

const std::string kExamples = std::string(CWF_SOURCE_DIR) + "/workflows/examples/";

using Example = ShippedWorkflow;

class Examples : public ::testing::TestWithParam<std::tuple<Example, std::string>> {};

TEST_P(Examples, PrintExactlyTheExpectedOutput) {
  auto [example, director] = GetParam();
  expect_output(kExamples + example.name + ".yaml", kExamples + "expected/" + example.name + ".out",
                director, example.ordered);
}

INSTANTIATE_TEST_SUITE_P(EveryDirector, Examples,
                         ::testing::Combine(::testing::Values(Example{"sensor_alerts", true},
                                                              Example{"order_items", true},
                                                              Example{"squares", true},
                                                              Example{"input_errors", false},
                                                              Example{"order_payments", false},
                                                              Example{"order_prices", true}),
                                            ::testing::ValuesIn(kEveryDirector)),
                         [](const auto& info) {
                           return std::get<0>(info.param).name + "_" +
                                  director_label(std::get<1>(info.param));
                         });

// The interval join's three outputs go to three sinks and interleave freely; each kind of line
// comes in time order, under every director.
class OrderPayments : public ::testing::TestWithParam<std::string> {};

TEST_P(OrderPayments, EachKindOfLineComesInTimeOrder) {
  std::string director = GetParam();
  std::vector<std::string> args = {"run", kExamples + "order_payments.yaml", "--director",
                                   director};
  if (auto colon = director.find(':'); colon != std::string::npos) {
    args[3] = director.substr(0, colon);
    args.insert(args.end(), {"--scheduler", director.substr(colon + 1)});
  }
  ProcessResult result = run_cwf(args);
  ASSERT_EQ(result.status, 0) << result.err;
  auto of_kind = [](const std::string& text, const std::string& prefix) {
    std::vector<std::string> kind;
    for (const std::string& line : lines_of(text))
      if (line.rfind(prefix, 0) == 0) kind.push_back(line);
    return kind;
  };
  std::string expected = read_file(kExamples + "expected/order_payments.out");
  for (const char* prefix : {"{\"paid\"", "{\"unpaid\"", "{\"unknown_payment\""}) {
    SCOPED_TRACE(prefix);
    EXPECT_FALSE(of_kind(expected, prefix).empty());
    EXPECT_EQ(of_kind(result.out, prefix), of_kind(expected, prefix));
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDirector, OrderPayments, ::testing::ValuesIn(kEveryDirector),
                         [](const auto& info) { return director_label(info.param); });

// The example sends malformed lines to its `errors` port: the workflow handles them (here, by
// printing them), so nothing is lost and the run is complete.
TEST(Examples, MalformedInputSentToTheErrorsPortIsHandledNotLost) {
  ProcessResult result = run_cwf({"run", kExamples + "input_errors.yaml"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_NE(result.out.find(R"({"bad_line":4,"error":"expected 3 fields, found 2"})"),
            std::string::npos)
      << result.out;
}

// The ticks of an endless source, stopped by time or by Ctrl-C, are a gap-free prefix 0, 1, 2...
void expect_contiguous_ticks(const std::string& out, std::size_t at_least) {
  std::vector<std::string> lines = lines_of(out);
  ASSERT_GE(lines.size(), at_least) << out;
  for (std::size_t i = 0; i < lines.size(); ++i)
    ASSERT_EQ(lines[i], "{\"tick\":" + std::to_string(i) + "}");
}

TEST(Examples, ForDurationStopsAnEndlessSourceAndDrains) {
  for (const std::string director : {"scheduled", "threaded"}) {
    ProcessResult result =
        run_cwf({"run", kExamples + "ticker.yaml", "--for", "450ms", "--director", director});
    ASSERT_EQ(result.status, 0) << result.err;
    expect_contiguous_ticks(result.out, 3);
    EXPECT_LE(lines_of(result.out).size(), 30u) << "ran far past --for under " << director;
  }
}

TEST(Examples, InterruptStopsDrainsPrintsTheSummaryAndExitsZero) {
  ProcessResult result = run_cwf({"run", kExamples + "ticker.yaml", "--stats"}, 400);
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.err.find("interrupted"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("firings"), std::string::npos) << result.err;  // the summary table
  expect_contiguous_ticks(result.out, 1);
}

}  // namespace
}  // namespace cwf::testing
