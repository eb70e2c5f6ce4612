// The dashboard of `cwf serve` in a real browser: headless Chromium opens the page of a real
// server, and the test asserts on what the page shows (the workflows, the graph Graphviz drew,
// a queue bar per actor, the rate chart) and drives it (its Pause button pauses the workflow).
// A screenshot is checked to be a PNG of the window's size with content (and kept where
// CWF_DASHBOARD_SCREENSHOT says, for a person to look at).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>

#include "headless_browser.hpp"
#include "server_fixture.hpp"
#include "tests/required_dependency.hpp"

namespace cwf::testing {
namespace {

// The page's text of one element, "" when it is not there.
std::string text_of(HeadlessBrowser& browser, const std::string& selector) {
  Value text = browser.evaluate("(document.querySelector('" + selector + "') || {}).textContent");
  return text.is_string() ? std::string(text.as_string()) : "";
}

std::uint32_t big_endian(const std::string& bytes, std::size_t at) {
  std::uint32_t n = 0;
  for (std::size_t i = at; i < at + 4; ++i)
    n = (n << 8) | static_cast<unsigned char>(bytes[i]);
  return n;
}

TEST_F(Server, TheDashboardShowsTheWorkflowsAndItsButtonsControlThem) {
  CWF_REQUIRE_DEPENDENCY("chromium", "chromium", chromium_installed());
  start();
  const fs::path file = dir_ / "sensors.yaml";
  std::ofstream(file)
      << "name: sensors\nactors:\n"
      << "  readings: {type: generator, interval: 5 ms, value: \"{celsius: i % 40}\"}\n"
      << "  hot: {type: filter, where: \"/celsius > 30\"}\n"
      << "  out: {type: jsonl_sink, path: " << (dir_ / "hot.jsonl").string() << "}\nconnections:\n"
      << "  - {from: readings, to: hot, window: {size: 1 token, step: 1 token}}\n"
      << "  - hot -> out\n";
  ASSERT_EQ(client({"register", file.string()}).status, 0);

  HeadlessBrowser browser(dir_ / "chromium");
  browser.navigate(url_ + "/#sensors");
  ASSERT_TRUE(browser.wait_for("document.querySelector('tr[data-workflow=\"sensors\"]') !== null"))
      << "the workflow is not listed";
  EXPECT_EQ(text_of(browser, "tr[data-workflow=\"sensors\"] .state"), "running");
  ASSERT_TRUE(browser.wait_for("document.getElementById('detail-name').textContent === 'sensors'"))
      << "its details are not shown";
  // The graph is Graphviz's SVG, one node per actor.
  ASSERT_TRUE(browser.wait_for("document.querySelectorAll('#graph svg g.node').length === 3"));
  EXPECT_EQ(browser
                .evaluate("[...document.querySelectorAll('#graph g.node > title')]"
                          ".map(t => t.textContent).sort().join(',')")
                .as_string(),
            "hot,out,readings");
  // One queue bar per actor, with the queue's length; figures that move.
  EXPECT_EQ(browser
                .evaluate("[...document.querySelectorAll('.queue-bar')]"
                          ".map(b => b.dataset.actor + ':' + /^[0-9]+$/.test(b.dataset.queued))"
                          ".join(',')")
                .as_string(),
            "readings:true,hot:true,out:true");
  ASSERT_TRUE(browser.wait_for(
      "Number(document.querySelector('#actors tr[data-actor=\"hot\"] td:nth-child(4)')"
      ".textContent.replace(/[^0-9]/g, '')) > 20"));
  // The rate chart (Chart.js) has points.
  ASSERT_TRUE(
      browser.wait_for("document.body.dataset.chart === 'ready' && "
                       "Number(document.getElementById('rate').dataset.points) >= 2"));

  // Pause, then resume, from the page: the server's state follows, and the page shows it.
  EXPECT_FALSE(browser.evaluate("document.getElementById('pause').disabled").truthy());
  browser.evaluate("document.getElementById('pause').click()");
  ASSERT_TRUE(eventually([&] { return state_of("sensors") == "paused"; }));
  ASSERT_TRUE(
      browser.wait_for("document.getElementById('detail-state').dataset.state === "
                       "'paused' && !document.getElementById('resume').disabled"));

  const std::string png = browser.screenshot();
  // CWF_DASHBOARD_SCREENSHOT=FILE keeps it (docs/images/dashboard.png is made so).
  if (const char* keep = std::getenv("CWF_DASHBOARD_SCREENSHOT"))
    std::ofstream(keep, std::ios::binary) << png;
  ASSERT_GT(png.size(), 24u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(big_endian(png, 16), 1280u) << "width";
  EXPECT_EQ(big_endian(png, 20), 900u) << "height";
  // A blank window compresses to a few kilobytes; the dashboard's tables, graph and chart do not.
  EXPECT_GT(png.size(), 20000u);

  browser.evaluate("document.getElementById('resume').click()");
  ASSERT_TRUE(eventually([&] { return state_of("sensors") == "running"; }));

  // Its priority, a changeable parameter and its scheduling policy, from the page.
  auto details = [&] { return get("/api/v1/workflows/sensors"); };
  browser.evaluate(
      "document.getElementById('priority').value = '7';"
      "document.getElementById('tune').requestSubmit()");
  ASSERT_TRUE(
      eventually([&] { return details().field("workflow")->field("priority")->as_int() == 7; }));
  auto change = [&](const std::string& setting) {
    browser.evaluate("document.getElementById('setting').value = '" + setting +
                     "'; document.getElementById('apply-setting').click()");
  };
  change("hot.where=/celsius > 35");
  ASSERT_TRUE(browser.wait_for(
      "document.getElementById('settings').textContent.includes('hot.where=/celsius > 35')"));
  change("director.scheduler=rr");
  ASSERT_TRUE(
      browser.wait_for("document.getElementById('director').textContent === 'director: rr'"));
  // A window's size, and the window as it is now beside the director.
  EXPECT_EQ(text_of(browser, "#windows"), "· windows: hot.in (size: 1 token, step: 1 token)");
  change("hot.in.window.size=2 tokens");
  ASSERT_TRUE(
      browser.wait_for("document.getElementById('windows').textContent === "
                       "'· windows: hot.in (size: 2 tokens, step: 1 token)'"));
  EXPECT_EQ(details().field("settings")->to_json(),
            R"(["hot.where=/celsius > 35","director.scheduler=rr","hot.in.window.size=2 tokens"])");
  // A change the server refuses says why, on the page.
  change("readings.interval=1 ms");
  ASSERT_TRUE(
      browser.wait_for("document.getElementById('error').textContent.includes("
                       "'cannot be changed while the workflow runs')"));
}

TEST_F(Server, TheDashboardAsksForTheTokenOfAServerThatHasOne) {
  CWF_REQUIRE_DEPENDENCY("chromium", "chromium", chromium_installed());
  const fs::path token = dir_ / "token";
  std::ofstream(token) << "a-token-of-the-server-0123456789\n";
  start({"--token-file", token.string()});
  HeadlessBrowser browser(dir_ / "chromium");
  browser.navigate(url_ + "/");
  ASSERT_TRUE(browser.wait_for(
      "getComputedStyle(document.getElementById('token-form')).display !== 'none'"));
  browser.evaluate(
      "document.getElementById('token').value = 'a-token-of-the-server-0123456789';"
      "document.getElementById('token-form').requestSubmit()");
  ASSERT_TRUE(browser.wait_for(
      "document.getElementById('server-status').textContent.startsWith('0 workflows')"));
}

}  // namespace
}  // namespace cwf::testing
