#include "linear_road/balance_sum_actor.hpp"

#include <algorithm>
#include <string>

#include "actors/actor_type_util.hpp"
#include "linear_road/workflow_events.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"
#include "runtime/snapshot/sorted_keys.hpp"

namespace cwf::lr {

BalanceSumActor::BalanceSumActor() : Actor(kPorts) {}

void BalanceSumActor::fire(FiringContext& context) {
  for (const Event& event : context.window()) {
    const Value& part = event.token;
    if (!part.is_record() || part.schema() != balance_part_schema()) {
      context.report_error("not a part of a balance answer: " + part.to_json());
      continue;
    }
    auto s = part.slots();
    const auto qid = static_cast<std::int32_t>(s[kPartQid].as_int());
    const std::int64_t parts = s[kPartParts].as_int();
    auto at = open_.try_emplace(qid).first;
    Open& open = at->second;
    open.balance += s[kPartBalance].as_int();
    open.released = std::min(open.released, s[kPartReleased].as_int());
    if (++open.parts_seen < parts) continue;
    const auto time = static_cast<std::int32_t>(s[kPartTime].as_int());
    const auto result_time = static_cast<std::int32_t>(s[kPartResultTime].as_int());
    context.emit(
        make_answer(BalanceAnswer{time, time, result_time, qid, open.balance}, open.released));
    open_.erase(at);
  }
}

void BalanceSumActor::end_of_input(FiringContext& context) {
  if (open_.empty()) return;
  context.report_dropped(open_.size(),
                         "balance queries still waiting for the parts of some replicas of "
                         "lr_toll at the end of the input: is the number of replicas the one "
                         "the parts say?");
}

void BalanceSumActor::save_state(SnapshotWriter& out, ActorContext&) {
  const std::vector<std::int32_t> qids = sorted_keys(open_);
  out.write_u64(qids.size());
  for (std::int32_t qid : qids) {
    const Open& open = open_.at(qid);
    out.write_i64(qid);
    out.write_i64(open.balance);
    out.write_i64(open.parts_seen);
    out.write_i64(open.released);
  }
}

void BalanceSumActor::restore_state(SnapshotReader& in, ActorContext&) {
  open_.clear();
  for (std::uint64_t n = in.read_u64("the number of open balance queries"); n > 0; --n) {
    const auto qid = static_cast<std::int32_t>(in.read_i64("a query id"));
    auto [at, fresh] = open_.try_emplace(qid);
    if (!fresh)
      in.reject("an open balance query", "query " + std::to_string(qid) + " is open twice");
    Open& open = at->second;
    open.balance = in.read_i64("a balance");
    open.parts_seen = in.read_i64("a number of parts");
    open.released = in.read_i64("a release time");
    if (open.parts_seen < 1)
      in.reject("an open balance query", "query " + std::to_string(qid) + " is open with " +
                                             std::to_string(open.parts_seen) + " parts come");
  }
}

ActorType balance_sum_actor_type() {
  return actors::make_type(
      "lr_balance_sum",
      "Linear Road account balances from the parts that the replicas of lr_toll answer with.", {},
      BalanceSumActor::kPorts,
      [](const Params&) -> std::unique_ptr<Actor> { return std::make_unique<BalanceSumActor>(); });
}

}  // namespace cwf::lr
