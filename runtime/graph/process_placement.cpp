#include "runtime/graph/process_placement.hpp"

#include <algorithm>
#include <vector>

#include "runtime/values/did_you_mean.hpp"

namespace cwf {

namespace {

// "tolls" and 1 for "tolls[1]" of an actor with parallelism; the name and -1 otherwise.
std::pair<std::string, int> replica_name(const ActorEntry& entry) {
  const std::string& name = entry.name;
  if (entry.actor->replica_count() <= 1 || name.empty() || name.back() != ']') return {name, -1};
  std::size_t open = name.rfind('[');
  if (open == std::string::npos) return {name, -1};
  return {name.substr(0, open), std::stoi(name.substr(open + 1, name.size() - open - 2))};
}

void check_placement(const Workflow& workflow, const ProcessPlacement& placement) {
  if (placement.processes < 1) throw WorkflowError("a workflow runs in at least one process");
  if (placement.process < 0 || placement.process >= placement.processes)
    throw WorkflowError("process " + std::to_string(placement.process) + " is not one of 0.." +
                        std::to_string(placement.processes - 1));
  std::vector<std::string> names;
  for (const ActorEntry& entry : workflow.actors()) {
    names.push_back(entry.name);
    auto [base, replica] = replica_name(entry);
    if (replica >= 0 && std::find(names.begin(), names.end(), base) == names.end())
      names.push_back(base);
  }
  for (const auto& [name, process] : placement.assigned) {
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw WorkflowError("placement names '" + name + "', which is no actor of the workflow" +
                          did_you_mean_suffix(name, names));
    if (process < 0 || process >= placement.processes)
      throw WorkflowError("placement puts '" + name + "' in process " + std::to_string(process) +
                          ", not one of 0.." + std::to_string(placement.processes - 1));
  }
}

std::string port_name(const Workflow& workflow, PortAddress port) {
  const ActorEntry& entry = workflow.actor(port.actor);
  return entry.name + "." + entry.actor->inputs()[static_cast<std::size_t>(port.port)].name;
}

}  // namespace

int process_of(const Workflow& workflow, ActorId actor, const ProcessPlacement& placement) {
  const ActorEntry& entry = workflow.actor(actor);
  if (auto it = placement.assigned.find(entry.name); it != placement.assigned.end())
    return it->second;
  auto [base, replica] = replica_name(entry);
  if (replica < 0) return 0;
  if (auto it = placement.assigned.find(base); it != placement.assigned.end()) return it->second;
  return replica % placement.processes;
}

std::unique_ptr<Workflow> part_for_process(Workflow& whole, const ProcessPlacement& placement,
                                           ProcessLinkMaker& links,
                                           const std::string& subject_prefix) {
  check_placement(whole, placement);
  const auto here = static_cast<std::uint32_t>(placement.process);
  std::vector<std::uint32_t> process(whole.size());
  for (ActorId id = 0; id < whole.size(); ++id)
    process[id] = static_cast<std::uint32_t>(process_of(whole, id, placement));
  auto subject = [&](PortAddress port) {
    return subject_prefix + "." + std::to_string(port.actor) + "." + std::to_string(port.port);
  };

  auto part = std::make_unique<Workflow>(whole.name());
  part->director() = whole.director();
  part->set_clock(whole.clock());
  part->set_queue_defaults(whole.queue_defaults());
  // The ports' names are taken before the actors move, for the links' messages.
  std::map<std::pair<ActorId, int>, std::string> port_names;
  for (ActorId id = 0; id < whole.size(); ++id)
    for (int port = 0; port < static_cast<int>(whole.actor(id).actor->inputs().size()); ++port)
      port_names[{id, port}] = port_name(whole, {id, port});
  auto name_of = [&](PortAddress port) { return port_names.at({port.actor, port.port}); };
  std::vector<ActorId> local(whole.size(), static_cast<ActorId>(-1));
  for (ActorId id = 0; id < whole.size(); ++id) {
    if (process[id] != here) continue;
    ActorEntry& entry = whole.actor(id);
    local[id] =
        part->add(entry.name, std::move(entry.actor), entry.type, entry.priority, entry.location);
  }
  auto local_port = [&](PortAddress port) { return PortAddress{local[port.actor], port.port}; };

  // Outlets: one per input port of another process that a local actor sends to.
  std::map<std::pair<ActorId, int>, ActorId> outlets;
  // Inlets: one per local input port that another process sends to, with its senders.
  std::map<std::pair<ActorId, int>, std::set<std::uint32_t>> inlet_senders;
  for (const Connection& c : whole.connections()) {
    const bool from_here = process[c.from.actor] == here, to_here = process[c.to.actor] == here;
    if (from_here && to_here) {
      Connection copy = c;
      copy.from = local_port(c.from);
      copy.to = local_port(c.to);
      part->connect(std::move(copy));
    } else if (from_here) {
      auto key = std::make_pair(c.to.actor, c.to.port);
      auto it = outlets.find(key);
      if (it == outlets.end()) {
        const std::string target = name_of(c.to);
        ActorId outlet =
            part->add(target + " (to process " + std::to_string(process[c.to.actor]) + ")",
                      links.outlet(subject(c.to), target), "process_outlet",
                      part->actor(local[c.from.actor]).priority, c.location);
        it = outlets.emplace(key, outlet).first;
      }
      Connection copy = c;
      copy.from = local_port(c.from);
      copy.to = PortAddress{it->second, 0};
      part->connect(std::move(copy));
    } else if (to_here) {
      inlet_senders[{c.to.actor, c.to.port}].insert(process[c.from.actor]);
    }
  }
  std::vector<ActorId> inlets;
  for (const auto& [key, senders] : inlet_senders) {
    PortAddress to{key.first, key.second};
    const std::string target = name_of(to);
    ActorId inlet =
        part->add(target + " (from other processes)", links.inlet(subject(to), target, senders),
                  "process_inlet", part->actor(local[to.actor]).priority);
    inlets.push_back(inlet);
    part->connect(Connection{{inlet, 0}, local_port(to), {}});
  }

  for (const PortWindow& w : whole.windows()) {
    if (process[w.port.actor] != here) continue;
    PortWindow copy = w;
    copy.port = local_port(w.port);
    if (w.expired_to) {
      if (process[w.expired_to->actor] != here)
        throw WorkflowError("the window on " + name_of(w.port) + " (" + w.location.to_string() +
                            ") sends its expired events to " + name_of(*w.expired_to) +
                            ", in another process: expired routes do not cross processes");
      copy.expired_to = local_port(*w.expired_to);
    }
    part->declare_window(std::move(copy));
  }

  // Wave punctuations do not travel on links yet: a wave window behind one would wait for ever.
  std::set<ActorId> behind(inlets.begin(), inlets.end());
  for (std::vector<ActorId> to_visit = inlets; !to_visit.empty();) {
    ActorId at = to_visit.back();
    to_visit.pop_back();
    for (const Connection& c : part->connections()) {
      if (c.from.actor != at) continue;
      if (const PortWindow* w = part->window(c.to); w && w->spec.uses_waves())
        throw WorkflowError("the wave window on " + part->actor(c.to.actor).name + " (" +
                            w->location.to_string() +
                            ") is behind a link from another process: wave windows do not "
                            "cross processes yet");
      if (behind.insert(c.to.actor).second) to_visit.push_back(c.to.actor);
    }
  }
  return part;
}

}  // namespace cwf
