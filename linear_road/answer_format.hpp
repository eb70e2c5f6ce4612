// The answers as lines of the product format (FORMAT.md, "What to match"), written into a
// caller's buffer with std::to_chars: no allocation, so formatting millions of answers costs
// little next to computing them.
#pragma once

#include "linear_road/records.hpp"

namespace cwf::lr {

// The longest line any answer can produce (seven 20-digit fields with separators), newline
// included.
inline constexpr std::size_t kMaxAnswerLine = 160;

// Each writes one line, newline included, at `out` (room for kMaxAnswerLine) and returns the end.
char* format_answer_line(char* out, const TollNotification& a);  // 0,carid,time,emit,lav,toll
char* format_answer_line(char* out, const AccidentAlert& a);  // 1,time,emit,xway,accseg,dir,carid
char* format_answer_line(char* out, const BalanceAnswer& a);  // 2,time,emit,resulttime,qid,bal
char* format_answer_line(char* out, const ExpenditureAnswer& a);  // 3,time,emit,qid,toll

}  // namespace cwf::lr
