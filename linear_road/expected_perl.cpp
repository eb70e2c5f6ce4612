#include "linear_road/expected_perl.hpp"

#include "linear_road/integer_file.hpp"

namespace cwf::lr {

namespace {

std::string required_file(const std::string& dir, const char* name) {
  auto path = find_data_file(dir, name);
  if (!path) throw DataFileError(std::string("missing ") + dir + "/" + name + "[.xz]");
  return *path;
}

bool in_range(std::int64_t v, std::int64_t low, std::int64_t high) {
  return v >= low && v <= high;
}

constexpr std::int64_t kInt32Max = 2147483647;

}  // namespace

bool has_expected_perl(const std::string& dir) {
  return find_data_file(dir, kPerlTollFile).has_value();
}

ExpectedPerl load_expected_perl(const std::string& dir, MalformedLines& malformed) {
  ExpectedPerl perl;
  perl.tolls.reserve(1 << 21);
  read_integer_file(
      required_file(dir, kPerlTollFile), 7, 7, malformed,
      [&](const std::int64_t* f, int, std::uint64_t, std::string_view) {
        if (!in_range(f[0], 0, kInt32Max) || !in_range(f[1], 0, kInt32Max))
          return std::string("time or carid out of range");
        if (!in_range(f[2], 0, 1) || !in_range(f[3], 0, 127))
          return std::string("dir or seg out of range");
        if (!in_range(f[4], -1, 32767) || !in_range(f[5], 0, kInt32Max) || !in_range(f[6], -1, 127))
          return std::string("lav, toll or accidentseg out of range");
        perl.tolls.push_back({static_cast<Seconds>(f[0]), static_cast<std::int32_t>(f[1]),
                              static_cast<std::int32_t>(f[5]), static_cast<std::int16_t>(f[4]),
                              static_cast<std::int16_t>(f[6]), static_cast<std::int8_t>(f[2]),
                              static_cast<std::int8_t>(f[3])});
        return std::string();
      });
  read_integer_file(required_file(dir, kPerlBalanceFile), 5, 5, malformed,
                    [&](const std::int64_t* f, int, std::uint64_t, std::string_view) {
                      for (int i = 0; i < 4; ++i)
                        if (!in_range(f[i], -1, kInt32Max))
                          return std::string("field out of range");
                      perl.balances.push_back(
                          {static_cast<std::int32_t>(f[0]), static_cast<Seconds>(f[1]),
                           static_cast<Seconds>(f[2]), static_cast<std::int32_t>(f[3]), f[4]});
                      return std::string();
                    });
  read_integer_file(required_file(dir, kPerlExpenditureFile), 4, 4, malformed,
                    [&](const std::int64_t* f, int, std::uint64_t, std::string_view) {
                      if (!in_range(f[0], -1, kInt32Max) || !in_range(f[1], -1, kInt32Max) ||
                          !in_range(f[3], -1, kInt32Max))
                        return std::string("field out of range");
                      perl.expenditures.push_back({static_cast<std::int32_t>(f[0]),
                                                   static_cast<std::int32_t>(f[1]), f[2],
                                                   static_cast<std::int32_t>(f[3])});
                      return std::string();
                    });
  return perl;
}

}  // namespace cwf::lr
