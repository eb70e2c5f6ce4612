#include "linear_road/replication.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "actors/line_reader.hpp"
#include "linear_road/input_parser.hpp"

namespace cwf::lr {

ReplicaShape scan_replica_shape(const std::string& path, Seconds until) {
  actors::LineReader reader;
  if (!reader.open(path))
    throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
  ReplicaShape shape;
  std::string_view line;
  InputRecord record;
  while (reader.next(line)) {
    if (parse_input_line(line, record) != InputReject::none) continue;
    if (until > 0 && record.time >= until) break;
    shape.cars = std::max(shape.cars, record.carid + 1);
    shape.xways = std::max(shape.xways, record.xway + 1);
    shape.qids = std::max(shape.qids, record.qid + 1);
    shape.last_time = std::max(shape.last_time, record.time);
    ++shape.records;
  }
  if (!reader.error().empty()) throw std::runtime_error(path + ": " + reader.error());
  return shape;
}

}  // namespace cwf::lr
