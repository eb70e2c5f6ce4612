#include "linear_road/answer_sink_actor.hpp"

#include <cmath>
#include <stdexcept>

#include "actors/actor_type_util.hpp"
#include "linear_road/workflow_events.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::lr {

AnswerSinkActor::AnswerSinkActor(std::string path, double compression)
    : Actor(kPorts), path_(std::move(path)), compression_(compression) {}

void AnswerSinkActor::initialize(ActorContext& context) {
  answers_ = {};
  if (path_ == "-") {
    writer_.attach(1);
  } else if (!writer_.open(path_, /*append=*/context.resuming())) {
    throw std::runtime_error(context.name() + ": " + writer_.error());
  }
}

void AnswerSinkActor::save_state(SnapshotWriter& out, ActorContext&) {
  if (!writer_.sync())
    throw std::runtime_error(
        path_ + ": cannot make the answers durable for the checkpoint: " + writer_.error());
  out.write_u64(writer_.size());
  for (std::uint64_t count : answers_)
    out.write_u64(count);
}

void AnswerSinkActor::restore_state(SnapshotReader& in, ActorContext&) {
  std::uint64_t size = in.read_u64("the answers' size");
  decltype(answers_) answers{};
  for (std::uint64_t& count : answers)
    count = in.read_u64("the answers written of a type");
  // Cut only once the whole state has been read: a damaged checkpoint, refused, leaves the file
  // as it was for the previous one to cut. Standard output cannot be cut back: what was written
  // after the checkpoint comes again.
  if (!writer_.truncate_to(size))
    throw std::runtime_error(
        path_ + ": cannot go back to the answers of the checkpoint: " + writer_.error());
  answers_ = answers;
}

void AnswerSinkActor::wrapup(ActorContext& context) {
  if (!writer_.close()) context.report_error(path_ + ": write error: " + writer_.error());
}

void AnswerSinkActor::fire(FiringContext& context) {
  Timestamp now = compression_ > 0 || recorder_ ? context.clock().now() : 0;
  for (const Event& event : context.window()) {
    const Value& answer = event.token;
    if (!answer.is_record()) {
      context.report_error("not a Linear Road answer: " + answer.to_json());
      continue;
    }
    const Schema* schema = answer.schema();
    auto s = answer.slots();
    auto field = [&](int slot) { return static_cast<std::int32_t>(s[slot].as_int()); };
    const std::int32_t time = schema == toll_answer_schema() ? field(2) : field(1);
    Seconds emit = time;
    Duration response = now - s.back().as_int();  // meaningful when `now` was read
    if (compression_ > 0) {
      double delay = static_cast<double>(response) * compression_ / kSecond;
      emit = time + static_cast<Seconds>(std::floor(std::max(delay, 0.0)));
    }
    int type;  // the answer's line type
    if (schema == toll_answer_schema()) {
      TollNotification a{field(1), time, emit, field(3), field(4)};
      writer_.toll(a);
      if (tap_) tap_->toll(a);
      type = 0;
    } else if (schema == alert_answer_schema()) {
      AccidentAlert a{time, emit, field(2), field(3), field(4), field(5)};
      writer_.alert(a);
      if (tap_) tap_->alert(a);
      type = 1;
    } else if (schema == balance_answer_schema()) {
      BalanceAnswer a{time, emit, field(2), field(3), s[4].as_int()};
      writer_.balance(a);
      if (tap_) tap_->balance(a);
      type = 2;
    } else if (schema == expenditure_answer_schema()) {
      ExpenditureAnswer a{time, emit, field(2), s[3].as_int()};
      writer_.expenditure(a);
      if (tap_) tap_->expenditure(a);
      type = 3;
    } else {
      context.report_error("not a Linear Road answer: " + answer.to_json());
      continue;
    }
    ++answers_[static_cast<std::size_t>(type)];
    if (recorder_) recorder_->record(type, response);
  }
}

ActorType answer_sink_actor_type() {
  return actors::make_type(
      "lr_answer_sink",
      "Writes Linear Road answers, one product-format line each (0,carid,time,emit,lav,toll / "
      "1,time,emit,xway,accseg,dir,carid / 2,time,emit,resulttime,qid,balance / "
      "3,time,emit,qid,toll).",
      {{"path", ParamType::string, std::nullopt,
        "the answer file (created or truncated; relative to the workflow file's folder); '-' for "
        "standard output"},
       {"compression", ParamType::real, Value(0.0),
        "the source's pacing factor k: emit = time + response delay * k; 0: emit = time"}},
      AnswerSinkActor::kPorts, [](const Params& params) -> std::unique_ptr<Actor> {
        std::string path = params.get_string("path");
        if (path != "-") path = params.path("path");
        double compression = params.get_double("compression");
        if (compression < 0) throw ParamError("compression", "must not be negative");
        return std::make_unique<AnswerSinkActor>(std::move(path), compression);
      });
}

}  // namespace cwf::lr
