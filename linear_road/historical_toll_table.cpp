#include "linear_road/historical_toll_table.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "actors/line_reader.hpp"

namespace cwf::lr {

namespace {

// `carid,day,xway,toll`, exactly four integers.
bool parse_row(std::string_view line, std::int32_t (&fields)[4]) {
  const char* p = line.data();
  const char* end = p + line.size();
  for (int i = 0; i < 4; ++i) {
    if (i > 0) {
      if (p == end || *p != ',') return false;
      ++p;
    }
    auto [next, ec] = std::from_chars(p, end, fields[i]);
    if (ec != std::errc()) return false;
    p = next;
  }
  return p == end;
}

}  // namespace

HistoricalTollTable::LoadResult HistoricalTollTable::load(const std::string& path) {
  LoadResult result;
  actors::LineReader reader;
  if (!reader.open(path)) {
    result.error = path + ": " + std::strerror(errno);
    return result;
  }
  result.opened = true;
  std::string_view line;
  std::int32_t f[4];
  while (reader.next(line)) {
    if (line.empty()) continue;
    bool ok = parse_row(line, f) && f[0] >= 0 && f[0] <= kMaxCarid && f[1] >= 0 && f[1] < kDays &&
              f[2] >= 0 && f[2] <= INT16_MAX && f[3] >= 0 && f[3] <= INT16_MAX;
    if (!ok) {
      ++result.malformed;
      if (result.first_malformed_lines.size() < 5)
        result.first_malformed_lines.push_back(reader.line_number());
      continue;
    }
    set(f[0], f[1], f[2], f[3]);
    ++result.rows;
  }
  if (!reader.error().empty()) result.error = path + ": " + reader.error();
  return result;
}

void HistoricalTollTable::set(std::int32_t carid, std::int32_t day, std::int32_t xway,
                              std::int32_t toll) {
  std::size_t index = static_cast<std::size_t>(carid) * kDays + static_cast<std::size_t>(day);
  if (index >= toll_.size()) {
    // Grow by doubling: the file is sorted by carid, so this is amortised O(1) per row.
    std::size_t size = std::max<std::size_t>(index + 1, toll_.size() * 2);
    toll_.resize(size, -1);
    xway_.resize(size, -1);
  }
  if (toll_[index] < 0) ++rows_;
  toll_[index] = static_cast<std::int16_t>(toll);
  xway_[index] = static_cast<std::int16_t>(xway);
}

std::optional<std::int32_t> HistoricalTollTable::lookup(std::int32_t carid, std::int32_t day,
                                                        std::int32_t xway) const {
  if (carid < 0 || day < 0 || day >= kDays) return std::nullopt;
  if (copies_ > 1 && replica_cars_ > 0 && carid >= replica_cars_) {
    std::int32_t copy = carid / replica_cars_;
    if (copy >= copies_) return std::nullopt;
    carid -= copy * replica_cars_;
    xway -= copy * replica_xways_;
  }
  std::size_t index = static_cast<std::size_t>(carid) * kDays + static_cast<std::size_t>(day);
  if (index >= toll_.size() || toll_[index] < 0 || xway_[index] != xway) return std::nullopt;
  return toll_[index];
}

}  // namespace cwf::lr
