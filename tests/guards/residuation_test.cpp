#include <gtest/gtest.h>

#include "actors/guards/event_parser.hpp"
#include "actors/guards/residuation.hpp"

namespace cwf::guards {
namespace {

std::string residual(const std::string& dependency, const Literal& event) {
  return to_text(residuate(normalise(parse_event_expression(dependency)), event));
}

const Literal e{"e", false}, not_e{"e", true}, f{"f", false}, not_f{"f", true};

TEST(Residuation, Figure2ForKleinsOrderDependency) {
  EXPECT_EQ(residual("~e + ~f + e\u00b7f", e), "~f + f");
  EXPECT_EQ(residual("~e + ~f + e\u00b7f", f), "~e");
  EXPECT_EQ(residual("~e + ~f + e\u00b7f", not_e), "T");
  EXPECT_EQ(residual("~e + ~f + e\u00b7f", not_f), "T");
}

TEST(Residuation, Figure2ForKleinsExistenceDependency) {
  EXPECT_EQ(residual("~e + f", e), "f");
  EXPECT_EQ(residual("~e + f", not_f), "~e");
  EXPECT_EQ(residual("~e + f", f), "T");
  EXPECT_EQ(residual("~e + f", not_e), "T");
}

TEST(Residuation, RulesOneToEight) {
  EXPECT_EQ(residual("0", e), "0");                       // 1
  EXPECT_EQ(residual("T", e), "T");                       // 2
  EXPECT_EQ(residual("e\u00b7f\u00b7g", e), "f\u00b7g");  // 3
  EXPECT_EQ(residual("e + g", e), "T");                   // 4
  EXPECT_EQ(residual("(~e + f) | (~f + e)", e), "f");     // 5
  EXPECT_EQ(residual("g\u00b7h", e), "g\u00b7h");         // 6
  EXPECT_EQ(residual("f\u00b7e", e), "0");                // 7
  EXPECT_EQ(residual("f\u00b7~e", e), "0");               // 8
  EXPECT_EQ(residual("~e", e), "0");                      // a lone complement
  EXPECT_EQ(residual("e", e), "T");                       // a lone literal
}

TEST(Residuation, ResidualsNoLongerMentionTheEvent) {
  for (const char* text : {"~e + ~f + e\u00b7f", "e\u00b7f + f\u00b7e | ~g", "(~e + f)\u00b7g"}) {
    for (const Literal& l : {e, not_e, f, not_f}) {
      EventExpr rest = residuate(normalise(parse_event_expression(text)), l);
      EXPECT_FALSE(mentions(rest, l.event)) << text << " / " << l.text();
    }
  }
}

}  // namespace
}  // namespace cwf::guards
