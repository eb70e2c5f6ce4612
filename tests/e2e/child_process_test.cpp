// The test harness's child processes (tests/child_process.hpp): a command that does not end in
// time is killed with everything it started and fails the test, which names it and shows what it
// printed; a child running beside a test is stopped even when it ignores SIGTERM.
#include "tests/child_process.hpp"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace cwf::testing {
namespace {

using namespace std::chrono_literals;

// The failures the statement reports, instead of failing this test.
template <typename F>
std::vector<std::string> failures_of(F&& statement) {
  ::testing::TestPartResultArray results;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
    statement();
  }
  std::vector<std::string> messages;
  for (int i = 0; i < results.size(); ++i) {
    std::string m = results.GetTestPartResult(i).message();
    // ADD_FAILURE's own first line.
    if (m.rfind("Failed\n", 0) == 0) m.erase(0, 7);
    messages.push_back(m);
  }
  return messages;
}

// Whether process `pid` has ended (gone, or a zombie nobody reaped yet), waiting up to a minute
// for the kernel to finish a kill already sent.
bool ended(pid_t pid) {
  for (int i = 0; i < 6000; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return true;
    // "pid (comm) state ...": the state follows the last ')'.
    std::size_t paren = line.rfind(')');
    if (paren != std::string::npos && paren + 2 < line.size() &&
        (line[paren + 2] == 'Z' || line[paren + 2] == 'X'))
      return true;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

TEST(ChildProcess, ACommandThatEndsGivesItsStatusAndOutput) {
  ProcessResult r;
  auto failures = failures_of([&] {
    r = run_process({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"});
  });
  EXPECT_TRUE(failures.empty()) << failures.front();
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_FALSE(r.timed_out);
}

TEST(ChildProcess, TheProgramIsLookedUpOnThePath) {
  ProcessResult r = run_process({"sh", "-c", "exit 0"});
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(ChildProcess, AProgramThatCannotBeStartedExitsWith127) {
  ProcessResult r = run_process({"/nonexistent/program"});
  EXPECT_EQ(r.status, 127);
}

TEST(ChildProcess, ASleepingChildIsKilledAtTheTimeLimitAndFailsTheTest) {
  ProcessResult r;
  auto failures = failures_of([&] { r = run_process({"/bin/sleep", "300"}, {.timeout = 200ms}); });
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.status, 128 + SIGKILL);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0],
            "timed out after 0.2 s and killed: /bin/sleep 300\n"
            "--- its stdout so far:\n(nothing)\n"
            "--- its stderr so far:\n(nothing)\n");
}

// The shell prints, then waits for a sleep it started: the sleep holds the output pipes, so the
// call returns only because the whole process group was killed; the failure shows what was
// printed before.
TEST(ChildProcess, TheTimeLimitKillsWhatTheChildStartedAndShowsItsOutputSoFar) {
  ProcessResult r;
  auto failures = failures_of([&] {
    r = run_process(
        {"/bin/sh", "-c", "echo started; echo warming up >&2; sleep 300 & echo $!; wait"},
        {.timeout = 500ms});
  });
  EXPECT_TRUE(r.timed_out);
  ASSERT_EQ(failures.size(), 1u);
  std::istringstream out(r.out);
  std::string first;
  pid_t sleeper = 0;
  out >> first >> sleeper;
  EXPECT_EQ(first, "started");
  ASSERT_GT(sleeper, 0) << r.out;
  EXPECT_TRUE(ended(sleeper)) << "the sleep started by the child still runs";
  EXPECT_EQ(failures[0],
            "timed out after 0.5 s and killed: /bin/sh -c 'echo started; echo warming up >&2; "
            "sleep 300 & echo $!; wait'\n"
            "--- its stdout so far:\n" +
                r.out +
                "--- its stderr so far:\n"
                "warming up\n");
}

TEST(ChildProcess, AChildBesideTheTestEndsOnStop) {
  ChildProcess child({"/bin/sleep", "300"});
  const pid_t pid = child.pid();
  int status = 0;
  auto failures = failures_of([&] { status = child.stop(); });
  EXPECT_TRUE(failures.empty()) << failures.front();
  EXPECT_EQ(status, 128 + SIGTERM);
  EXPECT_TRUE(ended(pid));
}

TEST(ChildProcess, AChildIgnoringSigtermIsKilledWithItsGroupAndFailsTheTest) {
  // The shell ignores SIGTERM; so does the sleep it starts (ignored signals are inherited).
  const std::string pidfile = ::testing::TempDir() + "cwf_child_sleeper.pid";
  std::remove(pidfile.c_str());
  ChildProcess child({"/bin/sh", "-c", "trap '' TERM; sleep 300 & echo $! > \"$PIDFILE\"; wait"},
                     {"PIDFILE=" + pidfile});
  pid_t sleeper = 0;
  for (int i = 0; i < 6000 && sleeper == 0; ++i) {
    std::ifstream(pidfile) >> sleeper;
    if (sleeper == 0) std::this_thread::sleep_for(10ms);
  }
  ASSERT_GT(sleeper, 0);
  int status = 0;
  auto failures = failures_of([&] { status = child.stop(200ms); });
  EXPECT_EQ(status, 128 + SIGKILL);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].rfind("did not end within 0.2 s of SIGTERM and was killed: /bin/sh -c ", 0),
            0u)
      << failures[0];
  EXPECT_TRUE(ended(sleeper));
  std::remove(pidfile.c_str());
}

}  // namespace
}  // namespace cwf::testing
