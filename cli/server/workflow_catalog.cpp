#include "cli/server/workflow_catalog.hpp"

#include <fstream>
#include <sstream>

#include "runtime/values/value_json.hpp"

namespace cwf::cli {

namespace fs = std::filesystem;

namespace {

// A name that is also a folder name, in any file system and any URL.
bool usable_name(const std::string& name) {
  if (name.empty() || name.size() > 100 || name[0] == '.') return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
      return false;
  return true;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Written whole or not at all: a temporary file renamed over the old one.
void write_text(const fs::path& path, const std::string& text) {
  fs::path temporary = path;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + temporary.string());
  }
  fs::rename(temporary, path);
}

std::string string_field(const Value& record, const char* name) {
  const Value* value = record.field(name);
  return value && value->is_string() ? std::string(value->as_string()) : std::string();
}

Value strings_value(const std::vector<std::string>& strings) {
  std::vector<Value> values;
  for (const std::string& s : strings)
    values.emplace_back(s);
  return Value::array(std::move(values));
}

std::vector<std::string> strings_field(const Value& record, const char* name) {
  std::vector<std::string> strings;
  if (const Value* value = record.field(name); value && value->is_array())
    for (const Value& s : value->as_array())
      if (s.is_string()) strings.emplace_back(s.as_string());
  return strings;
}

bool bool_field(const Value& record, const char* name) {
  const Value* value = record.field(name);
  return value && value->is_bool() && value->as_bool();
}

}  // namespace

WorkflowCatalog::WorkflowCatalog(fs::path state, Duration checkpoint_every, unsigned workers)
    : state_(std::move(state)), checkpoint_every_(checkpoint_every), workers_(workers) {
  fs::create_directories(state_ / "workflows");
}

WorkflowCatalog::~WorkflowCatalog() {
  shutdown();
}

fs::path WorkflowCatalog::folder_of(const std::string& name) const {
  return state_ / "workflows" / name;
}

void WorkflowCatalog::save(const HostedWorkflow& workflow, const Meta& meta) const {
  const WorkflowDefinition& d = workflow.definition();
  fs::path folder = folder_of(d.name);
  fs::create_directories(folder);
  write_text(folder / "workflow.yaml", d.yaml);
  Value record = Value::record({{"file", Value(d.file)},
                                {"base", Value(d.base)},
                                {"priority", Value(static_cast<std::int64_t>(d.priority))},
                                {"settings", strings_value(d.settings)},
                                {"paused", Value(meta.paused)},
                                {"ended", meta.ended.empty() ? Value() : Value(meta.ended)}});
  write_text(folder / "meta.json", record.to_json() + "\n");
}

std::shared_ptr<HostedWorkflow> WorkflowCatalog::host(WorkflowDefinition definition) {
  auto workflow = std::make_shared<HostedWorkflow>(definition, folder_of(definition.name),
                                                   checkpoint_every_, &workers_);
  std::string name = definition.name;
  const HostedWorkflow* self = workflow.get();
  workflow->find_others_with([this](const std::string& other) {
    std::lock_guard lock(mutex_);
    auto found = workflows_.find(other);
    return found == workflows_.end() ? nullptr : found->second;
  });
  workflow->on_end([this, name, self](WorkflowState end) {
    std::lock_guard lock(mutex_);
    if (shutting_down_ || end == WorkflowState::failed) return;
    auto found = workflows_.find(name);
    // Removed meanwhile, or never listed (a registration refused after it started).
    if (found == workflows_.end() || found->second.get() != self) return;
    metas_[name].ended = state_name(end);
    try {
      save(*found->second, metas_[name]);
    } catch (const std::exception&) {
      // The state folder is gone or full: the workflow runs again after a restart.
    }
  });
  return workflow;
}

void WorkflowCatalog::start_saved(std::ostream& log) {
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(state_ / "workflows"))
    if (entry.is_directory() && usable_name(entry.path().filename().string()))
      folders.push_back(entry.path());
  std::sort(folders.begin(), folders.end());
  for (const fs::path& folder : folders) {
    const std::string name = folder.filename().string();
    WorkflowDefinition definition;
    Meta meta;
    try {
      Value meta_record = parse_json(read_text(folder / "meta.json"));
      definition.name = name;
      definition.yaml = read_text(folder / "workflow.yaml");
      definition.file = string_field(meta_record, "file");
      definition.base = string_field(meta_record, "base");
      definition.settings = strings_field(meta_record, "settings");
      if (const Value* p = meta_record.field("priority"); p && p->is_int())
        definition.priority = static_cast<int>(p->as_int());
      meta = Meta{bool_field(meta_record, "paused"), string_field(meta_record, "ended")};
    } catch (const std::exception& e) {
      log << "cwf serve: " << name << ": its folder " << folder.string()
          << " cannot be read, left alone: " << e.what() << "\n";
      continue;
    }
    // Started (or marked ended) before it is listed: no request sees it half set up. One that
    // no longer loads is listed as failed, with the reason, so that it can be removed.
    auto workflow = host(definition);
    if (!meta.ended.empty()) {
      workflow->mark_ended(meta.ended == "finished" ? WorkflowState::finished
                                                    : WorkflowState::stopped);
      log << "cwf serve: " << name << ": ended before the restart, not started\n";
    } else {
      try {
        workflow->start(meta.paused);
        log << "cwf serve: " << name << ": started again" << (meta.paused ? " (paused)" : "")
            << "\n";
      } catch (const std::exception& e) {
        workflow->mark_failed(e.what());
        log << "cwf serve: " << name << ": cannot start again: " << e.what() << "\n";
      }
    }
    std::lock_guard lock(mutex_);
    list(workflow, meta);
  }
}

std::shared_ptr<HostedWorkflow> WorkflowCatalog::add(WorkflowDefinition definition) {
  auto check_name = [](const std::string& name) {
    if (!usable_name(name))
      throw CatalogError(400, "the workflow's name '" + name +
                                  "' cannot be used: letters, digits, '-', '_' and '.' only "
                                  "(not first), at most 100");
  };
  // A name given is checked before the workflow is loaded; the file's own, once it is.
  if (!definition.name.empty()) check_name(definition.name);
  BuiltRun run = build_run(definition);  // throws for a workflow that does not load
  if (definition.name.empty()) {
    definition.name = run.workflow->name();
    check_name(definition.name);
  }
  {
    std::lock_guard lock(mutex_);
    if (workflows_.count(definition.name))
      throw CatalogError(409, "a workflow named '" + definition.name +
                                  "' is registered already (remove it first)");
    if (removing_.count(definition.name))
      throw CatalogError(409, "a workflow named '" + definition.name +
                                  "' is still being removed (try again in a moment)");
    if (!starting_.insert(definition.name).second)
      throw CatalogError(409, "a workflow named '" + definition.name +
                                  "' is being registered (try again in a moment)");
  }
  Meta meta;
  std::shared_ptr<HostedWorkflow> workflow;
  try {
    workflow = host(definition);
    workflow->start(false, std::move(run));
  } catch (...) {
    std::lock_guard lock(mutex_);
    starting_.erase(definition.name);
    throw;
  }
  std::lock_guard lock(mutex_);
  starting_.erase(definition.name);
  save(*workflow, meta);
  list(workflow, meta);
  return workflow;
}

void WorkflowCatalog::list(const std::shared_ptr<HostedWorkflow>& workflow, const Meta& meta) {
  const std::string& name = workflow->name();
  if (workflows_.count(name)) throw std::logic_error("workflow '" + name + "' listed twice");
  workflows_[name] = workflow;
  metas_[name] = meta;
  // A run that ended before it was listed found nothing to mark (on_end): marked now.
  WorkflowState state = workflow->state();
  if (meta.ended.empty() && !shutting_down_ &&
      (state == WorkflowState::finished || state == WorkflowState::stopped)) {
    metas_[name].ended = state_name(state);
    save(*workflow, metas_[name]);
  }
}

std::shared_ptr<HostedWorkflow> WorkflowCatalog::get(const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto found = workflows_.find(name);
  if (found == workflows_.end())
    throw CatalogError(404, "no workflow named '" + name + "' is registered");
  return found->second;
}

std::vector<std::shared_ptr<HostedWorkflow>> WorkflowCatalog::all() const {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<HostedWorkflow>> list;
  for (const auto& [name, workflow] : workflows_)
    list.push_back(workflow);
  return list;
}

void WorkflowCatalog::set_paused(const std::string& name, bool paused) {
  // Under the lock throughout, so that a removal cannot come between (its folder would be
  // written again and the workflow come back at the next start).
  std::lock_guard lock(mutex_);
  auto found = workflows_.find(name);
  if (found == workflows_.end())
    throw CatalogError(404, "no workflow named '" + name + "' is registered");
  if (paused)
    found->second->pause();
  else
    found->second->resume();
  metas_[name].paused = paused;
  save(*found->second, metas_[name]);
}

void WorkflowCatalog::pause(const std::string& name) {
  set_paused(name, true);
}

void WorkflowCatalog::resume(const std::string& name) {
  set_paused(name, false);
}

bool WorkflowCatalog::set_parameter(const std::string& name, const std::string& setting) {
  std::shared_ptr<HostedWorkflow> workflow = get(name);
  // Not under the lock: the change may wait for the actor's next firing.
  const bool applied = workflow->set_parameter(setting);
  std::lock_guard lock(mutex_);
  auto found = workflows_.find(name);
  if (found != workflows_.end() && found->second == workflow) save(*workflow, metas_[name]);
  return applied;
}

void WorkflowCatalog::set_priority(const std::string& name, int priority) {
  std::lock_guard lock(mutex_);
  auto found = workflows_.find(name);
  if (found == workflows_.end())
    throw CatalogError(404, "no workflow named '" + name + "' is registered");
  found->second->set_priority(priority);
  save(*found->second, metas_[name]);
}

void WorkflowCatalog::stop(const std::string& name) {
  std::lock_guard lock(mutex_);
  auto found = workflows_.find(name);
  if (found == workflows_.end())
    throw CatalogError(404, "no workflow named '" + name + "' is registered");
  found->second->request_stop();
  // Recorded now, so that a server shut down before the drain ends does not start it again;
  // on_end writes how it ended.
  metas_[name].ended = "stopped";
  save(*found->second, metas_[name]);
}

void WorkflowCatalog::remove(const std::string& name) {
  std::lock_guard lock(mutex_);
  auto found = workflows_.find(name);
  if (found == workflows_.end())
    throw CatalogError(404, "no workflow named '" + name + "' is registered");
  std::shared_ptr<HostedWorkflow> workflow = found->second;
  workflows_.erase(found);
  metas_.erase(name);
  removing_.insert(name);
  workflow->request_stop();
  // Removals that are done are joined here, so that a long-running server keeps no finished
  // threads.
  for (auto it = removals_.begin(); it != removals_.end();) {
    if (it->done->load()) {
      it->thread.join();
      it = removals_.erase(it);
    } else {
      ++it;
    }
  }
  auto done = std::make_shared<std::atomic<bool>>(false);
  // Its folder is deleted once the run has ended (it may still write a checkpoint into it);
  // until then the name cannot be registered again.
  removals_.push_back({std::thread([this, workflow, name, done]() mutable {
                         workflow->join();
                         workflow.reset();
                         std::error_code ignored;
                         fs::remove_all(folder_of(name), ignored);
                         std::lock_guard lock(mutex_);
                         removing_.erase(name);
                         done->store(true);
                       }),
                       done});
}

void WorkflowCatalog::shutdown() {
  std::vector<std::shared_ptr<HostedWorkflow>> running;
  std::vector<Removal> removals;
  {
    std::lock_guard lock(mutex_);
    shutting_down_ = true;
    for (const auto& [name, workflow] : workflows_)
      running.push_back(workflow);
    removals.swap(removals_);
  }
  // A removal takes the lock when it is done: joined without it.
  for (auto& workflow : running)
    workflow->suspend();
  for (auto& workflow : running)
    workflow->join();
  for (Removal& removal : removals)
    removal.thread.join();
}

}  // namespace cwf::cli
