// Guards (Singh §4): temporal conditions under which an event may happen, in the language
// □E (E has happened and stays so), ◇E (E will eventually hold), ¬E (E has not happened yet),
// ∧, + , T and 0.
//
// Representation: a sum of terms. A term constrains each event it mentions to a subset of the
// four states an event x can be in at a point of a maximal trace:
//   A: x happened        B: ~x happened       C: neither yet, x will       D: neither yet, ~x will
// so □x = {A}, ◇x = {A,C}, ¬x = {B,C,D} (and symmetrically for ~x); plus ◇ of literal sequences
// of length ≥ 2, kept as atoms. Working on state sets makes the paper's simplifications
// (¬f ∧ ¬~f + □~f = ¬f, ◇~e ∧ ¬e = ◇~e, …) exact set unions and intersections.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "actors/guards/event_expression.hpp"

namespace cwf {
class SnapshotReader;
class SnapshotWriter;
}  // namespace cwf

namespace cwf::guards {

using StateSet = std::uint8_t;
inline constexpr StateSet kHappened = 1;            // A
inline constexpr StateSet kComplementHappened = 2;  // B
inline constexpr StateSet kWillHappen = 4;          // C
inline constexpr StateSet kWillNotHappen = 8;       // D
inline constexpr StateSet kAnyState = 15;

StateSet happened_states(const Literal& l);    // □l
StateSet eventually_states(const Literal& l);  // ◇l
StateSet not_yet_states(const Literal& l);     // ¬l

struct GuardTerm {
  std::map<std::string, StateSet> states;        // an event left out may be in any state
  std::vector<std::vector<Literal>> eventually;  // ◇(l1·l2·…), sorted, each of length ≥ 2
  bool operator==(const GuardTerm&) const = default;
};

enum class Notation { unicode, ascii };

// A point of a maximal trace: the first `index` literals of `trace` have happened.
struct TracePoint {
  const std::vector<Literal>& trace;
  std::size_t index;
};

class Guard {
 public:
  static Guard top();
  static Guard zero();
  static Guard always(const Literal& l);                 // □l
  static Guard not_yet(const Literal& l);                // ¬l
  static Guard eventually(const EventExpr& normalised);  // ◇E (distributes over + and |)

  friend Guard operator&&(const Guard& a, const Guard& b);
  friend Guard operator||(const Guard& a, const Guard& b);

  bool is_top() const { return terms_.size() == 1 && terms_.front() == GuardTerm{}; }
  bool is_zero() const { return terms_.empty(); }
  bool mentions(const std::string& event) const;
  std::vector<std::string> events() const;  // mentioned events, in natural order
  const std::vector<GuardTerm>& terms() const { return terms_; }

  // Announcements (§4.3). □l: □l, ◇l become T and ¬l becomes 0 (and the complement's atoms the
  // other way round); ◇ of a sequence starting with l keeps the rest. ◇l (a promise): ◇l
  // becomes T, ◇~l 0; □l and ¬l are unaffected.
  void announce_happened(const Literal& l);
  void announce_promised(const Literal& l);

  // Whether the guard holds now as far as this guard's owner knows: events not announced as
  // happened have not happened (so ¬f holds), nothing unannounced is guaranteed (◇ does not).
  bool holds_now() const;

  // The semantics over maximal traces (Semantics 7-14).
  bool holds_at(const TracePoint& point) const;

  std::string text(Notation notation = Notation::unicode) const;

  // Checkpoints (guard_snapshot.cpp): the terms and what announcements told, exactly, so that a
  // restored guard simplifies under later announcements as the saved one would.
  void save(SnapshotWriter& out) const;
  // Throws SnapshotError for what no guard can hold (a state set outside the four states).
  static Guard restore(SnapshotReader& in);

 private:
  void simplify();
  void expand_and_reduce();
  bool normalise_term(GuardTerm& term) const;
  // Normalises every term, dropping those that became 0 and repeats; false when one became T
  // (the guard is then T).
  bool normalise_terms();
  StateSet known(const std::string& event) const;

  std::vector<GuardTerm> terms_;
  std::map<std::string, StateSet> known_;  // what announcements told: the state set of each event
};

// Compares event names so that e2 comes before e10.
bool natural_less(const std::string& a, const std::string& b);

}  // namespace cwf::guards
