// Prerequisite-antecedent-consequent rules derived from a model by the six templates of the GSM
// semantics (000 Table 3.1.1). The seeds number the templates differently, so the code names them
// by purpose. π is read on the snapshot before the B-step, α on the current values, and γ sets
// one status attribute.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "actors/gsm/model.hpp"
#include "actors/gsm/status_literal.hpp"

namespace cwf::gsm {

enum class RuleTemplate : std::uint8_t {
  guard_opens_stage,       // π ¬S,  α φ ∧ S',  γ +S    (each guard φ of S)
  milestone_achieved,      // π S,   α φ,       γ +m    (achieving sentry φ of m)
  milestone_invalidated,   // π m,   α φ,       γ -m    (invalidating sentry φ of m)
  reopening_invalidates,   // π m,   α φ ∧ S',  γ -m    (each guard φ of S × m of S)
  milestone_closes_stage,  // π S,   α +m,      γ -S    (each milestone m of S)
  parent_closes_child,     // π S,   α -S',     γ -S    (each child S of S')
};
inline constexpr std::size_t kRuleTemplates = 6;

// "guard opens stage", ...: the purpose, as in docs/gsm.md.
std::string_view template_purpose(RuleTemplate kind);

struct PacRule {
  RuleTemplate kind = RuleTemplate::guard_opens_stage;
  StatusLiteral prerequisite;  // on the snapshot before the step
  // The antecedent: the trigger holds, the condition holds, and the parent stage is open.
  Trigger trigger;
  int condition = -1;    // Model::conditions index, -1: none
  int parent_open = -1;  // the `∧ S'` term: a stage attribute, -1: none
  StatusLiteral consequent;
  int stage = -1;      // the stage the rule belongs to
  int guard = -1;      // index into the stage's guards, for guard rules
  int milestone = -1;  // Model::milestones index, for milestone rules
  // A reopening rule whose guard has `not m` as a top-level conjunct: π needs m true before the
  // step, α needs m false now, and nothing sets m true in between, so it never fires.
  bool vacuous = false;
};

struct RuleOptions {
  // Keep the vacuous reopening rules in the rule set (they never fire and add no dependency
  // edges). The thesis omits them; 003's table of 41 rules lists them.
  bool keep_vacuous = false;
};

struct RuleSet {
  std::vector<PacRule> rules;
  std::size_t vacuous_omitted = 0;
  std::array<std::size_t, kRuleTemplates> counts() const;
  std::size_t count(RuleTemplate kind) const { return counts()[static_cast<std::size_t>(kind)]; }
};

RuleSet derive_rules(const Model& model, const RuleOptions& options = {});

// α written out: "on R:NewOrder", "on +ED:cp and LR", "RA:ap and ECR:ev and not ED:cp".
std::string antecedent_text(const Model& model, const PacRule& rule);
// "not RA", "RA:ap".
std::string literal_text(const Model& model, StatusLiteral literal);
// "+RA", "-RA:ap".
std::string change_text(const Model& model, StatusLiteral literal);
// Where the rule comes from: "guard g1 of RA", "milestone ED:cp", "stage PE in LR".
std::string rule_origin(const Model& model, const PacRule& rule);
// The sentry a rule was derived from, nullptr for the two closing templates.
const Sentry* rule_sentry(const Model& model, const PacRule& rule);

}  // namespace cwf::gsm
