#include "actors/guards/event_expression.hpp"

#include <algorithm>
#include <set>

namespace cwf::guards {

Literal parse_literal(const std::string& text) {
  if (!text.empty() && text[0] == '~') return Literal{text.substr(1), true};
  return Literal{text, false};
}

EventExpr EventExpr::sequence(std::vector<EventExpr> parts) {
  return EventExpr{Kind::sequence, {}, std::move(parts)};
}
EventExpr EventExpr::choice(std::vector<EventExpr> parts) {
  return EventExpr{Kind::choice, {}, std::move(parts)};
}
EventExpr EventExpr::conjunction(std::vector<EventExpr> parts) {
  return EventExpr{Kind::conjunction, {}, std::move(parts)};
}

namespace {

int precedence(const EventExpr& e) {
  switch (e.kind) {
    case EventExpr::Kind::choice:
      return 1;
    case EventExpr::Kind::conjunction:
      return 2;
    case EventExpr::Kind::sequence:
      return 3;
    default:
      return 4;
  }
}

void append_text(const EventExpr& e, bool ascii, std::string& out) {
  switch (e.kind) {
    case EventExpr::Kind::zero:
      out += "0";
      return;
    case EventExpr::Kind::top:
      out += "T";
      return;
    case EventExpr::Kind::literal:
      out += e.literal.text();
      return;
    default:
      break;
  }
  const char* separator = e.kind == EventExpr::Kind::choice        ? " + "
                          : e.kind == EventExpr::Kind::conjunction ? " | "
                          : ascii                                  ? "."
                                                                   : "\u00b7";
  bool first = true;
  for (const EventExpr& child : e.children) {
    if (!first) out += separator;
    first = false;
    // Flattening leaves no same-kind nesting, so equal precedence never occurs unparenthesised.
    // A conjunction inside a choice is bracketed although | binds tighter: easier to read.
    bool parenthesise =
        precedence(child) <= precedence(e) ||
        (e.kind == EventExpr::Kind::choice && child.kind == EventExpr::Kind::conjunction);
    if (parenthesise) out += "(";
    append_text(child, ascii, out);
    if (parenthesise) out += ")";
  }
}

// Builds a choice or conjunction from normalised members, flattening and simplifying.
EventExpr combine(EventExpr::Kind kind, const std::vector<EventExpr>& members) {
  const bool is_choice = kind == EventExpr::Kind::choice;
  std::vector<EventExpr> kept;
  auto add = [&](const EventExpr& member, auto& self) -> bool {
    if (member.kind == kind) {
      for (const EventExpr& inner : member.children)
        if (!self(inner, self)) return false;
      return true;
    }
    // T absorbs a choice and is neutral in a conjunction; 0 the other way round.
    if (member.is_top()) return !is_choice;
    if (member.is_zero()) return is_choice;
    if (std::find(kept.begin(), kept.end(), member) == kept.end()) kept.push_back(member);
    return true;
  };
  for (const EventExpr& member : members)
    if (!add(member, add)) return is_choice ? EventExpr::top() : EventExpr::zero();
  if (kept.empty()) return is_choice ? EventExpr::zero() : EventExpr::top();
  if (kept.size() == 1) return kept.front();
  return EventExpr{kind, {}, std::move(kept)};
}

// Sequence of two normalised expressions.
EventExpr then(const EventExpr& a, const EventExpr& b) {
  if (a.is_zero() || b.is_zero()) return EventExpr::zero();
  if (a.is_top()) return b;
  if (b.is_top()) return a;
  for (const EventExpr* side : {&a, &b}) {
    if (side->kind == EventExpr::Kind::choice || side->kind == EventExpr::Kind::conjunction) {
      std::vector<EventExpr> distributed;
      for (const EventExpr& member : side->children)
        distributed.push_back(side == &a ? then(member, b) : then(a, member));
      return combine(side->kind, distributed);
    }
  }
  std::vector<Literal> joined = literals_of_sequence(a);
  for (const Literal& l : literals_of_sequence(b))
    joined.push_back(l);
  std::set<std::string> seen;
  for (const Literal& l : joined)
    if (!seen.insert(l.event).second) return EventExpr::zero();  // no event occurs twice
  std::vector<EventExpr> parts;
  for (const Literal& l : joined)
    parts.push_back(EventExpr::of(l));
  return EventExpr::sequence(std::move(parts));
}

void collect_events(const EventExpr& e, std::vector<std::string>& out) {
  if (e.kind == EventExpr::Kind::literal) {
    if (std::find(out.begin(), out.end(), e.literal.event) == out.end())
      out.push_back(e.literal.event);
  }
  for (const EventExpr& child : e.children)
    collect_events(child, out);
}

}  // namespace

std::string to_text(const EventExpr& expression, bool ascii) {
  std::string out;
  append_text(expression, ascii, out);
  return out;
}

EventExpr normalise(const EventExpr& expression) {
  switch (expression.kind) {
    case EventExpr::Kind::zero:
    case EventExpr::Kind::top:
    case EventExpr::Kind::literal:
      return expression;
    case EventExpr::Kind::sequence: {
      EventExpr result = EventExpr::top();
      for (const EventExpr& child : expression.children)
        result = then(result, normalise(child));
      return result;
    }
    case EventExpr::Kind::choice:
    case EventExpr::Kind::conjunction: {
      std::vector<EventExpr> members;
      for (const EventExpr& child : expression.children)
        members.push_back(normalise(child));
      return combine(expression.kind, members);
    }
  }
  return expression;
}

std::vector<std::string> events_of(const EventExpr& expression) {
  std::vector<std::string> out;
  collect_events(expression, out);
  return out;
}

bool mentions(const EventExpr& expression, const std::string& event) {
  if (expression.kind == EventExpr::Kind::literal) return expression.literal.event == event;
  return std::any_of(expression.children.begin(), expression.children.end(),
                     [&](const EventExpr& child) { return mentions(child, event); });
}

std::vector<Literal> literals_of_sequence(const EventExpr& expression) {
  if (expression.kind == EventExpr::Kind::literal) return {expression.literal};
  std::vector<Literal> out;
  if (expression.kind != EventExpr::Kind::sequence) return out;
  for (const EventExpr& child : expression.children)
    if (child.kind == EventExpr::Kind::literal) out.push_back(child.literal);
  return out;
}

}  // namespace cwf::guards
