// A file of answers in the product line format of FORMAT.md ("What to match"), the ValidateMTBQ
// line format: `0,carid,time,emit,lav,toll`, `1,time,emit,xway,accseg,dir,carid`,
// `2,time,emit,resulttime,qid,balance`, `3,time,emit,qid,toll`. ValidateMTBQ's own file also
// has `5,...` lines: its second acceptable balance for a type-2 query.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "linear_road/malformed_lines.hpp"
#include "linear_road/records.hpp"

namespace cwf::lr {

struct AnswerFile {
  std::vector<TollNotification> tolls;
  std::vector<AccidentAlert> alerts;
  std::vector<BalanceAnswer> balances;
  std::vector<ExpenditureAnswer> expenditures;
  std::vector<BalanceAnswer> alternative_balances;  // `5` lines, ValidateMTBQ only
};

enum class AnswerDialect {
  product,        // types 0-3
  validate_mtbq,  // also `5` lines
};

// Adds one line's answer to `answers`; returns the reason when the line is malformed.
std::string parse_answer_line(std::string_view line, AnswerDialect dialect, AnswerFile& answers);

// Reads a whole file (plain or .xz). Throws DataFileError when it cannot be read.
AnswerFile read_answer_file(const std::string& path, AnswerDialect dialect,
                            MalformedLines& malformed);

// The answers as lines of the product format.
std::string format_answer(const TollNotification& a);
std::string format_answer(const AccidentAlert& a);
std::string format_answer(const BalanceAnswer& a);
std::string format_answer(const ExpenditureAnswer& a);

}  // namespace cwf::lr
