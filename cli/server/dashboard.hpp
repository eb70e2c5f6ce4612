// The dashboard of `cwf serve`, served at / (docs/server.md, "The dashboard"): one page,
// cli/server/dashboard/index.html compiled in (cmake/embed_text.cmake), and Chart.js from
// Debian's libjs-chart.js, served at /assets/chart.js.
#pragma once

#include <string_view>

namespace cwf::cli {

extern const std::string_view kDashboardPage;

inline constexpr const char* kChartJsPath = "/usr/share/javascript/chart.js/chart.min.js";

}  // namespace cwf::cli
