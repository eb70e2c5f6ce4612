// lr_answer_sink: writes every answer record as one product-format line (AnswerWriter), with
// `emit` = the answer's input time plus its response delay in simulated seconds: the clock time
// since its tuple was released, times `compression` (the source's pacing factor). As fast as
// possible (compression 0) there is no simulated time to speak of, and emit = time.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "linear_road/answer_writer.hpp"
#include "linear_road/response_times.hpp"
#include "runtime/actor/actor.hpp"
#include "runtime/loading/actor_registry.hpp"

namespace cwf::lr {

class AnswerSinkActor final : public Actor {
 public:
  static inline const ActorPorts kPorts{{{"in", "answer records"}}, {}};
  AnswerSinkActor(std::string path, double compression);
  void initialize(ActorContext& context) override;
  void fire(FiringContext& context) override;
  void wrapup(ActorContext& context) override;
  Checkpointing checkpointing() const override { return Checkpointing::own; }
  void save_state(SnapshotWriter& out, ActorContext& context) override;
  void restore_state(SnapshotReader& in, ActorContext& context) override;

  // Harnesses (rating, experiments) attach a recorder before the run: every answer's response
  // time (clock now - its tuple's release) is recorded there, paced or not.
  void record_response_times(ResponseTimes* recorder) { recorder_ = recorder; }
  // Harnesses may also attach a sink that sees every answer as written (emit included), e.g.
  // to compare a large run's answers without keeping them.
  void tap_answers(AnswerSink* tap) { tap_ = tap; }
  // Answers written per line type 0..3.
  const std::array<std::uint64_t, 4>& answers() const { return answers_; }

 private:
  std::string path_;  // "-": standard output
  double compression_;
  ResponseTimes* recorder_ = nullptr;
  AnswerSink* tap_ = nullptr;
  AnswerWriter writer_;
  std::array<std::uint64_t, 4> answers_{};
};

ActorType answer_sink_actor_type();

}  // namespace cwf::lr
