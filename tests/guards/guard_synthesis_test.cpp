#include <gtest/gtest.h>

#include "actors/guards/event_parser.hpp"
#include "actors/guards/guard_synthesis.hpp"

namespace cwf::guards {
namespace {

std::string guard(const std::string& dependency, const Literal& event,
                  Notation notation = Notation::unicode) {
  return guard_of(parse_event_expression(dependency), event).text(notation);
}

const Literal e{"e", false}, not_e{"e", true}, f{"f", false}, not_f{"f", true};
const std::string d_order = "~e + ~f + e\u00b7f";  // Klein's e < f
const std::string d_exists = "~e + f";             // Klein's e → f

TEST(GuardSynthesis, Example9Constants) {
  EXPECT_EQ(guard("T", e), "T");
  EXPECT_EQ(guard("0", e), "0");
  EXPECT_EQ(guard("e", e), "T");
  EXPECT_EQ(guard("~e", e), "0");
}

TEST(GuardSynthesis, Example9OrderDependency) {
  EXPECT_EQ(guard(d_order, not_e), "T");
  EXPECT_EQ(guard(d_order, e), "\u00acf");
  EXPECT_EQ(guard(d_order, not_f), "T");
  EXPECT_EQ(guard(d_order, f), "\u25c7~e + \u25a1e");
}

TEST(GuardSynthesis, ExistenceDependency) {
  EXPECT_EQ(guard(d_exists, e), "\u25c7f");
  EXPECT_EQ(guard(d_exists, not_e), "T");
  EXPECT_EQ(guard(d_exists, f), "T");
  EXPECT_EQ(guard(d_exists, not_f), "\u25c7~e");
}

TEST(GuardSynthesis, Example4CommitOrder) {
  const std::string d2 = "~c_buy + c_book\u00b7c_buy";
  EXPECT_EQ(guard(d2, Literal{"c_buy", false}), "\u25a1c_book");
  EXPECT_EQ(guard(d2, Literal{"c_book", false}), "\u00acc_buy");
}

TEST(GuardSynthesis, AsciiNotation) {
  EXPECT_EQ(guard(d_order, f, Notation::ascii), "<>~e + []e");
  EXPECT_EQ(guard(d_order, e, Notation::ascii), "!f");
}

std::string closed_form(int n, int k) {
  std::string text;
  auto add = [&](const std::string& atom) {
    if (!text.empty()) text += " \u2227 ";
    text += atom;
  };
  for (int i = 1; i < k; ++i)
    add("\u25a1e" + std::to_string(i));
  for (int i = k + 1; i <= n; ++i)
    add("\u00ace" + std::to_string(i));
  if (k + 1 < n) {  // ◇ of one literal is implied by nothing else; of the empty sequence it is T
    std::string sequence;
    for (int i = k + 1; i <= n; ++i)
      sequence += (i > k + 1 ? "\u00b7e" : "e") + std::to_string(i);
    add("\u25c7(" + sequence + ")");
  } else if (k + 1 == n) {
    add("\u25c7e" + std::to_string(n));
  }
  return text.empty() ? "T" : text;
}

TEST(GuardSynthesis, SequenceClosedForm) {
  for (int n = 1; n <= 5; ++n) {
    std::string sequence;
    for (int i = 1; i <= n; ++i)
      sequence += (i > 1 ? "\u00b7e" : "e") + std::to_string(i);
    for (int k = 1; k <= n; ++k) {
      EXPECT_EQ(guard(sequence, Literal{"e" + std::to_string(k), false}), closed_form(n, k))
          << sequence << " for e" << k;
    }
  }
  // Spelled out once, independently of the helper above.
  EXPECT_EQ(guard("e1\u00b7e2\u00b7e3\u00b7e4", Literal{"e2", false}),
            "\u25a1e1 \u2227 \u00ace3 \u2227 \u00ace4 \u2227 \u25c7(e3\u00b7e4)");
  EXPECT_EQ(guard("e1\u00b7e2\u00b7e3", Literal{"e3", false}), "\u25a1e1 \u2227 \u25a1e2");
}

TEST(GuardSynthesis, WorkflowGuardIsConjunctionOverMentioningDependencies) {
  std::vector<EventExpr> workflow{parse_event_expression(d_order), parse_event_expression(d_exists),
                                  parse_event_expression("~g + h")};
  // e: ¬f ∧ ◇f
  EXPECT_EQ(guard_in_workflow(workflow, e).text(), "\u00acf \u2227 \u25c7f");
  EXPECT_EQ(guard_in_workflow(workflow, Literal{"x", false}).text(), "T");
  EXPECT_EQ(guard_in_workflow(workflow, Literal{"g", false}).text(), "\u25c7h");
}

TEST(GuardSynthesis, PrintingLeavesOutPiecesOfASumAnotherTermCovers) {
  // d's guard holds terms ¬c ∧ ◇~a and ¬c ∧ ◇b ∧ (◇~a + □a): the ◇~a piece of the latter is
  // covered by the former.
  std::vector<EventExpr> workflow;
  for (const char* text : {"~a + ~b + a.b", "~b + c", "~c + ~d + d.c", "~d + a.b + ~a"})
    workflow.push_back(parse_event_expression(text));
  EXPECT_EQ(guard_in_workflow(workflow, Literal{"d", false}).text(),
            "\u00acc \u2227 \u25c7(a\u00b7b) + \u00acc \u2227 \u25c7~a + \u25a1a \u2227 \u00acc "
            "\u2227 \u25c7b");
}

TEST(GuardSynthesis, AnnouncementsSimplifyGuards) {
  Guard g = guard_of(parse_event_expression(d_order), f);  // ◇~e + □e
  Guard after_e = g;
  after_e.announce_happened(e);
  EXPECT_TRUE(after_e.is_top());
  Guard after_not_e = g;
  after_not_e.announce_happened(not_e);
  EXPECT_TRUE(after_not_e.is_top());
  Guard promised = g;
  promised.announce_promised(not_e);
  EXPECT_TRUE(promised.is_top());
  Guard promised_e = g;
  promised_e.announce_promised(e);  // ◇~e becomes 0, □e stays
  EXPECT_EQ(promised_e.text(), "\u25a1e");

  Guard not_yet = guard_of(parse_event_expression(d_order), e);  // ¬f
  Guard after_f = not_yet;
  after_f.announce_happened(f);
  EXPECT_TRUE(after_f.is_zero());
  Guard after_not_f = not_yet;
  after_not_f.announce_happened(not_f);
  EXPECT_TRUE(after_not_f.is_top());
  EXPECT_TRUE(not_yet.holds_now());  // f has not been announced
  EXPECT_FALSE(g.holds_now());

  Guard sequence = guard_of(parse_event_expression("e1\u00b7e2\u00b7e3"), Literal{"e1", false});
  sequence.announce_promised(Literal{"e2", false});
  EXPECT_EQ(sequence.text(), "\u00ace2 \u2227 \u00ace3 \u2227 \u25c7(e2\u00b7e3)");
  Guard third = guard_of(parse_event_expression("e1\u00b7e2\u00b7e3"), Literal{"e3", false});
  third.announce_happened(Literal{"e1", false});
  EXPECT_EQ(third.text(), "\u25a1e2");
  third.announce_happened(Literal{"e2", false});
  EXPECT_TRUE(third.is_top());
}

}  // namespace
}  // namespace cwf::guards
