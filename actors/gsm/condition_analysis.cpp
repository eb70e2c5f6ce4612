#include "actors/gsm/condition_analysis.hpp"

#include <algorithm>

#include "runtime/expressions/expr_error.hpp"
#include "runtime/expressions/expr_lexer.hpp"
#include "runtime/expressions/expression.hpp"
#include "runtime/values/did_you_mean.hpp"

namespace cwf::gsm {

namespace {

using expr::Tok;
using expr::Token;

bool is_keyword(std::string_view word) {
  return word == "and" || word == "or" || word == "not" || word == "true" || word == "false" ||
         word == "null";
}

bool is_word(const Token& token, std::string_view word) {
  return token.kind == Tok::identifier && token.text == word;
}

// A status reference found in the token stream: tokens [first, last] name `attribute`.
struct Reference {
  std::size_t first = 0;
  std::size_t last = 0;
  int attribute = -1;
};

void add_unique(std::vector<int>& list, int value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

// One conjunct given as token range [begin, end): `X`, `not X`, `!X`, with optional parentheses.
std::optional<StatusLiteral> literal_of(const std::vector<Token>& tokens, std::size_t begin,
                                        std::size_t end, const std::vector<Reference>& refs) {
  while (end - begin >= 2 && tokens[begin].kind == Tok::lparen &&
         tokens[end - 1].kind == Tok::rparen) {
    // Only strip parentheses that enclose the whole conjunct.
    int depth = 0;
    bool encloses = true;
    for (std::size_t i = begin; i < end - 1; ++i) {
      if (tokens[i].kind == Tok::lparen) ++depth;
      if (tokens[i].kind == Tok::rparen) --depth;
      if (depth == 0) {
        encloses = false;
        break;
      }
    }
    if (!encloses) break;
    ++begin;
    --end;
  }
  bool value = true;
  if (begin < end && (is_word(tokens[begin], "not") || tokens[begin].kind == Tok::bang)) {
    value = false;
    ++begin;
    if (begin < end && tokens[begin].kind == Tok::lparen && tokens[end - 1].kind == Tok::rparen) {
      ++begin;
      --end;
    }
  }
  for (const Reference& ref : refs)
    if (ref.first == begin && ref.last + 1 == end) return StatusLiteral{ref.attribute, value};
  return std::nullopt;
}

}  // namespace

std::string status_variable(std::string_view status_name) {
  std::string name(status_name);
  std::replace(name.begin(), name.end(), ':', '_');
  return name;
}

ConditionInfo analyse_condition(std::string_view text, const Model& model) {
  ConditionInfo info;
  info.source = std::string(text);
  info.expression = std::string(text);
  std::vector<Token> tokens = expr::tokenize(text);
  std::vector<Reference> refs;
  const std::vector<std::string> names = model.status_names();
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind != Tok::identifier || is_keyword(token.text)) continue;
    const Token* previous = i > 0 ? &tokens[i - 1] : nullptr;
    const Token& next = tokens[i + 1];
    if (previous && previous->kind == Tok::slash && !token.space_before) {
      // A path step: a data attribute when it is one (reading more than needed is harmless).
      if (token.text == "latestIncEvent")
        add_unique(info.data_read, static_cast<int>(model.data.size()));
      if (auto d = model.find_data(token.text)) add_unique(info.data_read, *d);
      continue;
    }
    if (next.kind == Tok::lparen) continue;  // a function call
    if (next.kind == Tok::colon && previous &&
        (previous->kind == Tok::lbrace || previous->kind == Tok::comma))
      continue;  // a field name of a record literal
    if (next.kind == Tok::colon && !next.space_before && i + 2 < tokens.size() &&
        tokens[i + 2].kind == Tok::identifier && !tokens[i + 2].space_before) {
      std::string qualified = std::string(token.text) + ":" + std::string(tokens[i + 2].text);
      if (auto attribute = model.find_status(qualified)) {
        refs.push_back({i, i + 2, *attribute});
        info.expression[static_cast<std::size_t>(next.column - 1)] = '_';
        i += 2;
        continue;
      }
      throw ExprError(
          "unknown milestone '" + qualified + "'" + did_you_mean_suffix(qualified, names),
          token.column);
    }
    if (auto attribute = model.find_status(token.text)) {
      refs.push_back({i, i, *attribute});
      continue;
    }
    throw ExprError("unknown status attribute '" + std::string(token.text) +
                        "' (stages are written by name, milestones as STAGE:milestone, data "
                        "attributes as /name)" +
                        did_you_mean_suffix(token.text, names),
                    token.column);
  }
  for (const Reference& ref : refs)
    add_unique(info.status_read, ref.attribute);
  std::sort(info.status_read.begin(), info.status_read.end());
  std::sort(info.data_read.begin(), info.data_read.end());

  // Top-level conjuncts: only when neither `or` nor `? :` binds looser at depth 0.
  std::vector<std::pair<std::size_t, std::size_t>> conjuncts;
  int depth = 0;
  bool split = true;
  std::size_t start = 0;
  const std::size_t end = tokens.size() - 1;  // the last token is Tok::end
  for (std::size_t i = 0; i < end; ++i) {
    const Token& token = tokens[i];
    if (token.kind == Tok::lparen || token.kind == Tok::lbracket || token.kind == Tok::lbrace)
      ++depth;
    if (token.kind == Tok::rparen || token.kind == Tok::rbracket || token.kind == Tok::rbrace)
      --depth;
    if (depth != 0) continue;
    if (is_word(token, "or") || token.kind == Tok::or_ || token.kind == Tok::question)
      split = false;
    if (is_word(token, "and") || token.kind == Tok::and_) {
      conjuncts.emplace_back(start, i);
      start = i + 1;
    }
  }
  conjuncts.emplace_back(start, end);
  if (!split) conjuncts.assign(1, {0, end});
  std::vector<StatusLiteral> literals;
  bool all_literals = true;
  for (auto [b, e] : conjuncts) {
    if (e == b + 1 && is_word(tokens[b], "true")) continue;
    auto literal = literal_of(tokens, b, e, refs);
    if (!literal) {
      all_literals = false;
      continue;
    }
    literals.push_back(*literal);
    if (!literal->value) add_unique(info.negated_conjuncts, literal->attribute);
  }
  if (all_literals) info.literals = std::move(literals);

  // Compile once here so that a syntax error is reported while loading.
  ExprEnvironment environment;
  for (int attribute : info.status_read)
    environment.declare(status_variable(model.status_name(attribute)));
  Expression::compile(info.expression, environment);
  return info;
}

}  // namespace cwf::gsm
