// One external event as an incoming record gives it (instance id, event type, data), read and
// checked against a model. The gsm actor and gsm_pubsub read their input with the same reader,
// so that they accept the same records and reject the others with the same message; each keeps
// its own instances and asks may_make_instance() about an id it has not seen.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actors/gsm/bstep_engine.hpp"
#include "runtime/expressions/expression.hpp"

namespace cwf::gsm {

struct IncomingEvent {
  Value id;  // a string or a number
  int event = -1;
  std::vector<DataUpdate> updates;  // each an attribute the event type updates, of its type
};

class IncomingEventReader {
 public:
  // The expressions give a record's instance id, event type and data (a record or null).
  IncomingEventReader(std::shared_ptr<const CompiledModel> model, Expression instance,
                      Expression event, Expression data);
  // The reader of records {instance, type, data}.
  explicit IncomingEventReader(std::shared_ptr<const CompiledModel> model);

  // Reads `record` into `out`; returns why the record is rejected, or nothing when it is a valid
  // event of the model.
  std::optional<std::string> read(const Value& record, IncomingEvent& out) const;

  // For an event whose id names no instance yet: why it may not make one, or nothing when its
  // type may create an instance.
  std::optional<std::string> refuse_new_instance(const IncomingEvent& event) const;

 private:
  std::shared_ptr<const CompiledModel> model_;
  Expression instance_, event_, data_;
};

}  // namespace cwf::gsm
