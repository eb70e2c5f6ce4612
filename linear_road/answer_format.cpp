#include "linear_road/answer_format.hpp"

#include <charconv>
#include <cstdint>

namespace cwf::lr {

namespace {

// Appends `,value` (or just `value` for the first field).
char* field(char* out, std::int64_t value, bool first = false) {
  if (!first) *out++ = ',';
  return std::to_chars(out, out + 24, value).ptr;
}

char* end_line(char* out) {
  *out++ = '\n';
  return out;
}

}  // namespace

char* format_answer_line(char* out, const TollNotification& a) {
  out = field(out, 0, true);
  out = field(out, a.carid);
  out = field(out, a.time);
  out = field(out, a.emit);
  out = field(out, a.lav);
  out = field(out, a.toll);
  return end_line(out);
}

char* format_answer_line(char* out, const AccidentAlert& a) {
  out = field(out, 1, true);
  out = field(out, a.time);
  out = field(out, a.emit);
  out = field(out, a.xway);
  out = field(out, a.accident_seg);
  out = field(out, a.dir);
  out = field(out, a.carid);
  return end_line(out);
}

char* format_answer_line(char* out, const BalanceAnswer& a) {
  out = field(out, 2, true);
  out = field(out, a.time);
  out = field(out, a.emit);
  out = field(out, a.result_time);
  out = field(out, a.qid);
  out = field(out, a.balance);
  return end_line(out);
}

char* format_answer_line(char* out, const ExpenditureAnswer& a) {
  out = field(out, 3, true);
  out = field(out, a.time);
  out = field(out, a.emit);
  out = field(out, a.qid);
  out = field(out, a.toll);
  return end_line(out);
}

}  // namespace cwf::lr
