// How the eca actors take occurrences from a firing's window and emit them, in one place: every
// actor that reads occurrences accepts the same tokens (to_occurrence) and reports a bad one the
// same way, and every occurrence goes out at its own (event) time.
#pragma once

#include <exception>

#include "actors/eca/occurrence.hpp"
#include "runtime/actor/actor_context.hpp"

namespace cwf::eca {

// Calls `process(occurrence)` for each token of the window read as an occurrence (stamped with
// the event's time when it has none). A token that is not an occurrence, or on which `process`
// throws, is reported as an error of the actor; the rest of the window goes on.
template <class Process>
void for_each_occurrence(FiringContext& context, Process&& process) {
  for (const Event& event : context.window()) {
    try {
      process(to_occurrence(event.token, event.time));
    } catch (const std::exception& e) {
      context.report_error(e.what());
    }
  }
}

// Emits `occurrence` on `port`, stamped with its own time: a reply simulated 3 minutes after its
// request, or a composite completed by its last component, happens then, not at the firing.
inline void emit_occurrence(FiringContext& context, int port, const Value& occurrence) {
  context.set_output_time(occurrence_time(occurrence));
  context.emit(port, occurrence);
}

}  // namespace cwf::eca
