#include "actors/guards/guard.hpp"
#include "runtime/snapshot/snapshot_reader.hpp"
#include "runtime/snapshot/snapshot_writer.hpp"

namespace cwf::guards {

namespace {

void write_states(SnapshotWriter& out, const std::map<std::string, StateSet>& states) {
  out.write_u64(states.size());
  for (const auto& [event, set] : states) {
    out.write_string(event);
    out.write_u64(set);
  }
}

std::map<std::string, StateSet> read_states(SnapshotReader& in, std::string_view what) {
  std::map<std::string, StateSet> states;
  for (std::size_t n = in.read_count(what); n > 0; --n) {
    std::string event = in.read_string("an event of a guard");
    std::uint64_t set = in.read_u64("the states of an event in a guard");
    if (set > kAnyState)
      in.reject("a guard", "the states of '" + event + "' are " + std::to_string(set) +
                               ", not a set of the four states an event can be in");
    states.emplace(std::move(event), static_cast<StateSet>(set));
  }
  return states;
}

}  // namespace

void Guard::save(SnapshotWriter& out) const {
  out.write_u64(terms_.size());
  for (const GuardTerm& term : terms_) {
    write_states(out, term.states);
    out.write_u64(term.eventually.size());
    for (const std::vector<Literal>& sequence : term.eventually) {
      out.write_u64(sequence.size());
      for (const Literal& literal : sequence) {
        out.write_string(literal.event);
        out.write_bool(literal.complement);
      }
    }
  }
  write_states(out, known_);
}

Guard Guard::restore(SnapshotReader& in) {
  Guard guard;
  guard.terms_.resize(in.read_count("the terms of a guard"));
  for (GuardTerm& term : guard.terms_) {
    term.states = read_states(in, "the events of a guard's term");
    term.eventually.resize(in.read_count("the sequences of a guard's term"));
    for (std::vector<Literal>& sequence : term.eventually) {
      sequence.resize(in.read_count("the literals of a sequence"));
      for (Literal& literal : sequence) {
        literal.event = in.read_string("a literal's event");
        literal.complement = in.read_bool("whether a literal is a complement");
      }
    }
  }
  guard.known_ = read_states(in, "what announcements told a guard");
  return guard;
}

}  // namespace cwf::guards
