// The work limit on computing the guards of a workflow: dependencies whose guards would take
// seconds or hours are rejected with a message instead.
#include <gtest/gtest.h>

#include <string>

#include "actors/guards/dependency_file.hpp"
#include "actors/guards/guard_work_limit.hpp"

namespace cwf::guards {
namespace {

const std::string kTooLarge =
    " takes more than 50000000 steps: the dependencies are too large (too many events in one "
    "dependency, or too many dependencies on one event); split them into smaller ones";

// Computes the guard of every event and complement, in order, as `cwf guards` does; the message
// of the GuardTooComplex that stopped it, or "".
std::string error_of_guards(const std::string& yaml) {
  DependencySet set = parse_dependency_text(yaml, "deps.yaml");
  try {
    for (const std::string& event : set.events)
      for (bool complement : {false, true})
        set.guard(Literal{event, complement});
  } catch (const GuardTooComplex& e) {
    return e.what();
  }
  return "";
}

TEST(GuardWorkLimit, SevenEventsInOneDependencyAreRejected) {
  // Found by fuzzing (fuzz/guards_dependencies.cpp), minimized: its guards took 3 s, 70 s under
  // the sanitizers; a choice between eight events took 23 s.
  EXPECT_EQ(
      error_of_guards("dependencies:\n  - \"~a + \u00acb + \u00acc + d + e + \u00acf\u00b7g\"\n"),
      "computing the guard of 'b'" + kTooLarge);
}

TEST(GuardWorkLimit, ManyDependenciesOnOneEventAreRejected) {
  // The guard of e is a sum of 2^12 terms.
  std::string yaml = "dependencies:\n";
  for (int i = 1; i <= 12; ++i)
    yaml += "  - \"~e + a" + std::to_string(i) + " + b" + std::to_string(i) + "\"\n";
  EXPECT_EQ(error_of_guards(yaml), "computing the guard of 'e'" + kTooLarge);
}

TEST(GuardWorkLimit, IsSharedByTheGuardsOfOneWorkflow) {
  // Each of these dependencies alone is well within the limit; the three together are not.
  std::string one = "  - \"~a0 + a1 + a2 + a3 + a4 + a5\"\n";
  EXPECT_EQ(error_of_guards("dependencies:\n" + one), "");
  std::string three = one;
  for (char prefix : {'b', 'c'}) {
    std::string copy = one;
    for (char& c : copy)
      if (c == 'a') c = prefix;
    three += copy;
  }
  EXPECT_EQ(error_of_guards("dependencies:\n" + three), "computing the guard of '~b5'" + kTooLarge);
}

TEST(GuardWorkLimit, SixEventsInOneChoiceStillHaveTheirGuards) {
  DependencySet set =
      parse_dependency_text("dependencies: [\"~e0 + e1 + e2 + e3 + e4 + e5\"]\n", "deps.yaml");
  EXPECT_EQ(set.guard(Literal{"e0", false}).text(),
            "\u25c7e1 + \u25c7e2 + \u25c7e3 + \u25c7e4 + \u25c7e5");
  EXPECT_EQ(set.guard(Literal{"e5", true}).text(),
            "\u25c7~e0 + \u25c7e1 + \u25c7e2 + \u25c7e3 + \u25c7e4");
  for (const std::string& event : set.events)
    for (bool complement : {false, true})
      EXPECT_NO_THROW(set.guard(Literal{event, complement}));
}

}  // namespace
}  // namespace cwf::guards
