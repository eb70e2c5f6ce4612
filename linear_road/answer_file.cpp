#include "linear_road/answer_file.hpp"

#include <limits>

#include "linear_road/integer_file.hpp"

namespace cwf::lr {

namespace {

// Fields per answer type (including the type itself); 0 for an unknown type.
int field_count(std::int64_t type, AnswerDialect dialect) {
  switch (type) {
    case 0:
      return 6;
    case 1:
      return 7;
    case 2:
      return 6;
    case 3:
      return 5;
    case 5:
      return dialect == AnswerDialect::validate_mtbq ? 6 : 0;
    default:
      return 0;
  }
}

bool fits_int32(std::int64_t v) {
  return v >= std::numeric_limits<std::int32_t>::min() &&
         v <= std::numeric_limits<std::int32_t>::max();
}

std::string add_answer(const std::int64_t* f, int count, AnswerDialect dialect,
                       AnswerFile& answers) {
  int expected = field_count(f[0], dialect);
  if (expected == 0) return "unknown answer type " + std::to_string(f[0]);
  if (count != expected)
    return "type " + std::to_string(f[0]) + " has " + std::to_string(expected) +
           " fields, this line " + std::to_string(count);
  // Balances and tolls are sums and may grow; every other field is a small integer.
  int last_small = (f[0] == 2 || f[0] == 3 || f[0] == 5) ? count - 1 : count;
  for (int i = 1; i < last_small; ++i)
    if (!fits_int32(f[i])) return "field " + std::to_string(i + 1) + " out of range";
  auto i32 = [&](int i) { return static_cast<std::int32_t>(f[i]); };
  switch (f[0]) {
    case 0:
      answers.tolls.push_back({i32(1), i32(2), i32(3), i32(4), i32(5)});
      break;
    case 1:
      answers.alerts.push_back({i32(1), i32(2), i32(3), i32(4), i32(5), i32(6)});
      break;
    case 2:
      answers.balances.push_back({i32(1), i32(2), i32(3), i32(4), f[5]});
      break;
    case 5:
      answers.alternative_balances.push_back({i32(1), i32(2), i32(3), i32(4), f[5]});
      break;
    case 3:
      answers.expenditures.push_back({i32(1), i32(2), i32(3), f[4]});
      break;
  }
  return {};
}

std::string joined(std::initializer_list<std::int64_t> fields) {
  std::string line;
  for (std::int64_t v : fields) {
    if (!line.empty()) line += ',';
    line += std::to_string(v);
  }
  return line;
}

}  // namespace

std::string parse_answer_line(std::string_view line, AnswerDialect dialect, AnswerFile& answers) {
  std::int64_t fields[kMaxIntegerFields];
  int count = split_integers(line, fields, kMaxIntegerFields);
  if (count < 1) return "not a list of integers";
  return add_answer(fields, count, dialect, answers);
}

AnswerFile read_answer_file(const std::string& path, AnswerDialect dialect,
                            MalformedLines& malformed) {
  AnswerFile answers;
  read_integer_file(path, 1, kMaxIntegerFields, malformed,
                    [&](const std::int64_t* fields, int count, std::uint64_t, std::string_view) {
                      return add_answer(fields, count, dialect, answers);
                    });
  return answers;
}

std::string format_answer(const TollNotification& a) {
  return joined({0, a.carid, a.time, a.emit, a.lav, a.toll});
}
std::string format_answer(const AccidentAlert& a) {
  return joined({1, a.time, a.emit, a.xway, a.accident_seg, a.dir, a.carid});
}
std::string format_answer(const BalanceAnswer& a) {
  return joined({2, a.time, a.emit, a.result_time, a.qid, a.balance});
}
std::string format_answer(const ExpenditureAnswer& a) {
  return joined({3, a.time, a.emit, a.qid, a.toll});
}

}  // namespace cwf::lr
