#include "runtime/expressions/expr_parser.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/expressions/expr_error.hpp"
#include "runtime/expressions/expr_lexer.hpp"
#include "runtime/values/did_you_mean.hpp"

namespace cwf::expr {

namespace {

constexpr int kMaxDepth = 400;

class Parser {
 public:
  Parser(std::string_view source, const ExprEnvironment& env)
      : tokens_(tokenize(source)), env_(env) {}

  ParseResult run() {
    NodePtr root = expression();
    if (peek().kind != Tok::end)
      fail(peek(), "expected end of expression but found " + describe(peek()));
    return {std::move(root), variables_needed_};
  }

 private:
  // ---- Token access ----

  const Token& peek(std::size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const Token& next() {
    const Token& token = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return token;
  }
  static bool is_word(const Token& token, std::string_view word) {
    return token.kind == Tok::identifier && token.text == word;
  }
  static bool is_reserved(std::string_view word) {
    return word == "and" || word == "or" || word == "not" || word == "true" || word == "false" ||
           word == "null";
  }
  [[noreturn]] static void fail(const Token& at, std::string message) {
    throw ExprError(std::move(message), at.column);
  }
  void expect(Tok kind, std::string_view spelled) {
    if (peek().kind != kind)
      fail(peek(), "expected '" + std::string(spelled) + "' but found " + describe(peek()));
    next();
  }

  // Bounds the depth of the tree being built (and so the recursion of parsing, evaluating and
  // destroying it): one level per nested subexpression and per operator in a chain like a+b+c.
  struct DepthGuard {
    explicit DepthGuard(Parser& p) : parser(p) {}
    DepthGuard(Parser& p, const Token& at) : parser(p) { deepen(at); }
    ~DepthGuard() { parser.depth_ -= levels; }
    void deepen(const Token& at) {
      ++levels;
      if (++parser.depth_ > kMaxDepth) fail(at, "expression is nested too deeply");
    }
    Parser& parser;
    int levels = 0;
  };

  // ---- Grammar, lowest precedence first ----

  NodePtr expression() {
    DepthGuard guard(*this, peek());
    NodePtr condition = disjunction();
    if (peek().kind != Tok::question) return condition;
    int column = next().column;
    NodePtr then = expression();
    expect(Tok::colon, ":");
    NodePtr otherwise = expression();
    return make_conditional(std::move(condition), std::move(then), std::move(otherwise), column);
  }

  NodePtr disjunction() {
    DepthGuard guard(*this);
    NodePtr lhs = conjunction();
    while (peek().kind == Tok::or_ || is_word(peek(), "or")) {
      guard.deepen(peek());
      int column = next().column;
      lhs = make_or(std::move(lhs), conjunction(), column);
    }
    return lhs;
  }

  NodePtr conjunction() {
    DepthGuard guard(*this);
    NodePtr lhs = comparison();
    while (peek().kind == Tok::and_ || is_word(peek(), "and")) {
      guard.deepen(peek());
      int column = next().column;
      lhs = make_and(std::move(lhs), comparison(), column);
    }
    return lhs;
  }

  std::optional<CompareOp> comparison_operator() const {
    switch (peek().kind) {
      case Tok::eq:
        return CompareOp::eq;
      case Tok::ne:
        return CompareOp::ne;
      case Tok::lt:
        return CompareOp::lt;
      case Tok::le:
        return CompareOp::le;
      case Tok::gt:
        return CompareOp::gt;
      case Tok::ge:
        return CompareOp::ge;
      default:
        return std::nullopt;
    }
  }

  NodePtr comparison() {
    NodePtr lhs = additive();
    auto op = comparison_operator();
    if (!op) return lhs;
    int column = next().column;
    NodePtr rhs = additive();
    if (comparison_operator()) fail(peek(), "comparisons do not chain; combine them with 'and'");
    return make_compare(*op, std::move(lhs), std::move(rhs), column);
  }

  NodePtr additive() {
    DepthGuard guard(*this);
    NodePtr lhs = multiplicative();
    for (;;) {
      ArithOp op;
      if (peek().kind == Tok::plus)
        op = ArithOp::add;
      else if (peek().kind == Tok::minus)
        op = ArithOp::sub;
      else
        return lhs;
      guard.deepen(peek());
      int column = next().column;
      lhs = make_arith(op, std::move(lhs), multiplicative(), column);
    }
  }

  NodePtr multiplicative() {
    DepthGuard guard(*this);
    NodePtr lhs = unary();
    for (;;) {
      ArithOp op;
      // A '/' here is a division: path steps were taken by postfix() already.
      if (peek().kind == Tok::star)
        op = ArithOp::mul;
      else if (peek().kind == Tok::slash)
        op = ArithOp::div;
      else if (peek().kind == Tok::percent)
        op = ArithOp::mod;
      else
        return lhs;
      guard.deepen(peek());
      int column = next().column;
      lhs = make_arith(op, std::move(lhs), unary(), column);
    }
  }

  NodePtr unary() {
    DepthGuard guard(*this, peek());
    if (peek().kind == Tok::minus) {
      int column = next().column;
      // The one integer literal that only exists negated.
      constexpr auto kMinMagnitude =
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1;
      if (peek().kind == Tok::integer && peek().integer == kMinMagnitude) {
        next();
        return make_constant(Value(std::numeric_limits<std::int64_t>::min()), column);
      }
      return make_negate(unary(), column);
    }
    if (peek().kind == Tok::bang || is_word(peek(), "not")) {
      int column = next().column;
      return make_not(unary(), column);
    }
    return postfix();
  }

  // A '/' that touches the operand before it and the name after it is a path step.
  bool at_path_step() const {
    const Token& slash = peek();
    const Token& name = peek(1);
    return slash.kind == Tok::slash && !slash.space_before &&
           (name.kind == Tok::identifier || name.kind == Tok::string) && !name.space_before;
  }

  static std::string name_of(const Token& token) {
    return token.kind == Tok::string ? token.string : std::string(token.text);
  }

  NodePtr postfix() {
    NodePtr node = primary();
    for (;;) {
      if (peek().kind == Tok::lbracket) {
        int column = next().column;
        NodePtr index = expression();
        expect(Tok::rbracket, "]");
        node = make_index(std::move(node), std::move(index), column);
      } else if (at_path_step()) {
        int column = next().column;
        node = make_field(std::move(node), name_of(next()), column);
      } else {
        return node;
      }
    }
  }

  NodePtr primary() {
    const Token& token = peek();
    int column = token.column;
    switch (token.kind) {
      case Tok::integer:
        if (token.integer > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
          fail(token, "integer literal out of range");
        next();
        return make_constant(Value(static_cast<std::int64_t>(token.integer)), column);
      case Tok::real:
        next();
        return make_constant(Value(token.real), column);
      case Tok::string:
        next();
        return make_constant(Value(token.string), column);
      case Tok::lparen: {
        next();
        NodePtr inner = expression();
        expect(Tok::rparen, ")");
        return inner;
      }
      case Tok::lbracket:
        return array();
      case Tok::lbrace:
        return record();
      case Tok::slash: {
        next();
        auto path = PathNode::on_input(column);
        const Token& name = peek();
        if ((name.kind == Tok::identifier || name.kind == Tok::string) && !name.space_before)
          path->add_field(name_of(next()));
        return path;
      }
      case Tok::identifier:
        return named();
      default:
        fail(token, "expected an expression but found " + describe(token));
    }
  }

  NodePtr array() {
    int column = next().column;
    std::vector<NodePtr> items;
    if (peek().kind != Tok::rbracket) {
      for (;;) {
        items.push_back(expression());
        if (peek().kind != Tok::comma) break;
        next();
      }
    }
    expect(Tok::rbracket, "]");
    return make_array(std::move(items), column);
  }

  NodePtr record() {
    int column = next().column;
    std::vector<std::string> names;
    std::vector<NodePtr> values;
    if (peek().kind != Tok::rbrace) {
      for (;;) {
        const Token& name = peek();
        if (name.kind != Tok::identifier && name.kind != Tok::string)
          fail(name, "expected a field name but found " + describe(name));
        std::string field = name_of(name);
        if (std::find(names.begin(), names.end(), field) != names.end())
          fail(name, "duplicate field '" + field + "'");
        next();
        expect(Tok::colon, ":");
        names.push_back(std::move(field));
        values.push_back(expression());
        if (peek().kind != Tok::comma) break;
        next();
      }
    }
    expect(Tok::rbrace, "}");
    return make_record(Schema::intern(names), std::move(values), column);
  }

  NodePtr named() {
    const Token& token = next();
    int column = token.column;
    std::string_view name = token.text;
    if (name == "true") return make_constant(Value(true), column);
    if (name == "false") return make_constant(Value(false), column);
    if (name == "null") return make_constant(Value(), column);
    if (name == "and" || name == "or")
      fail(token, "expected an expression but found " + describe(token));
    if (peek().kind == Tok::lparen) return call(token);
    int index = env_.index_of(name);
    if (index >= 0) {
      variables_needed_ = std::max(variables_needed_, static_cast<std::size_t>(index) + 1);
      return PathNode::on_variable(static_cast<std::size_t>(index), column);
    }
    if (find_function(name) || name == "if")
      fail(token,
           "'" + std::string(name) + "' is a function; call it as " + std::string(name) + "(...)");
    std::vector<std::string> candidates(env_.variables().begin(), env_.variables().end());
    std::string suggestion = did_you_mean_suffix(name, candidates, Closeness::typo_or_extension);
    if (!suggestion.empty())
      fail(token, "unknown variable '" + std::string(name) + "'" + suggestion);
    // Most likely a field of the input written without its '/'.
    fail(token, "unknown name '" + std::string(name) + "'; paths into the input start with '/'" +
                    ", as in /" + std::string(name));
  }

  NodePtr call(const Token& name_token) {
    std::string_view name = name_token.text;
    int column = name_token.column;
    const FunctionInfo* function = find_function(name);
    if (!function && name != "if") {
      std::vector<std::string> candidates{"if"};
      for (const FunctionInfo& f : builtin_functions())
        candidates.emplace_back(f.name);
      fail(name_token, "unknown function '" + std::string(name) + "'" +
                           did_you_mean_suffix(name, candidates, Closeness::typo_or_extension));
    }
    expect(Tok::lparen, "(");
    std::vector<NodePtr> args;
    if (peek().kind != Tok::rparen) {
      for (;;) {
        args.push_back(expression());
        if (peek().kind != Tok::comma) break;
        next();
      }
    }
    expect(Tok::rparen, ")");
    int min_args = function ? function->min_args : 3;
    int max_args = function ? function->max_args : 3;
    auto count = static_cast<int>(args.size());
    if (count < min_args || (max_args >= 0 && count > max_args)) {
      std::string expected = min_args == max_args ? std::to_string(min_args)
                             : max_args < 0
                                 ? "at least " + std::to_string(min_args)
                                 : std::to_string(min_args) + " to " + std::to_string(max_args);
      fail(name_token,
           std::string(name) + "() takes " + expected +
               (max_args == 1 || (max_args < 0 && min_args == 1) ? " argument" : " arguments") +
               " but was given " + std::to_string(count));
    }
    if (!function)
      return make_conditional(std::move(args[0]), std::move(args[1]), std::move(args[2]), column);
    return make_call(*function, std::move(args), column);
  }

  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  const ExprEnvironment& env_;
  std::size_t variables_needed_ = 0;
};

}  // namespace

ParseResult parse(std::string_view source, const ExprEnvironment& env) {
  return Parser(source, env).run();
}

}  // namespace cwf::expr
