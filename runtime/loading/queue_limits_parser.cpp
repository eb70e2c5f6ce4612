// `capacity:` and `overload:` of a connection, and the workflow's `queues:` defaults.
#include "runtime/loading/workflow_parser.hpp"
#include "runtime/values/did_you_mean.hpp"

namespace cwf::loader_detail {

namespace {
const std::vector<std::string> kQueueKeys = {"capacity", "overload"};
const std::vector<std::string> kOverloads = {"block", "drop_newest", "drop_oldest", "sample"};
}  // namespace

std::uint64_t FileParser::parse_capacity(const YamlEntry& entry) const {
  if (entry.value.IsScalar() && entry.value.Scalar() == "unbounded") return QueueLimits::kUnbounded;
  return static_cast<std::uint64_t>(
      integer(entry, 1, "a capacity (a positive number of events, or unbounded)"));
}

Overload FileParser::parse_overload_policy(const YamlEntry& entry) const {
  std::string text = scalar(entry, "an overload policy (" + join(kOverloads) + ")");
  std::optional<Overload> overload = parse_overload(text);
  if (!overload)
    fail(value_location(entry), "unknown overload policy '" + text + "' (known: " +
                                    join(kOverloads) + ")" + did_you_mean_suffix(text, kOverloads));
  return *overload;
}

bool FileParser::parse_queue_key(const YamlEntry& entry, std::optional<std::uint64_t>& capacity,
                                 std::optional<Overload>& overload) const {
  if (entry.key == "capacity")
    capacity = parse_capacity(entry);
  else if (entry.key == "overload")
    overload = parse_overload_policy(entry);
  else
    return false;
  return true;
}

QueueLimits FileParser::parse_queues(const YamlEntry& entry) const {
  if (!entry.value.IsMap())
    fail(value_location(entry),
         "expected a map for 'queues' (e.g. {capacity: 16384, overload: block}), got " +
             describe_yaml(entry.value));
  std::optional<std::uint64_t> capacity;
  std::optional<Overload> overload;
  for (const YamlEntry& item : yaml_map_entries(entry.value, file_))
    if (!parse_queue_key(item, capacity, overload))
      fail(key_location(item), "unknown key '" + item.key + "' in 'queues'" +
                                   suggest(item.key, kQueueKeys, "expected one of"));
  QueueLimits limits;
  limits.capacity = capacity.value_or(limits.capacity);
  limits.overload = overload.value_or(limits.overload);
  return limits;
}

}  // namespace cwf::loader_detail
