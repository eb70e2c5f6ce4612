// The port's parts put together by type (WindowShapeOf, made by make_window_parts): each of the
// 16 pairs of a step and a size gets the shape of exactly that pair, refers to the port's own
// step and size, and forms a window with them.
#include <gtest/gtest.h>

#include <string>
#include <typeinfo>
#include <vector>

#include "runtime/windows/window_shape_of.hpp"
#include "runtime/windows/window_size_time.hpp"
#include "runtime/windows/window_size_tokens.hpp"
#include "runtime/windows/window_size_unbounded.hpp"
#include "runtime/windows/window_size_waves.hpp"
#include "runtime/windows/window_step_every_event.hpp"
#include "runtime/windows/window_step_time.hpp"
#include "runtime/windows/window_step_tokens.hpp"
#include "runtime/windows/window_step_waves.hpp"
#include "window_parts_fixture.hpp"

namespace cwf {
namespace {

template <class Step, class Size>
bool shaped_as(const WindowParts& parts) {
  // Bound to references first: typeid of a call's result would be evaluated for its effects.
  const WindowShape& shape = *parts.shape;
  const WindowStep& step = *parts.step;
  const WindowSize& size = *parts.size;
  return typeid(shape) == typeid(WindowShapeOf<Step, Size>) && typeid(step) == typeid(Step) &&
         typeid(size) == typeid(Size);
}

// "" is no size (unbounded) or no step (every event).
template <class Size>
void expect_every_step_with(const std::string& size) {
  EXPECT_TRUE((shaped_as<WindowStepEveryEvent, Size>(make_window_parts(testing::window(size, "")))))
      << size;
  EXPECT_TRUE(
      (shaped_as<WindowStepTokens, Size>(make_window_parts(testing::window(size, "2 tokens")))))
      << size;
  EXPECT_TRUE((shaped_as<WindowStepTime, Size>(make_window_parts(testing::window(size, "10 ns")))))
      << size;
  EXPECT_TRUE(
      (shaped_as<WindowStepWaves, Size>(make_window_parts(testing::window(size, "1 wave")))))
      << size;
}

TEST(WindowShape, EveryPairOfKindsGetsTheShapeOfThatPair) {
  expect_every_step_with<WindowSizeUnbounded>("");
  expect_every_step_with<WindowSizeTokens>("3 tokens");
  expect_every_step_with<WindowSizeTime>("20 ns");
  expect_every_step_with<WindowSizeWaves>("2 waves");
}

// The shape selects with the port's parts, and the group forms its windows through it: 4 tokens
// every 2, events 0..6 at their own times: [0..3], [2..5], then at the end of input [4..6], [6].
TEST(WindowShape, TheGroupFormsItsWindowsThroughTheShape) {
  testing::PartsFixture f("4 tokens", "2 tokens");
  for (int v = 0; v < 7; ++v)
    f.add(v);
  EXPECT_EQ(f.select(testing::PartsFixture::open(0)), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(f.ready);

  std::vector<std::vector<int>> windows;
  Timestamp deadline = kNoDeadline;
  auto drop = [](Event&&) {};
  auto take_ready = [&](const WindowProgress& progress) {
    while (f.group.evaluate(progress, &deadline, drop)) {
      std::vector<int> w;
      for (const Event& e : f.group.window_events())
        w.push_back(static_cast<int>(e.token.as_int()));
      windows.push_back(w);
      f.group.finish(false, drop);
    }
  };
  take_ready(testing::PartsFixture::open(6));
  take_ready(testing::PartsFixture::ended(6));
  EXPECT_EQ(windows, (std::vector<std::vector<int>>{{0, 1, 2, 3}, {2, 3, 4, 5}, {4, 5, 6}, {6}}));
}

}  // namespace
}  // namespace cwf
