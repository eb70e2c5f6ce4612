#include <gtest/gtest.h>

#include <fstream>

#include "actors/guards/dependency_file.hpp"
#include "runtime/loading/load_error.hpp"

namespace cwf::guards {
namespace {

// Named after the test too: CTest runs the tests of this file in parallel processes.
std::string write(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + "cwf_guards_" +
                     ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + name;
  std::ofstream(path) << text;
  return path;
}

std::string error_of(const std::string& text) {
  std::string path = write("error.yaml", text);
  try {
    load_dependency_file(path);
  } catch (const LoadError& e) {
    return std::string(e.what()).substr(path.size());
  }
  return "no error";
}

TEST(DependencyFile, EventsInOrderOfFirstMentionWithAttributesByBaseName) {
  DependencySet set = load_dependency_file(
      write("ok.yaml",
            "dependencies:\n  - \"~a[k] + b[k]\"\n  - \"~b[k] + c[k]\"\nevents:\n"
            "  b: {triggerable: true}\n  c[k]: {rejectable: false}\n  d[k]: {free: true}\n"));
  EXPECT_EQ(set.events, (std::vector<std::string>{"a[k]", "b[k]", "c[k]", "d[k]"}));
  EXPECT_TRUE(set.attributes_of("b[k]").triggerable);
  EXPECT_TRUE(set.attributes_of("b[k]").rejectable);
  EXPECT_FALSE(set.attributes_of("c[k]").rejectable);
  EXPECT_FALSE(set.attributes_of("a[k]").triggerable);
  EXPECT_EQ(set.guard(Literal{"a[k]", false}).text(), "\u25c7b[k]");
  EXPECT_EQ(set.guard(Literal{"d[k]", false}).text(), "T");
  EXPECT_EQ(parameters_of("c_buy[cid, day]"), (std::vector<std::string>{"cid", "day"}));
  EXPECT_EQ(base_name("c_buy[cid]"), "c_buy");
}

TEST(DependencyFile, AMisspeltEventUnderEventsIsAnErrorUnlessDeclaredFree) {
  EXPECT_EQ(error_of("dependencies:\n  - \"~s_buy[cid] + s_book[cid]\"\nevents:\n"
                     "  s_bok: {triggerable: true}\n"),
            ":4:3: no dependency mentions event 's_bok'; did you mean 's_book'? (an event no "
            "dependency constrains must be declared 'free: true')");
  EXPECT_EQ(error_of("dependencies: [e]\nevents:\n  audit:\n"),
            ":3:3: no dependency mentions event 'audit' (an event no dependency constrains must be "
            "declared 'free: true')");
  DependencySet set = load_dependency_file(
      write("free.yaml", "dependencies: [e]\nevents:\n  audit: {free: true, triggerable: true}\n"));
  EXPECT_EQ(set.events, (std::vector<std::string>{"e", "audit"}));
  EXPECT_TRUE(set.attributes_of("audit").triggerable);
}

TEST(DependencyFile, ErrorsSayWhereAndWhat) {
  EXPECT_EQ(error_of("events: {}\n"), ":1:1: expected a 'dependencies' list");
  EXPECT_EQ(error_of("dependencies: e\n"),
            ":1:15: expected a list of dependency expressions, got 'e'");
  EXPECT_EQ(error_of("dependencies: [[e]]\n"),
            ":1:16: expected a dependency expression (a string), got a sequence");
  EXPECT_EQ(error_of("dependencies: [\"~a[k] + b\"]\n"),
            ":1:16: events 'a[k]' and 'b' have different parameters; all events of a workflow are "
            "instantiated per binding of the same parameters");
  // At the dependency that mixes them, not at the top of the file.
  EXPECT_EQ(error_of("name: mixed\ndependencies:\n  - \"~a[k] + b[k]\"\n  - \"~b[k] + c\"\n"),
            ":4:5: events 'a[k]' and 'c' have different parameters; all events of a workflow are "
            "instantiated per binding of the same parameters");
  EXPECT_EQ(error_of("dependencies: [\"~a[k] + b[k]\"]\nevents:\n  c: {free: true}\n"),
            ":3:3: events 'a[k]' and 'c' have different parameters; all events of a workflow are "
            "instantiated per binding of the same parameters");
  EXPECT_EQ(error_of("dependencies: [e]\nevents: [e]\n"),
            ":2:9: expected a map from event name to attributes, got a sequence");
  EXPECT_EQ(error_of("dependencies: [e]\nevents:\n  e: yes\n"),
            ":3:6: expected attributes {triggerable: BOOL, rejectable: BOOL} for event 'e', got "
            "'yes'");
}

TEST(DependencyFile, TextParsesLikeTheFileAndErrorsNameTheGivenFile) {
  DependencySet set = parse_dependency_text("dependencies: [\"~a + b\"]\n", "inline.yaml");
  EXPECT_EQ(set.events, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(set.texts, (std::vector<std::string>{"~a + b"}));
  auto error_of_text = [](const std::string& text) -> std::string {
    try {
      parse_dependency_text(text, "inline.yaml");
    } catch (const LoadError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error_of_text("dependencies: e\n"),
            "inline.yaml:1:15: expected a list of dependency expressions, got 'e'");
  EXPECT_EQ(error_of_text("dependencies: [e\n"), "inline.yaml:2:1: end of sequence flow not found");
  EXPECT_EQ(error_of(std::string("dependencies: [e\n")), ":2:1: end of sequence flow not found");
}

TEST(DependencyFile, AMissingFileIsALoadError) {
  std::string path = ::testing::TempDir() + "cwf_guards_no_such_file.yaml";
  try {
    load_dependency_file(path);
    FAIL() << "no error";
  } catch (const LoadError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open the file");
  }
}

}  // namespace
}  // namespace cwf::guards
