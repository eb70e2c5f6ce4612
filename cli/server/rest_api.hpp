// The REST API of `cwf serve` (docs/server.md), independent of the HTTP library: a request's
// method, target, body and authorization in, a status, content type and body out. JSON
// everywhere under /api/v1; /healthz, /readyz and the Prometheus exposition at /metrics.
#pragma once

#include <atomic>
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

struct ApiResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // e.g. Location
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
  bool authorized(const ApiRequest& request) const;

  WorkflowCatalog& catalog_;
  std::optional<std::string> token_;
  std::atomic<bool> ready_{false};
};

// An error as the API answers it: {"error": message} with `status`.
ApiResponse error_response(int status, const std::string& message);

}  // namespace cwf::cli
