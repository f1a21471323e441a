// quote(): how input is named in a message. A long text keeps its start and its end (a path,
// its file's name), never cuts a UTF-8 character, and never makes a message longer than a line.
#include "lifebench/error.hpp"

#include <gtest/gtest.h>
#include <string>

namespace lifebench {
namespace {

TEST(Quote, ShortTextWhole) {
  EXPECT_EQ(quote("B3/S23"), "\"B3/S23\"");
  EXPECT_EQ(quote("x", '\''), "'x'");
  EXPECT_EQ(quote(std::string(80, 'a')), '"' + std::string(80, 'a') + '"');
}

TEST(Quote, ControlCharactersShown) {
  using namespace std::string_literals;
  EXPECT_EQ(quote("B3/S23\0x\x1b[31m\x7f\tz"s), "\"B3/S23\\x00x\\x1b[31m\\x7f\\x09z\"");
}

TEST(Quote, LongPathKeepsItsFileName) {
  const std::string path = "/" + std::string(200, 'd') + "/first.toml, /elsewhere/second.toml";
  const std::string quoted = quote(path, '\'');
  EXPECT_EQ(quoted.rfind("/elsewhere/second.toml'"), quoted.size() - 23);
  EXPECT_EQ(quoted.substr(0, 5), "'/ddd");
  EXPECT_NE(quoted.find("…"), std::string::npos);
  EXPECT_LE(quoted.size(), 2 + 80 + std::string("…").size());
}

TEST(Quote, NoCharacterCut) {
  // "é" is two bytes: any cut point falls inside one unless moved to a character's start.
  std::string text;
  for (int i = 0; i < 100; ++i)
    text += "é";
  const std::string quoted = quote(text);
  const std::string inner = quoted.substr(1, quoted.size() - 2);
  const std::size_t mark = inner.find("…");
  ASSERT_NE(mark, std::string::npos);
  for (const std::string& side : {inner.substr(0, mark), inner.substr(mark + 3)}) {
    ASSERT_EQ(side.size() % 2, 0U) << side;
    for (std::size_t i = 0; i < side.size(); i += 2)
      EXPECT_EQ(side.substr(i, 2), "é");
  }
}

} // namespace
} // namespace lifebench
