#include "actors/guards/guard.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

#include "actors/guards/guard_work_limit.hpp"
#include "actors/guards/residuation.hpp"

namespace cwf::guards {

StateSet happened_states(const Literal& l) {
  return l.complement ? kComplementHappened : kHappened;
}
StateSet eventually_states(const Literal& l) {
  return l.complement ? kComplementHappened | kWillNotHappen : kHappened | kWillHappen;
}
StateSet not_yet_states(const Literal& l) {
  return kAnyState & ~happened_states(l);
}

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t i_end = i, j_end = j;
      while (i_end < a.size() && std::isdigit(static_cast<unsigned char>(a[i_end])))
        ++i_end;
      while (j_end < b.size() && std::isdigit(static_cast<unsigned char>(b[j_end])))
        ++j_end;
      std::string_view x(a.data() + i, i_end - i), y(b.data() + j, j_end - j);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = i_end;
      j = j_end;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

Guard Guard::top() {
  Guard g;
  g.terms_.push_back(GuardTerm{});
  return g;
}

Guard Guard::zero() {
  return Guard{};
}

Guard Guard::always(const Literal& l) {
  Guard g;
  g.terms_.push_back(GuardTerm{{{l.event, happened_states(l)}}, {}});
  return g;
}

Guard Guard::not_yet(const Literal& l) {
  Guard g;
  g.terms_.push_back(GuardTerm{{{l.event, not_yet_states(l)}}, {}});
  return g;
}

Guard Guard::eventually(const EventExpr& e) {
  switch (e.kind) {
    case EventExpr::Kind::zero:
      return zero();
    case EventExpr::Kind::top:
      return top();
    case EventExpr::Kind::literal: {
      Guard g;
      g.terms_.push_back(GuardTerm{{{e.literal.event, eventually_states(e.literal)}}, {}});
      return g;
    }
    case EventExpr::Kind::sequence: {
      Guard g;
      g.terms_.push_back(GuardTerm{{}, {literals_of_sequence(e)}});
      g.simplify();
      return g;
    }
    // ◇ distributes over both: events are stable, so "eventually A and eventually B" means
    // both hold from the later of the two points on.
    case EventExpr::Kind::choice: {
      Guard g = zero();
      for (const EventExpr& child : e.children)
        g = g || eventually(child);
      return g;
    }
    case EventExpr::Kind::conjunction: {
      Guard g = top();
      for (const EventExpr& child : e.children)
        g = g && eventually(child);
      return g;
    }
  }
  return zero();
}

namespace {

void merge_known(std::map<std::string, StateSet>& into,
                 const std::map<std::string, StateSet>& from) {
  for (const auto& [event, states] : from) {
    auto [it, inserted] = into.emplace(event, states);
    if (!inserted) it->second &= states;
  }
}

StateSet states_in(const GuardTerm& term, const std::string& event) {
  auto it = term.states.find(event);
  return it == term.states.end() ? kAnyState : it->second;
}

// P subsumes Q when every condition of P is also a condition of Q (Q entails P).
bool subsumes(const GuardTerm& p, const GuardTerm& q) {
  for (const auto& sequence : p.eventually)
    if (std::find(q.eventually.begin(), q.eventually.end(), sequence) == q.eventually.end())
      return false;
  for (const auto& [event, states] : p.states)
    if ((states_in(q, event) & ~states) != 0) return false;
  return true;
}

}  // namespace

Guard operator&&(const Guard& a, const Guard& b) {
  GuardWorkLimit::charge(a.terms_.size() * b.terms_.size());
  Guard result;
  result.known_ = a.known_;
  merge_known(result.known_, b.known_);
  for (const GuardTerm& x : a.terms_) {
    for (const GuardTerm& y : b.terms_) {
      GuardTerm product = x;
      for (const auto& [event, states] : y.states) {
        auto [it, inserted] = product.states.emplace(event, states);
        if (!inserted) it->second &= states;
      }
      for (const auto& sequence : y.eventually)
        product.eventually.push_back(sequence);
      result.terms_.push_back(std::move(product));
    }
  }
  result.simplify();
  return result;
}

Guard operator||(const Guard& a, const Guard& b) {
  Guard result;
  result.known_ = a.known_;
  merge_known(result.known_, b.known_);
  result.terms_ = a.terms_;
  result.terms_.insert(result.terms_.end(), b.terms_.begin(), b.terms_.end());
  result.simplify();
  return result;
}

StateSet Guard::known(const std::string& event) const {
  auto it = known_.find(event);
  return it == known_.end() ? kAnyState : it->second;
}

namespace {

// Whether the term's ◇-sequences order two events both ways (◇(a·b) ∧ ◇(b·a), or through a
// chain): no trace has them all, so the term is 0. The state sets cannot see this, and the
// exhaustive widening is not tried on large guards, so without it such a guard is 0 without
// is_zero() and a parked attempt under it is never rejected.
bool sequences_conflict(const std::vector<std::vector<Literal>>& sequences) {
  if (sequences.size() < 2) return false;  // one sequence never names an event twice
  std::map<std::string, std::set<std::string>> after;
  for (const auto& sequence : sequences)
    for (std::size_t i = 0; i + 1 < sequence.size(); ++i)
      after[sequence[i].event].insert(sequence[i + 1].event);
  // Depth-first search for a cycle: 1 = on the current path, 2 = done.
  std::map<std::string, int> mark;
  std::function<bool(const std::string&)> cyclic = [&](const std::string& event) {
    int& m = mark[event];
    if (m == 1) return true;
    if (m == 2) return false;
    m = 1;
    for (const std::string& next : after[event])
      if (cyclic(next)) return true;
    mark[event] = 2;
    return false;
  };
  for (const auto& [event, next] : std::map(after))
    if (cyclic(event)) return true;
  return false;
}

}  // namespace

// Narrows the term's state sets by what its ◇-sequences imply and what is known; false when
// the term cannot hold. Events whose state set allows everything still possible are dropped.
bool Guard::normalise_term(GuardTerm& term) const {
  std::sort(term.eventually.begin(), term.eventually.end());
  term.eventually.erase(std::unique(term.eventually.begin(), term.eventually.end()),
                        term.eventually.end());
  if (sequences_conflict(term.eventually)) return false;
  auto narrow = [&](const std::string& event, StateSet allowed) {
    StateSet& states = term.states.emplace(event, kAnyState).first->second;
    StateSet narrowed = states & allowed;
    bool changed = narrowed != states;
    states = narrowed;
    return changed;
  };
  for (const auto& [event, states] : std::map(term.states))
    narrow(event, known(event));
  bool changed = true;
  while (changed) {
    changed = false;
    for (const auto& sequence : term.eventually) {
      for (std::size_t i = 0; i < sequence.size(); ++i) {
        changed |=
            narrow(sequence[i].event, eventually_states(sequence[i]) & known(sequence[i].event));
        // In a sequence, a later member that has happened needs every earlier one to have
        // happened; an earlier one still to come keeps every later one from having happened.
        for (std::size_t j = i + 1; j < sequence.size(); ++j) {
          StateSet later = states_in(term, sequence[j].event);
          if ((later & ~happened_states(sequence[j])) == 0)
            changed |= narrow(sequence[i].event, happened_states(sequence[i]));
          if ((states_in(term, sequence[i].event) & happened_states(sequence[i])) == 0)
            changed |= narrow(sequence[j].event, kAnyState & ~happened_states(sequence[j]));
        }
      }
    }
  }
  for (auto it = term.states.begin(); it != term.states.end();) {
    if (it->second == 0) return false;
    StateSet possible = known(it->first);
    if ((it->second & possible) == possible) {
      it = term.states.erase(it);
    } else {
      ++it;
    }
  }
  return true;
}

bool Guard::normalise_terms() {
  std::vector<GuardTerm> kept;
  for (GuardTerm& term : terms_) {
    if (!normalise_term(term)) continue;
    if (term == GuardTerm{}) {
      terms_ = {GuardTerm{}};
      return false;
    }
    GuardWorkLimit::charge(kept.size());
    if (std::find(kept.begin(), kept.end(), term) == kept.end()) kept.push_back(std::move(term));
  }
  terms_ = std::move(kept);
  return true;
}

void Guard::simplify() {
  if (!normalise_terms()) return;
  std::vector<GuardTerm>& terms = terms_;
  // Terms equal except in one event's state set join into one term with the union.
  auto single_difference = [&](const GuardTerm& p, const GuardTerm& q) -> const std::string* {
    if (p.eventually != q.eventually) return nullptr;
    const std::string* different = nullptr;
    for (const GuardTerm* side : {&p, &q}) {
      for (const auto& [event, states] : side->states) {
        if (states_in(p, event) == states_in(q, event)) continue;
        if (different && *different != event) return nullptr;
        different = &event;
      }
    }
    return different;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::size_t i = 0; i < terms.size() && !changed; ++i) {
      for (std::size_t j = 0; j < terms.size() && !changed; ++j) {
        if (i == j) continue;
        GuardWorkLimit::charge(1 + terms[i].states.size() + terms[j].states.size());
        if (subsumes(terms[i], terms[j])) {
          terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(j));
          changed = true;
        } else if (const std::string* event = single_difference(terms[i], terms[j])) {
          std::string name = *event;
          StateSet joined = states_in(terms[i], name) | states_in(terms[j], name);
          terms[i].states[name] = joined;
          terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(j));
          if (!normalise_term(terms[std::min(i, j)])) {
            terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(std::min(i, j)));
          } else if (terms[std::min(i, j)] == GuardTerm{}) {
            terms_ = {GuardTerm{}};
            return;
          }
          changed = true;
        }
      }
    }
  }
  if (terms_.size() > 1) expand_and_reduce();
}

// Merging neighbours misses sums such as (¬f ∧ ¬g) + □f + □g, which is T: a case split over
// several events. Each term is widened, one state at a time, as far as the whole guard still
// holds on every state combination the wider term allows; then terms covered by the others
// are dropped. Exhaustive over state combinations, so it is only tried on guards over a few
// events (the rest keep the merged form, which is equivalent, only longer).
void Guard::expand_and_reduce() {
  std::vector<std::string> names = events();
  constexpr std::size_t kMostEvents = 6;
  if (names.size() > kMostEvents) return;

  // Each term's state set per event of `names`, looked up once: covered() tries every state
  // combination against every term, and map lookups by name there dominated the time.
  auto row_of = [&](const GuardTerm& term) {
    std::vector<StateSet> row(names.size());
    for (std::size_t i = 0; i < names.size(); ++i)
      row[i] = states_in(term, names[i]);
    return row;
  };
  std::vector<std::vector<StateSet>> rows;
  for (const GuardTerm& term : terms_)
    rows.push_back(row_of(term));

  // Whether `cube` implies the sum of `terms` (all terms but `skip`).
  auto covered = [&](const GuardTerm& cube, std::size_t skip) {
    std::vector<StateSet> world(names.size());
    auto term_holds = [&](std::size_t t) {
      for (const auto& sequence : terms_[t].eventually)
        if (std::find(cube.eventually.begin(), cube.eventually.end(), sequence) ==
            cube.eventually.end())
          return false;  // another ◇-sequence may not hold
      for (std::size_t i = 0; i < names.size(); ++i)
        if ((rows[t][i] & world[i]) == 0) return false;
      return true;
    };
    auto feasible = [&] {
      for (const auto& sequence : cube.eventually) {
        for (std::size_t a = 0; a < sequence.size(); ++a) {
          auto index = [&](const Literal& l) {
            return static_cast<std::size_t>(std::find(names.begin(), names.end(), l.event) -
                                            names.begin());
          };
          StateSet state_a = world[index(sequence[a])];
          if ((state_a & eventually_states(sequence[a])) == 0) return false;
          for (std::size_t b = a + 1; b < sequence.size(); ++b)
            if ((world[index(sequence[b])] & happened_states(sequence[b])) &&
                !(state_a & happened_states(sequence[a])))
              return false;
        }
      }
      return true;
    };
    std::vector<StateSet> allowed(names.size());
    for (std::size_t i = 0; i < names.size(); ++i)
      allowed[i] = states_in(cube, names[i]) & known(names[i]);
    auto visit = [&](std::size_t i, auto& self) -> bool {
      if (i == names.size()) {
        GuardWorkLimit::charge(terms_.size());
        if (!feasible()) return true;
        for (std::size_t t = 0; t < terms_.size(); ++t)
          if (t != skip && term_holds(t)) return true;
        return false;
      }
      for (StateSet bit : {kHappened, kComplementHappened, kWillHappen, kWillNotHappen}) {
        if (!(allowed[i] & bit)) continue;
        world[i] = bit;
        if (!self(i + 1, self)) return false;
      }
      return true;
    };
    return visit(0, visit);
  };

  const std::size_t none = terms_.size();
  for (std::size_t t = 0; t < terms_.size(); ++t) {
    for (const std::string& name : names) {
      for (StateSet bit : {kHappened, kComplementHappened, kWillHappen, kWillNotHappen}) {
        StateSet states = states_in(terms_[t], name);
        if ((states & bit) || !(known(name) & bit)) continue;
        GuardTerm wider = terms_[t];
        wider.states[name] = states | bit;
        if (covered(wider, none)) {
          terms_[t] = std::move(wider);
          rows[t] = row_of(terms_[t]);
        }
      }
    }
  }
  if (!normalise_terms()) return;
  rows.clear();
  for (const GuardTerm& term : terms_)
    rows.push_back(row_of(term));
  for (std::size_t t = terms_.size(); t-- > 0 && terms_.size() > 1;) {
    if (covered(terms_[t], t)) {
      terms_.erase(terms_.begin() + static_cast<std::ptrdiff_t>(t));
      rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(t));
    }
  }
}

bool Guard::mentions(const std::string& event) const {
  for (const GuardTerm& term : terms_) {
    if (term.states.count(event)) return true;
    for (const auto& sequence : term.eventually)
      for (const Literal& l : sequence)
        if (l.event == event) return true;
  }
  return false;
}

std::vector<std::string> Guard::events() const {
  std::set<std::string> names;
  for (const GuardTerm& term : terms_) {
    for (const auto& [event, states] : term.states)
      names.insert(event);
    for (const auto& sequence : term.eventually)
      for (const Literal& l : sequence)
        names.insert(l.event);
  }
  std::vector<std::string> ordered(names.begin(), names.end());
  std::sort(ordered.begin(), ordered.end(), natural_less);
  return ordered;
}

void Guard::announce_happened(const Literal& l) {
  known_[l.event] = happened_states(l);
  std::vector<GuardTerm> terms;
  for (GuardTerm& term : terms_) {
    bool possible = true;
    std::vector<std::vector<Literal>> remaining;
    for (const auto& sequence : term.eventually) {
      auto rest = residuate_sequence(sequence, l);
      if (!rest) {
        possible = false;
        break;
      }
      if (rest->size() == 1) {
        StateSet& states = term.states.emplace(rest->front().event, kAnyState).first->second;
        states &= eventually_states(rest->front());
      } else if (!rest->empty()) {
        remaining.push_back(std::move(*rest));
      }
    }
    if (!possible) continue;
    term.eventually = std::move(remaining);
    terms.push_back(std::move(term));
  }
  terms_ = std::move(terms);
  simplify();
}

void Guard::announce_promised(const Literal& l) {
  known_[l.event] = known(l.event) & eventually_states(l);
  simplify();
}

bool Guard::holds_now() const {
  for (const GuardTerm& term : terms_) {
    if (!term.eventually.empty()) continue;
    bool holds = true;
    for (const auto& [event, states] : term.states) {
      StateSet possible = known(event);
      if ((possible & (kHappened | kComplementHappened)) != possible)
        possible &= kWillHappen | kWillNotHappen;  // not announced: has not happened here
      if ((possible & ~states) != 0) holds = false;
    }
    if (holds) return true;
  }
  return false;
}

namespace {

StateSet state_at(const TracePoint& point, const std::string& event) {
  for (std::size_t i = 0; i < point.trace.size(); ++i) {
    const Literal& l = point.trace[i];
    if (l.event != event) continue;
    if (i < point.index) return l.complement ? kComplementHappened : kHappened;
    return l.complement ? kWillNotHappen : kWillHappen;
  }
  return 0;  // not on the trace: the trace is not maximal for this event
}

bool occurs_in_order(const std::vector<Literal>& trace, const std::vector<Literal>& sequence) {
  std::size_t next = 0;
  for (const Literal& l : trace)
    if (next < sequence.size() && l == sequence[next]) ++next;
  // Every member must occur, and in this order: an out-of-order member is never matched later
  // because each event occurs at most once.
  return next == sequence.size();
}

}  // namespace

bool Guard::holds_at(const TracePoint& point) const {
  for (const GuardTerm& term : terms_) {
    bool holds = true;
    for (const auto& [event, states] : term.states)
      if ((state_at(point, event) & states) == 0) holds = false;
    for (const auto& sequence : term.eventually)
      if (!occurs_in_order(point.trace, sequence)) holds = false;
    if (holds) return true;
  }
  return false;
}

// ----- printing -----

namespace {

enum class AtomKind { always = 0, not_yet = 1, eventually = 2 };

struct Atom {
  AtomKind kind;
  Literal literal;                // for □, ¬ and ◇ of one literal
  std::vector<Literal> sequence;  // for ◇ of a sequence
};

// The state sets one conjunction of atoms on an event can express, by number of atoms.
std::vector<Atom> atoms_for(const std::string& event, StateSet states) {
  Literal x{event, false}, not_x{event, true};
  switch (states) {
    case kHappened:
      return {{AtomKind::always, x, {}}};
    case kComplementHappened:
      return {{AtomKind::always, not_x, {}}};
    case kHappened | kWillHappen:
      return {{AtomKind::eventually, x, {}}};
    case kComplementHappened | kWillNotHappen:
      return {{AtomKind::eventually, not_x, {}}};
    case kAnyState & ~kHappened:
      return {{AtomKind::not_yet, x, {}}};
    case kAnyState & ~kComplementHappened:
      return {{AtomKind::not_yet, not_x, {}}};
    case kWillHappen | kWillNotHappen:
      return {{AtomKind::not_yet, x, {}}, {AtomKind::not_yet, not_x, {}}};
    case kWillHappen:
      return {{AtomKind::not_yet, x, {}}, {AtomKind::eventually, x, {}}};
    case kWillNotHappen:
      return {{AtomKind::not_yet, not_x, {}}, {AtomKind::eventually, not_x, {}}};
    default:
      return {};
  }
}

bool expressible(StateSet states) {
  return states == kAnyState || !atoms_for("x", states).empty();
}

// How a state set no conjunction expresses splits into a sum (◇~x + □x as in Example 9).
std::vector<StateSet> split(StateSet states) {
  switch (states) {
    case kHappened | kComplementHappened | kWillNotHappen:
      return {kComplementHappened | kWillNotHappen, kHappened};
    case kHappened | kComplementHappened | kWillHappen:
      return {kHappened | kWillHappen, kComplementHappened};
    default: {
      std::vector<StateSet> pieces;
      for (StateSet bit : {kHappened, kComplementHappened, kWillHappen, kWillNotHappen})
        if (states & bit) pieces.push_back(bit);
      return pieces;
    }
  }
}

std::string literal_text(const Literal& l, Notation notation) {
  (void)notation;
  return l.text();
}

std::string atom_text(const Atom& atom, Notation notation) {
  bool ascii = notation == Notation::ascii;
  switch (atom.kind) {
    case AtomKind::always:
      return (ascii ? "[]" : "\u25a1") + literal_text(atom.literal, notation);
    case AtomKind::not_yet:
      return (ascii ? "!" : "\u00ac") + literal_text(atom.literal, notation);
    case AtomKind::eventually: {
      std::string prefix = ascii ? "<>" : "\u25c7";
      if (atom.sequence.empty()) return prefix + literal_text(atom.literal, notation);
      std::string text = prefix + "(";
      for (std::size_t i = 0; i < atom.sequence.size(); ++i) {
        if (i) text += ascii ? "." : "\u00b7";
        text += literal_text(atom.sequence[i], notation);
      }
      return text + ")";
    }
  }
  return {};
}

}  // namespace

std::string Guard::text(Notation notation) const {
  if (is_zero()) return "0";
  if (is_top()) return "T";
  std::vector<std::string> printed_terms;
  for (const GuardTerm& term : terms_) {
    // What the term's ◇-sequences already imply needs no atom of its own.
    std::map<std::string, StateSet> implied;
    for (const auto& sequence : term.eventually)
      for (const Literal& l : sequence) {
        auto [it, inserted] = implied.emplace(l.event, eventually_states(l));
        if (!inserted) it->second &= eventually_states(l);
      }
    // Each event contributes one or more alternative atom conjunctions.
    std::vector<std::vector<std::vector<Atom>>> choices;
    std::vector<std::string> names;
    for (const auto& [event, states] : term.states)
      names.push_back(event);
    std::sort(names.begin(), names.end(), natural_less);
    for (const std::string& event : names) {
      StateSet states = term.states.at(event);
      StateSet context = known(event);
      if (auto it = implied.find(event); it != implied.end()) context &= it->second;
      std::vector<Atom> best;
      bool found = false;
      for (StateSet candidate = 1; candidate <= kAnyState; ++candidate) {
        if ((candidate & context) != (states & context) || !expressible(candidate)) continue;
        std::vector<Atom> atoms = atoms_for(event, candidate);
        if (!found || atoms.size() < best.size()) {
          best = std::move(atoms);
          found = true;
        }
      }
      if (found) {
        choices.push_back({best});
      } else {
        // A piece another term already covers is left out: (◇~a ∧ X) + ((◇~a + □a) ∧ X ∧ Y)
        // prints as ◇~a ∧ X + □a ∧ X ∧ Y.
        std::vector<std::vector<Atom>> alternatives;
        for (StateSet piece : split(states)) {
          GuardTerm narrowed = term;
          narrowed.states[event] = piece;
          bool covered = false;
          for (const GuardTerm& other : terms_) {
            // Only terms printed whole may cover, or two split terms could drop each other's.
            bool whole = std::all_of(other.states.begin(), other.states.end(),
                                     [](const auto& entry) { return expressible(entry.second); });
            covered |= &other != &term && whole && subsumes(other, narrowed);
          }
          if (!covered) alternatives.push_back(atoms_for(event, piece));
        }
        choices.push_back(std::move(alternatives));
      }
    }
    std::vector<std::vector<Atom>> expanded{{}};
    for (const auto& alternatives : choices) {
      std::vector<std::vector<Atom>> next;
      for (const auto& prefix : expanded)
        for (const auto& alternative : alternatives) {
          auto joined = prefix;
          joined.insert(joined.end(), alternative.begin(), alternative.end());
          next.push_back(std::move(joined));
        }
      expanded = std::move(next);
    }
    for (auto& atoms : expanded) {
      for (const auto& sequence : term.eventually)
        atoms.push_back({AtomKind::eventually, sequence.front(), sequence});
      std::stable_sort(atoms.begin(), atoms.end(), [](const Atom& a, const Atom& b) {
        if (a.kind != b.kind) return a.kind < b.kind;
        if (a.sequence.empty() != b.sequence.empty()) return a.sequence.empty();
        if (a.literal.event != b.literal.event)
          return natural_less(a.literal.event, b.literal.event);
        return a.literal.complement < b.literal.complement;
      });
      std::string text;
      for (const Atom& atom : atoms) {
        if (!text.empty()) text += notation == Notation::ascii ? " & " : " \u2227 ";
        text += atom_text(atom, notation);
      }
      printed_terms.push_back(text.empty() ? "T" : text);
    }
  }
  std::string text;
  for (const std::string& term : printed_terms) {
    if (!text.empty()) text += " + ";
    text += term;
  }
  return text;
}

}  // namespace cwf::guards
