#include <sstream>

#include "actors/eca/rule_engine.hpp"
#include "actors/eca/site_ids_snapshot.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::eca {

void RuleEngine::save(SnapshotWriter& out) const {
  if (!queue_.empty())
    throw std::logic_error("a rule engine is checkpointed with raised events still to detect");
  detector_->save(out);
  // The generators as the standard library writes them (their whole state, as text).
  out.write_u64(random_.size());
  for (const std::mt19937_64& generator : random_) {
    std::ostringstream text;
    text << generator;
    out.write_string(text.str());
  }
  out.write_u64(pending_.size());
  for (const auto& [broker, count] : pending_) {
    out.write_string(broker);
    out.write_i64(count);
  }
  out.write_u64(request_broker_.size());
  for (const auto& [request, broker] : request_broker_) {
    out.write_value(request);
    out.write_string(broker);
  }
  save_site_ids(out, *ids_);
}

void RuleEngine::restore(SnapshotReader& in) {
  detector_->restore(in);
  if (in.read_u64("the rules' generators") != random_.size())
    in.reject("the rules' generators", "the rule set has another number of rules");
  std::vector<std::mt19937_64> random(random_.size());
  for (std::mt19937_64& generator : random) {
    std::istringstream text(in.read_string("a rule's generator"));
    text >> generator;
    if (text.fail()) in.reject("a rule's generator", "not a generator's state");
  }
  std::map<std::string, std::int64_t, std::less<>> pending;
  for (std::size_t n = in.read_count("the brokers with pending requests"); n > 0; --n) {
    std::string broker = in.read_string("a broker");
    pending[std::move(broker)] = in.read_i64("its pending requests");
  }
  std::map<Value, std::string> request_broker;
  for (std::size_t n = in.read_count("the open requests"); n > 0; --n) {
    Value request = in.read_value("an open request");
    request_broker[std::move(request)] = in.read_string("the broker it went to");
  }
  std::int64_t next_id = read_site_ids(in);
  random_ = std::move(random);
  pending_ = std::move(pending);
  request_broker_ = std::move(request_broker);
  apply_site_ids(*ids_, next_id);
}

}  // namespace cwf::eca
