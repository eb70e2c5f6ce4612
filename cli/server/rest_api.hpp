// The REST API of `cwf serve` (docs/server.md), independent of the HTTP library: a request's
// method, target, body and authorization in, a status, content type and body out. JSON
// everywhere under /api/v1; /healthz, /readyz and the Prometheus exposition at /metrics.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/server/workflow_catalog.hpp"

namespace cwf::cli {

struct ApiRequest {
  std::string method;  // GET, POST, DELETE...
  std::string target;  // the path with its query
  std::string body;
  std::string authorization;  // the Authorization header, "" when none
};

// A response that goes on after its header (Server-Sent Events, text/event-stream): the HTTP
// layer sends what next() gives every 100 ms until it says the stream has ended, or the client
// leaves; either way closed() is called once.
class ApiStream {
 public:
  virtual ~ApiStream() = default;
  // What to send now ("" for nothing); sets `ended` once nothing more will follow.
  virtual std::string next(bool& ended) = 0;
  virtual void closed() = 0;
};

struct ApiResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // e.g. Location
  std::shared_ptr<ApiStream> stream;  // set: `body` is sent first, then the stream
};

class RestApi {
 public:
  // `token`: when set, every request but GET /healthz and GET /readyz must carry
  // "Authorization: Bearer <token>".
  RestApi(WorkflowCatalog& catalog, std::optional<std::string> token);

  ApiResponse handle(const ApiRequest& request);
  // /readyz answers 200 once this is set (the saved workflows are started).
  void set_ready() { ready_ = true; }

 private:
  ApiResponse route(const ApiRequest& request, const std::string& path);
  ApiResponse register_workflow(const ApiRequest& request);
  ApiResponse open_view(const ApiRequest& request, const std::string& name);
  ApiResponse cancel_case(const ApiRequest& request, const std::string& name);
  bool authorized(const ApiRequest& request) const;

  WorkflowCatalog& catalog_;
  std::optional<std::string> token_;
  std::atomic<bool> ready_{false};
};

// An error as the API answers it: {"error": message} with `status`.
ApiResponse error_response(int status, const std::string& message);

}  // namespace cwf::cli
