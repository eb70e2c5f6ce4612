// `cwf history FILE [--instance ID] [--type TYPE] [--format json|text]`, run in-process.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "cli/commands.hpp"

namespace cwf::cli {
namespace {

struct Result {
  int code;
  std::string out, err;
};

Result history(const Words& args) {
  std::ostringstream out, err;
  int code = history_command(args, out, err);
  return {code, out.str(), err.str()};
}

// Per test and process: ctest runs these tests at the same time, and one writing the file while
// another reads it left the reader an empty file.
std::string write_history() {
  const std::string path =
      ::testing::TempDir() + "cwf_history_command_test_" + std::to_string(::getpid()) + "_" +
      ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".jsonl";
  std::ofstream(path)
      << R"j({"type":"REQ(HIC)","site":"s1","id":1,"time":0,"instance":"c1"})j"
         "\n"
      << R"j({"type":"REQ(HIC)","site":"s1","id":2,"time":0,"instance":"c2"})j"
         "\n"
      << R"j({"type":"RPL(HandleHIC.Done)","site":"s1","id":4,"time":61500000000,"instance":"c1"})j"
         "\n"
      << R"j({"type":"REQ(HandleHIC)","site":"s1","id":3,"time":0,"instance":"c1"})j"
         "\n";
  return path;
}

TEST(HistoryCommand, PrintsOneInstanceInOrderAsText) {
  Result r = history({write_history(), "--instance", "c1", "--format", "text"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "0.000 REQ(HIC) c1\n"
            "0.000 REQ(HandleHIC) c1\n"
            "61.500 RPL(HandleHIC.Done) c1\n");
}

TEST(HistoryCommand, PrintsJsonAndFiltersByType) {
  Result r = history({write_history(), "--type", "REQ(HIC)"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            R"j({"type":"REQ(HIC)","site":"s1","id":1,"time":0,"service":"HIC","request":null,)j"
            R"j("instance":"c1","broker":null,"components":[],"params":{},"assigned":null})j"
            "\n"
            R"j({"type":"REQ(HIC)","site":"s1","id":2,"time":0,"service":"HIC","request":null,)j"
            R"j("instance":"c2","broker":null,"components":[],"params":{},"assigned":null})j"
            "\n");
}

TEST(HistoryCommand, ReportsUsageAndFileErrors) {
  Result none = history({});
  EXPECT_EQ(none.code, 2);
  EXPECT_EQ(none.err.substr(0, 39), "cwf history: missing the history FILE\nu");
  Result typo = history({write_history(), "--instanse", "c1"});
  EXPECT_EQ(typo.code, 2);
  EXPECT_NE(typo.err.find("--instance"), std::string::npos) << typo.err;
  Result format = history({write_history(), "--format", "xml"});
  EXPECT_EQ(format.code, 2);
  EXPECT_EQ(format.err.substr(0, 54), "cwf history: --format expects json or text (got 'xml')");
  Result missing = history({"/nonexistent/h.jsonl"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_EQ(missing.err, "cwf history: /nonexistent/h.jsonl: cannot open the history file\n");
}

TEST(HistoryCommand, PrintsTimesBeforeTheEpochWithTheirSign) {
  std::string path = ::testing::TempDir() + "cwf_history_command_negative.jsonl";
  std::ofstream(path) << R"j({"type":"REQ(A)","time":-1500000000,"instance":"c1"})j"
                         "\n"
                      << R"j({"type":"REQ(B)","time":-250000000,"instance":"c1"})j"
                         "\n";
  Result r = history({path, "--format", "text"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "-1.500 REQ(A) c1\n-0.250 REQ(B) c1\n");
}

TEST(HistoryCommand, ReportsFieldsOfTheWrongKindInsteadOfAborting) {
  std::string path = ::testing::TempDir() + "cwf_history_command_kinds.jsonl";
  std::ofstream(path)
      << R"j({"type":"REQ(A)","site":"s1","id":1,"time":1.5,"service":null,"request":null,)j"
         R"j("instance":"c1","broker":null,"components":[],"params":{},"assigned":null})j"
         "\n";
  Result r = history({path, "--type", "REQ(A)", "--format", "text"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "cwf history: " + path + ":1: 'time' must be an int (nanoseconds), got 1.5\n");
}

}  // namespace
}  // namespace cwf::cli
