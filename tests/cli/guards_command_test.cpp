// `cwf guards FILE.yaml [--ascii]`, run in-process.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli/commands.hpp"

namespace cwf::cli {
namespace {

struct Result {
  int code;
  std::string out, err;
};

Result guards(const Words& args) {
  std::ostringstream out, err;
  int code = guards_command(args, out, err);
  return {code, out.str(), err.str()};
}

std::string write(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(GuardsCommand, PrintsTheGuardOfEveryEventAndComplementOfTheShippedExample) {
  Result r = guards(
      {std::string(CWF_SOURCE_DIR) + "/workflows/examples/guards/buy_ticket_book_car.deps.yaml"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "s_buy[cid]: \u25c7s_book[cid]\n"
            "~s_buy[cid]: T\n"
            "s_book[cid]: T\n"
            "~s_book[cid]: \u25c7~s_buy[cid]\n"
            "c_buy[cid]: \u25a1c_book[cid]\n"
            "~c_buy[cid]: \u25c7~c_book[cid] + \u25c7s_cancel[cid]\n"
            "c_book[cid]: \u00acc_buy[cid] \u2227 \u25c7c_buy[cid] + \u00acc_buy[cid] \u2227 "
            "\u25c7s_cancel[cid]\n"
            "~c_book[cid]: \u25c7~c_buy[cid]\n"
            "s_cancel[cid]: T\n"
            "~s_cancel[cid]: \u25c7~c_book[cid] + \u25c7c_buy[cid]\n");
}

TEST(GuardsCommand, KleinsDependenciesInAscii) {
  std::string path = write("cwf_guards_klein.yaml", "dependencies: [\"~e + ~f + e.f\"]\n");
  Result r = guards({path, "--ascii"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "e: !f\n~e: T\nf: <>~e + []e\n~f: T\n");
}

TEST(GuardsCommand, ParseErrorsGiveFileLineAndColumn) {
  std::string path = write("cwf_guards_bad.yaml",
                           "dependencies:\n"
                           "  - \"~e + f\"\n"
                           "  - \"~e + (f\"\n");
  Result r = guards({path});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "cwf guards: " + path +
                       ":3:13: in dependency '~e + (f': expected ')', found the end of the "
                       "expression\n");
  std::string plain = write("cwf_guards_plain.yaml", "dependencies:\n  - e + + f\n");
  r = guards({plain});
  EXPECT_EQ(r.err, "cwf guards: " + plain +
                       ":2:9: in dependency 'e + + f': expected an event name, ~event, 0, T or "
                       "'(', found '+'\n");
}

TEST(GuardsCommand, BadKeysAndAttributesAreReportedWhereWritten) {
  std::string path = write("cwf_guards_key.yaml", "dependencies: [e]\nevent: {}\n");
  Result r = guards({path});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "cwf guards: " + path + ":2:1: unknown key 'event'; did you mean 'events'?\n");
  path = write("cwf_guards_attr.yaml", "dependencies: [e]\nevents:\n  e: {trigerable: true}\n");
  r = guards({path});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(":3:7: unknown event attribute 'trigerable'"), std::string::npos) << r.err;
  path = write("cwf_guards_bool.yaml", "dependencies: [e]\nevents:\n  e: {rejectable: maybe}\n");
  r = guards({path});
  EXPECT_NE(r.err.find(":3:19: expected true or false for 'rejectable', got 'maybe'"),
            std::string::npos)
      << r.err;
  // A misspelt event under events: would otherwise become a new, unconstrained event.
  path = write("cwf_guards_typo.yaml",
               "dependencies: [\"~s_buy + s_book\"]\nevents:\n  s_bok: {triggerable: true}\n");
  r = guards({path});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(":3:3: no dependency mentions event 's_bok'; did you mean 's_book'?"),
            std::string::npos)
      << r.err;
  r = guards({"/nonexistent/deps.yaml"});
  EXPECT_EQ(r.err, "cwf guards: /nonexistent/deps.yaml: cannot open the file\n");
}

TEST(GuardsCommand, WarnsAboutANonRejectableEventWithAGuard) {
  std::string path = write("cwf_guards_abort.yaml",
                           "dependencies: [\"~abort + cleanup\"]\n"
                           "events:\n  abort: {rejectable: false}\n");
  Result r = guards({path});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "abort: \u25c7cleanup\n~abort: T\ncleanup: T\n~cleanup: \u25c7~abort\n");
  EXPECT_NE(r.err.find("warning: event 'abort' is not rejectable but its guard is not T"),
            std::string::npos);
}

TEST(GuardsCommand, DependenciesTooLargeToComputeAreABadFile) {
  // Seven events in one choice: seconds of work before the limit, hours with a few more events.
  std::string path =
      write("cwf_guards_large.yaml", "dependencies: [\"~a + ~b + ~c + d + e + ~f + g\"]\n");
  Result r = guards({path});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "cwf guards: " + path +
                       ": computing the guard of 'b' takes more than 50000000 steps: the "
                       "dependencies are too large (too many events in one dependency, or too "
                       "many dependencies on one event); split them into smaller ones\n");
}

TEST(GuardsCommand, UsageErrors) {
  EXPECT_EQ(guards({}).code, 2);
  EXPECT_EQ(guards({"--bogus"}).code, 2);
  EXPECT_EQ(guards({"--help"}).code, 0);
}

}  // namespace
}  // namespace cwf::cli
