#include <gtest/gtest.h>

#include "actors/guards/event_expression.hpp"
#include "actors/guards/event_parser.hpp"

namespace cwf::guards {
namespace {

std::string canonical(const std::string& text) {
  return to_text(normalise(parse_event_expression(text)));
}

TEST(EventAlgebra, ParsesLiteralsConstantsAndOperatorsWithPrecedence) {
  EXPECT_EQ(to_text(parse_event_expression("~e + ~f + e\u00b7f")), "~e + ~f + e\u00b7f");
  EXPECT_EQ(to_text(parse_event_expression("~e+~f+e.f")), "~e + ~f + e\u00b7f");
  EXPECT_EQ(to_text(parse_event_expression("a | b + c")), "(a | b) + c");
  EXPECT_EQ(to_text(parse_event_expression("a | (b + c)")), "a | (b + c)");
  EXPECT_EQ(to_text(parse_event_expression("(a + b).c")), "(a + b)\u00b7c");
  EXPECT_EQ(to_text(parse_event_expression("0 + T")), "0 + T");
  EXPECT_EQ(to_text(parse_event_expression("~c_buy + c_book\u00b7c_buy")),
            "~c_buy + c_book\u00b7c_buy");
  EXPECT_EQ(to_text(parse_event_expression("~e + f"), true), "~e + f");
  EXPECT_EQ(to_text(parse_event_expression("e\u00b7f"), true), "e.f");
}

TEST(EventAlgebra, ParameterisedEventNamesAreKeptWhole) {
  EventExpr e = parse_event_expression("~c_buy[cid] + c_book[cid]\u00b7c_buy[cid]");
  EXPECT_EQ(events_of(e), (std::vector<std::string>{"c_buy[cid]", "c_book[cid]"}));
}

TEST(EventAlgebra, ParseErrorsSayWhereAndWhatWasExpected) {
  auto error_of = [](const std::string& text) {
    try {
      parse_event_expression(text);
    } catch (const ParseError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of("e + "),
            "column 5: expected an event name, ~event, 0, T or '(', found the "
            "end of the expression");
  EXPECT_EQ(error_of("(e + f"), "column 7: expected ')', found the end of the expression");
  EXPECT_EQ(error_of("e f"), "column 3: expected an operator (+, |, \u00b7) or the end, found 'f'");
  EXPECT_EQ(error_of("~~e"), "column 2: expected an event name after '~', found '~'");
  EXPECT_EQ(error_of("e\u00b7\u00b7f"),
            "column 3: expected an event name, ~event, 0, T or '(', "
            "found '\u00b7'");
  EXPECT_EQ(error_of("c[ ]"), "column 4: expected a parameter name, found ']'");
  EXPECT_EQ(error_of("c[x"), "column 4: expected ']', found the end of the expression");
}

TEST(EventAlgebra, NormalisationDistributesSequenceOverChoiceAndConjunction) {
  EXPECT_EQ(canonical("(a + b)\u00b7c"), "a\u00b7c + b\u00b7c");
  EXPECT_EQ(canonical("a\u00b7(b + c)"), "a\u00b7b + a\u00b7c");
  EXPECT_EQ(canonical("(a | b)\u00b7c"), "a\u00b7c | b\u00b7c");
  EXPECT_EQ(canonical("a\u00b7(b\u00b7c)"), "a\u00b7b\u00b7c");
  EXPECT_EQ(canonical("(a + b)\u00b7(c | d)"), "(a\u00b7c | a\u00b7d) + (b\u00b7c | b\u00b7d)");
}

TEST(EventAlgebra, NormalisationSimplifiesConstantsAndImpossibleSequences) {
  EXPECT_EQ(canonical("T\u00b7e"), "e");
  EXPECT_EQ(canonical("e\u00b70"), "0");
  EXPECT_EQ(canonical("e + 0"), "e");
  EXPECT_EQ(canonical("e + T"), "T");
  EXPECT_EQ(canonical("e | T"), "e");
  EXPECT_EQ(canonical("e | 0"), "0");
  EXPECT_EQ(canonical("e\u00b7~e + f"), "f");  // no trace holds e and ~e
  EXPECT_EQ(canonical("e\u00b7e"), "0");       // no event happens twice
  EXPECT_EQ(canonical("(a + b) + (a + c)"), "a + b + c");
}

}  // namespace
}  // namespace cwf::guards
