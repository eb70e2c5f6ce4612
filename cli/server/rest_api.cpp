#include "cli/server/rest_api.hpp"

#include <fstream>
#include <limits>
#include <sstream>

#include "actors/net/credentials.hpp"
#include "actors/net/query_string.hpp"
#include "cli/server/dashboard.hpp"
#include "cli/server/prometheus_metrics.hpp"
#include "runtime/loading/load_error.hpp"
#include "runtime/values/value_json.hpp"

namespace cwf::cli {

namespace {

constexpr std::string_view kWorkflows = "/api/v1/workflows";

ApiResponse json(int status, const Value& value) {
  ApiResponse response;
  response.status = status;
  response.body = value.to_json() + "\n";
  return response;
}

// Path segments after /api/v1/workflows: {} for the collection, {name} or {name, action}.
std::optional<std::vector<std::string>> workflow_route(const std::string& path) {
  if (path.compare(0, kWorkflows.size(), kWorkflows) != 0) return std::nullopt;
  std::string rest = path.substr(kWorkflows.size());
  std::vector<std::string> segments;
  if (rest.empty() || rest == "/") return segments;
  if (rest[0] != '/') return std::nullopt;
  std::size_t at = 1;
  while (at <= rest.size()) {
    std::size_t end = rest.find('/', at);
    if (end == std::string::npos) end = rest.size();
    segments.push_back(rest.substr(at, end - at));
    at = end + 1;
  }
  if (segments.size() > 2 || segments[0].empty()) return std::nullopt;
  return segments;
}

std::string string_or(const Value& record, const char* name, const std::string& fallback) {
  const Value* value = record.field(name);
  if (!value || value->is_null()) return fallback;
  if (!value->is_string()) throw CatalogError(400, std::string("'") + name + "' must be a string");
  return std::string(value->as_string());
}

// One Server-Sent Event: its type (none: a plain message) and its data, one line of JSON.
std::string sse(const std::string& event, const std::string& data) {
  return (event.empty() ? "" : "event: " + event + "\n") + "data: " + data + "\n\n";
}

// A live view as Server-Sent Events: one message per matching event; `dropped` and `errors`
// events when lines were dropped for a slow reader or the predicate failed; `end` when the
// workflow's run has ended.
class ViewStream final : public ApiStream {
 public:
  ViewStream(std::shared_ptr<HostedWorkflow> workflow, std::shared_ptr<LiveView> view)
      : workflow_(std::move(workflow)), view_(std::move(view)) {}
  std::string next(bool& ended) override {
    LiveView::Batch batch = view_->take();
    std::string text;
    if (batch.dropped > 0)
      text += sse("dropped",
                  Value::record({{"dropped", Value(std::int64_t(batch.dropped))}}).to_json());
    if (batch.errors > 0)
      text +=
          sse("errors", Value::record({{"errors", Value(std::int64_t(batch.errors))}}).to_json());
    for (const std::string& line : batch.lines)
      text += sse("", line);
    if (batch.ended) {
      text +=
          sse("end", Value::record({{"matched", Value(std::int64_t(view_->matched()))}}).to_json());
      ended = true;
    }
    return text;
  }
  void closed() override { workflow_->close_view(*view_); }
  // A stream never sent (an error before the header) leaves no view behind either.
  ~ViewStream() override { workflow_->close_view(*view_); }

 private:
  std::shared_ptr<HostedWorkflow> workflow_;
  std::shared_ptr<LiveView> view_;
};

Value count(std::uint64_t n) {
  return Value(static_cast<std::int64_t>(n));
}

// A request's body as a JSON object; CatalogError(400) naming `example` when it is not one.
Value object_body(const ApiRequest& request, const char* example) {
  Value body;
  try {
    body = parse_json(request.body);
  } catch (const std::exception& e) {
    throw CatalogError(400, std::string("the body is not JSON: ") + e.what());
  }
  if (!body.is_record())
    throw CatalogError(400, std::string("the body must be a JSON object: ") + example);
  return body;
}

}  // namespace

ApiResponse error_response(int status, const std::string& message) {
  return json(status, Value::record({{"error", Value(message)}}));
}

RestApi::RestApi(WorkflowCatalog& catalog, std::optional<std::string> token)
    : catalog_(catalog), token_(std::move(token)) {}

bool RestApi::authorized(const ApiRequest& request) const {
  if (!token_) return true;
  std::optional<std::string_view> given = net::bearer_token(request.authorization);
  return given && net::same_secret(*given, *token_);
}

ApiResponse RestApi::handle(const ApiRequest& request) {
  std::string path = request.target.substr(0, request.target.find('?'));
  // The dashboard's page and script hold no data: served without the token, which the page
  // asks for when the API wants it.
  if (request.method == "GET" && (path == "/" || path == "/index.html")) {
    ApiResponse page;
    page.content_type = "text/html; charset=utf-8";
    page.body = std::string(kDashboardPage);
    return page;
  }
  if (request.method == "GET" && path == "/assets/chart.js") {
    std::ifstream in(kChartJsPath, std::ios::binary);
    if (!in)
      return error_response(404, std::string("Chart.js is not installed (") + kChartJsPath +
                                     ", Debian's libjs-chart.js): the dashboard has no chart");
    ApiResponse script;
    script.content_type = "application/javascript";
    std::ostringstream text;
    text << in.rdbuf();
    script.body = text.str();
    return script;
  }
  if (request.method == "GET" && path == "/healthz")
    return json(200, Value::record({{"status", Value("ok")}}));
  if (request.method == "GET" && path == "/readyz")
    return ready_ ? json(200, Value::record({{"status", Value("ready")}}))
                  : error_response(503, "starting the saved workflows");
  if (!authorized(request))
    return error_response(401, request.authorization.empty()
                                   ? "this server needs a token: Authorization: Bearer <token>"
                                   : "the token does not match this server's");
  // Until the saved workflows are started, a registration could take a name that is about to
  // come back: the API waits for them.
  if (!ready_ && path.starts_with("/api/"))
    return error_response(503, "starting the saved workflows; try again in a moment");
  try {
    return route(request, path);
  } catch (const CatalogError& e) {
    return error_response(e.status(), e.what());
  } catch (const std::exception& e) {
    return error_response(500, e.what());
  }
}

ApiResponse RestApi::route(const ApiRequest& request, const std::string& path) {
  const std::string& method = request.method;
  if (path == "/metrics") {
    if (method != "GET") return error_response(405, "/metrics answers GET only");
    ApiResponse response;
    response.content_type = "text/plain; version=0.0.4; charset=utf-8";
    response.body = prometheus_exposition(catalog_);
    return response;
  }
  auto segments = workflow_route(path);
  if (!segments) return error_response(404, "no such resource: " + path);
  if (segments->empty()) {
    if (method == "GET") {
      std::vector<Value> list;
      for (const auto& workflow : catalog_.all())
        list.push_back(workflow->summary());
      const SharedWorkers& workers = catalog_.workers();
      return json(200, Value::record(
                           {{"workflows", Value::array(std::move(list))},
                            {"workers", Value::record({{"shared", count(workers.workers())},
                                                       {"busy", count(workers.busy())},
                                                       {"waiting", count(workers.waiting())}})}}));
    }
    if (method == "POST") return register_workflow(request);
    return error_response(405, "/api/v1/workflows answers GET and POST");
  }
  const std::string& name = (*segments)[0];
  const std::string location = std::string(kWorkflows) + "/" + name;
  if (segments->size() == 1) {
    if (method == "GET") return json(200, catalog_.get(name)->details());
    if (method == "DELETE") {
      catalog_.remove(name);
      ApiResponse response = json(202, Value::record({{"name", Value(name)},
                                                      {"state", Value("removing")},
                                                      {"poll", Value(location)}}));
      response.headers.push_back({"Location", location});
      return response;
    }
    return error_response(405, location + " answers GET and DELETE");
  }
  const std::string& action = (*segments)[1];
  if (action == "graph.svg") {
    if (method != "GET") return error_response(405, location + "/graph.svg answers GET");
    ApiResponse svg;
    svg.content_type = "image/svg+xml";
    svg.body = catalog_.get(name)->graph_svg();
    return svg;
  }
  if (action == "view") {
    if (method != "GET") return error_response(405, location + "/view answers GET");
    return open_view(request, name);
  }
  if (method != "POST") return error_response(405, location + "/" + action + " answers POST");
  if (action == "cancel") return cancel_case(request, name);
  if (action == "set") {
    const Value body = object_body(request, R"({"set": "ACTOR.PARAM=VALUE"})");
    for (const std::string& field : body.schema()->fields())
      if (field != "set") return error_response(400, "a change takes set, not '" + field + "'");
    const std::string setting = string_or(body, "set", "");
    if (setting.empty()) return error_response(400, "'set' (ACTOR.PARAM=VALUE) is missing");
    try {
      const bool applied = catalog_.set_parameter(name, setting);
      return json(applied ? 200 : 202, Value::record({{"name", Value(name)},
                                                      {"set", Value(setting)},
                                                      {"applied", Value(applied)}}));
    } catch (const LoadError& e) {
      return error_response(400, e.what());
    }
  }
  if (action == "priority") {
    const Value body = object_body(request, R"({"priority": N})");
    const Value* priority = body.field("priority");
    if (body.schema()->fields().size() != 1 || !priority || !priority->is_int() ||
        priority->as_int() < std::numeric_limits<int>::min() ||
        priority->as_int() > std::numeric_limits<int>::max())
      return error_response(400, "a priority change takes {\"priority\": N}, N a whole number");
    catalog_.set_priority(name, static_cast<int>(priority->as_int()));
  } else if (action == "pause") {
    catalog_.pause(name);
  } else if (action == "resume") {
    catalog_.resume(name);
  } else if (action == "stop") {
    catalog_.stop(name);
    // Stopping drains what is queued: the state says when it is done.
    ApiResponse response =
        json(202, Value::record({{"name", Value(name)},
                                 {"state", Value(state_name(catalog_.get(name)->state()))},
                                 {"poll", Value(location)}}));
    response.headers.push_back({"Location", location});
    return response;
  } else {
    return error_response(
        404, "no action '" + action + "' (pause, resume, stop, set, priority, cancel, view)");
  }
  return json(200, catalog_.get(name)->summary());
}

ApiResponse RestApi::open_view(const ApiRequest& request, const std::string& name) {
  std::map<std::string, std::string> query;
  try {
    query = cwf::net::parse_query(request.target);
  } catch (const std::invalid_argument& e) {
    return error_response(400, e.what());
  }
  for (const auto& [key, value] : query)
    if (key != "from" && key != "to" && key != "where")
      return error_response(400, "a view takes from, to and where, not '" + key + "'");
  if (!query.count("from") || !query.count("to"))
    return error_response(400, "a view needs from=ACTOR[.PORT] and to=ACTOR[.PORT]");
  std::shared_ptr<HostedWorkflow> workflow = catalog_.get(name);
  std::shared_ptr<LiveView> view = workflow->open_view(query["from"], query["to"], query["where"]);
  // At once: whatever throws from here on, the stream's end closes the view.
  auto stream = std::make_shared<ViewStream>(workflow, view);
  ApiResponse response;
  response.content_type = "text/event-stream";
  const std::optional<Expression>& where = view->where();
  response.body = sse("open", Value::record({{"workflow", Value(name)},
                                             {"from", Value(view->connection().from())},
                                             {"to", Value(view->connection().to())},
                                             {"where", where ? Value(where->source()) : Value()}})
                                  .to_json());
  response.stream = std::move(stream);
  return response;
}

ApiResponse RestApi::cancel_case(const ApiRequest& request, const std::string& name) {
  const Value body = object_body(request, R"({"key": ...} or {"wave": ...})");
  for (const std::string& field : body.schema()->fields())
    if (field != "actor" && field != "key" && field != "wave")
      return error_response(400, "a cancellation takes actor, key or wave, not '" + field + "'");
  std::optional<Value> key;
  if (const Value* k = body.field("key")) key = *k;
  std::optional<std::string> wave;
  if (body.field("wave")) wave = string_or(body, "wave", "");
  const std::string actor = string_or(body, "actor", "");
  const std::string cancelled = catalog_.get(name)->cancel_case(actor, key, wave);
  return json(200, Value::record({{"name", Value(name)}, {"cancelled", Value(cancelled)}}));
}

ApiResponse RestApi::register_workflow(const ApiRequest& request) {
  const Value body = object_body(request, R"({"yaml": "...", ...})");
  WorkflowDefinition definition;
  definition.yaml = string_or(body, "yaml", "");
  if (definition.yaml.empty()) return error_response(400, "'yaml' (the workflow file) is missing");
  definition.file = string_or(body, "file", "workflow.yaml");
  definition.base = string_or(body, "base", "");
  if (const Value* priority = body.field("priority"); priority && !priority->is_null()) {
    if (!priority->is_int()) return error_response(400, "'priority' must be a whole number");
    definition.priority = static_cast<int>(priority->as_int());
  }
  try {
    definition.name = string_or(body, "name", "");  // none: the file's `name:`
    auto workflow = catalog_.add(std::move(definition));
    ApiResponse response = json(201, workflow->summary());
    response.headers.push_back({"Location", std::string(kWorkflows) + "/" + workflow->name()});
    return response;
  } catch (const LoadError& e) {
    const SourceLocation& at = e.location();
    return json(400, Value::record({{"error", Value(e.what())},
                                    {"file", Value(at.file)},
                                    {"line", Value(static_cast<std::int64_t>(at.line))},
                                    {"column", Value(static_cast<std::int64_t>(at.column))},
                                    {"message", Value(e.message())}}));
  }
}

}  // namespace cwf::cli
