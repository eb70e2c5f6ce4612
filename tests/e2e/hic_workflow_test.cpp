// The health-insurance-claim workflow (workflows/examples/hic) run through the `cwf` binary under
// every director, its event history queried with `cwf history`: both branches must leave exactly
// the paper's sequence of occurrences per claim.
#include <gtest/gtest.h>

#include <unistd.h>

#include "process.hpp"

namespace cwf::testing {
namespace {

const std::string kHic = std::string(CWF_SOURCE_DIR) + "/workflows/examples/hic/hic.yaml";

// 240 CHF: accepted directly (HandleHIC -> LogClaim -> PrepAccept -> Print).
const std::vector<std::string> kSmallClaim = {
    "1700000000.000 REQ(HIC) HIC-1",
    "1700000000.000 REQ(HandleHIC) HIC-1",
    "1700000300.000 RPL(HandleHIC.Done) HIC-1",
    "1700000300.000 REQ(LogClaim) HIC-1",
    "1700000360.000 RPL(LogClaim.Done) HIC-1",
    "1700000360.000 REQ(PrepAccept) HIC-1",
    "1700000960.000 RPL(PrepAccept.Done) HIC-1",
    "1700000960.000 DEX(RPL(PrepAccept.Done), RPL(PrepReject.Done)) HIC-1",
    "1700000960.000 REQ(Print) HIC-1",
    "1700001080.000 RPL(Print.JobCompleted) HIC-1",
    "1700001080.000 RPL(HIC.Done) HIC-1",
};

// 860 CHF, every control passed: the three controls in parallel, rule R1, then accepted.
const std::vector<std::string> kLargeAccepted = {
    "1700000600.000 REQ(HIC) HIC-2",
    "1700000600.000 REQ(HandleHIC) HIC-2",
    "1700000900.000 RPL(HandleHIC.Done) HIC-2",
    "1700000900.000 REQ(CntrlCoverage) HIC-2",
    "1700000900.000 REQ(SW1) HIC-2",
    "1700000900.000 REQ(SW2) HIC-2",
    "1700000900.000 REQ(CntrlMedication) HIC-2",
    "1700000900.000 REQ(CntrlTreatment) HIC-2",
    "1700001080.000 RPL(CntrlCoverage.OK) HIC-2",
    "1700001500.000 RPL(CntrlMedication.Done) HIC-2",
    "1700001500.000 RPL(SW1.Done) HIC-2",
    "1700002100.000 RPL(CntrlTreatment.Done) HIC-2",
    "1700002100.000 RPL(SW2.Done) HIC-2",
    "1700002100.000 CON(RPL(CntrlCoverage.OK), CON(RPL(SW1.Done), RPL(SW2.Done))) HIC-2",
    "1700002100.000 REQ(LogClaim) HIC-2",
    "1700002160.000 RPL(LogClaim.Done) HIC-2",
    "1700002160.000 REQ(PrepAccept) HIC-2",
    "1700002760.000 RPL(PrepAccept.Done) HIC-2",
    "1700002760.000 DEX(RPL(PrepAccept.Done), RPL(PrepReject.Done)) HIC-2",
    "1700002760.000 REQ(Print) HIC-2",
    "1700002880.000 RPL(Print.JobCompleted) HIC-2",
    "1700002880.000 RPL(HIC.Done) HIC-2",
};

// 1,450 CHF, cheaper medication available (SW1's control fails): rejected.
const std::vector<std::string> kLargeRejected = {
    "1700001200.000 REQ(HIC) HIC-3",
    "1700001200.000 REQ(HandleHIC) HIC-3",
    "1700001500.000 RPL(HandleHIC.Done) HIC-3",
    "1700001500.000 REQ(CntrlCoverage) HIC-3",
    "1700001500.000 REQ(SW1) HIC-3",
    "1700001500.000 REQ(SW2) HIC-3",
    "1700001500.000 REQ(CntrlMedication) HIC-3",
    "1700001500.000 REQ(CntrlTreatment) HIC-3",
    "1700001680.000 RPL(CntrlCoverage.OK) HIC-3",
    "1700002100.000 RPL(CntrlMedication.Done) HIC-3",
    "1700002100.000 RPL(SW1.Done) HIC-3",
    "1700002700.000 RPL(CntrlTreatment.Done) HIC-3",
    "1700002700.000 RPL(SW2.Done) HIC-3",
    "1700002700.000 CON(RPL(CntrlCoverage.OK), CON(RPL(SW1.Done), RPL(SW2.Done))) HIC-3",
    "1700002700.000 REQ(LogClaim) HIC-3",
    "1700002760.000 RPL(LogClaim.Done) HIC-3",
    "1700002760.000 REQ(PrepReject) HIC-3",
    "1700003360.000 RPL(PrepReject.Done) HIC-3",
    "1700003360.000 DEX(RPL(PrepAccept.Done), RPL(PrepReject.Done)) HIC-3",
    "1700003360.000 REQ(Print) HIC-3",
    "1700003480.000 RPL(Print.JobCompleted) HIC-3",
    "1700003480.000 RPL(HIC.Done) HIC-3",
};

std::string history_file(const std::string& director, const std::string& clock) {
  return ::testing::TempDir() + "cwf_hic_history_" + std::to_string(getpid()) + "_" +
         director_label(director) + "_" + clock + ".jsonl";
}

// Under every director, on either clock: the workflow's times are its events' own.
class HicWorkflow : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(HicWorkflow, BothBranchesLeaveThePapersEventHistory) {
  auto [director, clock] = GetParam();
  std::string history = history_file(director, clock);
  std::vector<std::string> run = {"run",     kHic, "--set", "history.path=" + history,
                                  "--clock", clock};
  for (const std::string& a : director_args(director))
    run.push_back(a);
  ProcessResult result = run_cwf(run);
  ASSERT_EQ(result.status, 0) << result.err;

  for (const auto& [instance, expected] :
       {std::pair{"HIC-1", kSmallClaim}, std::pair{"HIC-2", kLargeAccepted},
        std::pair{"HIC-3", kLargeRejected}}) {
    ProcessResult query = run_cwf({"history", history, "--instance", instance, "--format", "text"});
    ASSERT_EQ(query.status, 0) << query.err;
    EXPECT_EQ(lines_of(query.out), expected) << instance;
  }
  ProcessResult done = run_cwf({"history", history, "--type", "RPL(HIC.Done)", "--format", "text"});
  EXPECT_EQ(lines_of(done.out).size(), 3u) << done.out;
}

INSTANTIATE_TEST_SUITE_P(EveryDirector, HicWorkflow,
                         ::testing::Combine(::testing::ValuesIn(kEveryDirector),
                                            ::testing::Values("real", "virtual")),
                         [](const auto& info) {
                           return director_label(std::get<0>(info.param)) + "_" +
                                  std::get<1>(info.param);
                         });

TEST(HicWorkflow, HistoryErrorsAreClear) {
  ProcessResult missing = run_cwf({"history"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("missing the history FILE"), std::string::npos) << missing.err;
  ProcessResult no_file = run_cwf({"history", "/nonexistent/history.jsonl", "--instance", "x"});
  EXPECT_EQ(no_file.status, 1);
  EXPECT_EQ(no_file.err, "cwf history: /nonexistent/history.jsonl: cannot open the history file\n");
}

}  // namespace
}  // namespace cwf::testing
