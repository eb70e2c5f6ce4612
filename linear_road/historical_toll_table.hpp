// The historical tolls (`carid,day,xway,toll`) that answer daily-expenditure queries, held as
// flat arrays indexed by carid * 70 + day: the shared dataset has 8.4 million rows, one per car
// and day, so a dense table is both the smallest and the fastest form (no per-row key objects).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cwf::lr {

class HistoricalTollTable {
 public:
  static constexpr std::int32_t kDays = 70;  // days 1..69; slot 0 unused by the benchmark
  // Larger carids are treated as malformed rows: the table is dense in carid.
  static constexpr std::int32_t kMaxCarid = (1 << 24) - 1;

  struct LoadResult {
    bool opened = false;
    std::string error;  // cannot open or read error
    std::uint64_t rows = 0;
    std::uint64_t malformed = 0;
    std::vector<std::uint64_t> first_malformed_lines;  // up to 5
  };

  // Reads a file (plain or .xz). A later row for the same (carid, day) replaces an earlier one.
  LoadResult load(const std::string& path);

  void set(std::int32_t carid, std::int32_t day, std::int32_t xway, std::int32_t toll);
  // The toll the car paid on `day` on expressway `xway`, or nothing when there is no such row.
  std::optional<std::int32_t> lookup(std::int32_t carid, std::int32_t day, std::int32_t xway) const;

  std::uint64_t rows() const { return rows_; }

  // Answers as if every row were replicated `copies` times the way replica() remaps the input:
  // copy i of row (carid, day, xway) is (carid + i*C, day, xway + i*X). A lookup maps such a
  // carid back to the original row; nothing is stored twice. `copies` 1: no replication.
  void replicate(std::int32_t cars, std::int32_t xways, std::int32_t copies) {
    replica_cars_ = cars;
    replica_xways_ = xways;
    copies_ = copies;
  }

 private:
  // toll_ == -1: no row. Tolls and expressways of the benchmark fit 16 bits; larger values are
  // rejected by load().
  std::vector<std::int16_t> toll_;
  std::vector<std::int16_t> xway_;
  std::uint64_t rows_ = 0;
  std::int32_t replica_cars_ = 0;
  std::int32_t replica_xways_ = 0;
  std::int32_t copies_ = 1;
};

}  // namespace cwf::lr
