#include "runtime/time/wave_tag.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace cwf {
namespace {

TEST(WaveTag, ChildrenExtendTheParentAndCarryLastFlags) {
  WaveTag root(100, 7);
  EXPECT_EQ(root.depth(), 0);
  EXPECT_TRUE(root.is_last());  // a root is its own complete wave
  WaveTag first = root.child(1, false);
  WaveTag third = root.child(3, true);
  EXPECT_EQ(first.to_string(), "100#7.1");
  EXPECT_EQ(third.to_string(), "100#7.3*");
  EXPECT_FALSE(first.is_last());
  EXPECT_TRUE(third.is_last());
  WaveTag grandchild = third.child(2, false);
  EXPECT_EQ(grandchild.to_string(), "100#7.3*.2");
  EXPECT_TRUE(grandchild.is_last(1));
  EXPECT_FALSE(grandchild.is_last(2));
  EXPECT_FALSE(grandchild.is_last());
  EXPECT_TRUE(third.child(5, true).is_last());
}

TEST(WaveTag, ParentPrefixAndAncestry) {
  WaveTag t = WaveTag(5, 1).child(2, true).child(4, false).child(1, true);
  EXPECT_EQ(t.parent().to_string(), "5#1.2*.4");
  EXPECT_EQ(t.prefix(1).to_string(), "5#1.2*");
  EXPECT_EQ(t.prefix(0), WaveTag(5, 1));
  EXPECT_TRUE(t.prefix(1).is_ancestor_of(t));
  EXPECT_TRUE(WaveTag(5, 1).is_ancestor_of(t));
  EXPECT_FALSE(t.is_ancestor_of(t));
  EXPECT_FALSE(WaveTag(5, 2).is_ancestor_of(t));
  EXPECT_FALSE(WaveTag(5, 1).child(3, false).is_ancestor_of(t));
}

TEST(WaveTag, OrderIsRootThenLevelsParentFirst) {
  WaveTag a(10, 1), b(10, 2), c(11, 0);
  std::vector<WaveTag> tags = {c, a.child(2, true), b, a.child(1, false).child(1, true),
                               a, a.child(1, false)};
  std::sort(tags.begin(), tags.end());
  std::vector<std::string> text;
  for (const auto& t : tags)
    text.push_back(t.to_string());
  EXPECT_EQ(text,
            (std::vector<std::string>{"10#1", "10#1.1", "10#1.1.1*", "10#1.2*", "10#2", "11#0"}));
  // The last flag is an annotation: it does not change identity.
  EXPECT_EQ(a.child(1, true), a.child(1, false));
}

TEST(WaveTag, DeepAndWideTagsSpillWithoutChangingMeaning) {
  WaveTag t(1, 1);
  for (int level = 1; level <= 20; ++level)
    t = t.child(static_cast<std::uint32_t>(level), level % 2);
  EXPECT_EQ(t.depth(), 20);
  for (int level = 1; level <= 20; ++level) {
    EXPECT_EQ(t.index(level), static_cast<std::uint32_t>(level));
    EXPECT_EQ(t.is_last(level), level % 2 == 1);
  }
  WaveTag copy = t;
  EXPECT_EQ(copy, t);
  EXPECT_EQ(t.prefix(3).to_string(), "1#1.1*.2.3*");
  // Around the inline limits: index 255 / 256 and depths up to kInlineLevels / past it mean the
  // same either way.
  WaveTag narrow = WaveTag(1, 1).child(255, false);
  WaveTag just_wider = narrow.child(256, true);
  EXPECT_EQ(just_wider.to_string(), "1#1.255.256*");
  EXPECT_EQ(just_wider.parent(), narrow);
  EXPECT_LT(narrow, just_wider);
  WaveTag deep(1, 1);
  std::string path = "1#1";
  for (int level = 1; level <= WaveTag::kInlineLevels + 2; ++level) {
    WaveTag next = deep.child(static_cast<std::uint32_t>(level), level % 3 == 0);
    path += "." + std::to_string(level) + (level % 3 == 0 ? "*" : "");
    EXPECT_EQ(next.to_string(), path) << "depth " << level;
    EXPECT_EQ(next.parent(), deep) << "depth " << level;
    EXPECT_TRUE(deep.is_ancestor_of(next)) << "depth " << level;
    EXPECT_LT(deep, next) << "depth " << level;
    deep = next;
  }
  WaveTag all_last(1, 1);
  for (int level = 1; level <= WaveTag::kInlineLevels + 1; ++level)
    all_last = all_last.child(1, true);
  EXPECT_TRUE(all_last.is_last());
  EXPECT_FALSE(deep.is_last());
  WaveTag wide = WaveTag(1, 1).child(100000, true);
  EXPECT_EQ(wide.index(1), 100000u);
  EXPECT_LT(WaveTag(1, 1).child(70000, false), wide);
  EXPECT_LT(WaveTag(1, 1).child(2, false), wide);
}

TEST(WaveTag, TheChildOfAPunctuationIsAnEvent) {
  WaveTag punctuation = WaveTag(1, 1).child(2, false).as_punctuation();
  WaveTag child = punctuation.child(1, true);
  EXPECT_FALSE(child.is_punctuation());
  EXPECT_EQ(child.to_string(), "1#1.2.1*");
}

}  // namespace
}  // namespace cwf
