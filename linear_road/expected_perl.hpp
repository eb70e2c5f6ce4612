// The expected answers of the original Perl + PostgreSQL validator: dumps of its tables,
// `expected-perl-*` in the shared dataset (columns in FORMAT.md). Loaded into compact rows;
// the validation sorts and indexes them as it needs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "linear_road/malformed_lines.hpp"
#include "linear_road/records.hpp"

namespace cwf::lr {

// `time,carid,dir,seg,lav,toll,accidentseg`: one row per (dir, seg, carid), the car's earliest
// report there that is not in the exit lane. lav -1: no data in the five minutes before.
struct PerlTollRow {
  Seconds time;
  std::int32_t carid;
  std::int32_t toll;
  std::int16_t lav;
  std::int16_t accident_seg;  // -1: no accident alert due
  std::int8_t dir;
  std::int8_t seg;
};

// `carid,querytime,resulttime,qid,balance`: one of a query's one or two acceptable answers.
struct PerlBalanceRow {
  std::int32_t carid;
  Seconds query_time;
  Seconds result_time;
  std::int32_t qid;
  std::int64_t balance;
};

// `carid,day,balance,qid`
struct PerlExpenditureRow {
  std::int32_t carid;
  std::int32_t day;
  std::int64_t balance;
  std::int32_t qid;
};

struct ExpectedPerl {
  std::vector<PerlTollRow> tolls;
  std::vector<PerlBalanceRow> balances;
  std::vector<PerlExpenditureRow> expenditures;
};

constexpr const char* kPerlTollFile = "expected-perl-tollaccalerts.csv";
constexpr const char* kPerlBalanceFile = "expected-perl-accountbalance.csv";
constexpr const char* kPerlExpenditureFile = "expected-perl-dailyexpenditure.csv";

// True when `dir` holds the Perl validator's toll table (plain or .xz).
bool has_expected_perl(const std::string& dir);

// Loads the three tables from `dir`. Throws DataFileError when one is missing or unreadable.
ExpectedPerl load_expected_perl(const std::string& dir, MalformedLines& malformed);

}  // namespace cwf::lr
