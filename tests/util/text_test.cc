// util/text: telling pasted text from data, and UTF-16 pastes.
#include "util/text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace errdex::util {
namespace {

std::string utf16le(std::string_view ascii, bool mark) {
  std::string out = mark ? std::string("\xFF\xFE", 2) : std::string();
  for (char c : ascii) {
    out += c;
    out += '\0';
  }
  return out;
}

// Revisions are shown and made current in version order: a release's
// pre-releases before it (click's 8.0.0a1 and 8.0.0rc1 came after 8.0.0,
// and a scan of 3.0.0 and 3.0.0rc1 made the candidate current).
TEST(Text, VersionOrderPutsPreReleasesBeforeTheirRelease) {
  const std::vector<std::string> ordered = {
      "v1.9",        "v1.10.dev0", "v1.10a1",      "v1.10b2", "v1.10rc1", "v1.10", "v1.10.post0", "v1.10.1",
      "8.0.0a1",     "8.0.0a2",    "8.0.0beta.1",  "8.0.0",   "8.0.1",    "v2.0.0-beta.1", "v2.0.0-rc.2", "v2.0.0",
      "v2.0.0+build5"};
  for (std::size_t x = 0; x < ordered.size(); ++x)
    for (std::size_t y = 0; y < ordered.size(); ++y)
      if (ordered[x].front() == ordered[y].front() && ordered[x].substr(0, 2) == ordered[y].substr(0, 2))
        EXPECT_EQ(version_less(ordered[x], ordered[y]), x < y) << ordered[x] << " < " << ordered[y];
  EXPECT_TRUE(version_less("v3.9", "v3.12"));
  EXPECT_TRUE(version_less("2.9.0", "2.9.0.post0"));
  EXPECT_FALSE(version_less("v1.0rc", "v1.0rc"));
  EXPECT_TRUE(version_less("release-a", "release-b"));
}

TEST(Text, LogsAndTracebacksAreText) {
  EXPECT_FALSE(looks_binary("ValueError: bad value\n"));
  // Colour escapes, tabs, a carriage return, a bell and UTF-8 are what logs hold.
  EXPECT_FALSE(looks_binary("\x1b[1;31mValueError\x1b[0m: caf\xC3\xA9 \u2192 x\r\n\tat f\a\n"));
  // A Latin-1 name in an otherwise ASCII traceback is still text.
  EXPECT_FALSE(looks_binary("Traceback (most recent call last):\n  File \"/home/Jos\xE9/app.py\", line 3, in <module>\n"
                            "KeyError: 'x'\n"));
}

TEST(Text, DataIsNotText) {
  EXPECT_TRUE(looks_binary(std::string("ValueError\0x", 12)));
  // Bytes of an executable or a compressed file: controls and bytes that are
  // not UTF-8 everywhere (a fixed pseudo-random sequence, no NUL).
  std::string data;
  std::uint32_t x = 12345;
  for (int i = 0; i < 4000; ++i) {
    x = x * 1103515245u + 12345u;
    data += static_cast<char>(1 + (x >> 16) % 255);
  }
  EXPECT_TRUE(looks_binary(data));
  EXPECT_TRUE(looks_binary("\x01\x02\x03\x04\x05\x06\x07x"));
  EXPECT_FALSE(looks_binary(""));
}

TEST(Text, Utf16PastesReadAsUtf8) {
  const std::string tb = "Traceback (most recent call last):\r\nValueError: bad \xE2\x80\x94 x\r\n";
  // With the byte order mark PowerShell writes, little- and big-endian.
  std::string le = std::string("\xFF\xFE", 2);
  std::string be = std::string("\xFE\xFF", 2);
  for (char c : std::string_view("Traceback (most recent call last):\r\nValueError: bad ")) {
    le += c, le += '\0';
    be += '\0', be += c;
  }
  le += "\x14\x20", be += "\x20\x14";  // U+2014, the em dash
  for (char c : std::string_view(" x\r\n")) {
    le += c, le += '\0';
    be += '\0', be += c;
  }
  EXPECT_EQ(from_utf16(le), tb);
  EXPECT_EQ(from_utf16(be), tb);
  // Without a mark: every second byte NUL.
  EXPECT_EQ(from_utf16(utf16le("KeyError: 'x'\n", false)), "KeyError: 'x'\n");
  // A pair of surrogates is one code point; a lone one becomes U+FFFD.
  EXPECT_EQ(from_utf16(std::string("\xFF\xFE\x3D\xD8\x00\xDE", 6)), "\xF0\x9F\x98\x80");
  EXPECT_EQ(from_utf16(std::string("\xFF\xFE\x3D\xD8", 4)), "\xEF\xBF\xBD");
  // UTF-8 and data are not UTF-16.
  EXPECT_EQ(from_utf16("ValueError: bad value\n"), std::nullopt);
  EXPECT_EQ(from_utf16(std::string("a\0b\0\0\0\0c", 8)), std::nullopt);
  EXPECT_EQ(from_utf16("ab"), std::nullopt);
}

TEST(Text, ValidUtf8) {
  EXPECT_TRUE(is_valid_utf8("caf\xC3\xA9 \xF0\x9F\x98\x80"));
  EXPECT_FALSE(is_valid_utf8("\xC0\xAF"));          // overlong
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));      // surrogate
  EXPECT_FALSE(is_valid_utf8("\xE2\x80"));          // cut short
  EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // past U+10FFFF
}

// A record's githubUrl names its file: a space, '#', '?' or '%' in the
// name ended the path early or changed it on GitHub.
TEST(Text, UrlPathEncodeKeepsPathCharactersAndEncodesTheRest) {
  EXPECT_EQ(url_path_encode("src/flask/app.py"), "src/flask/app.py");
  EXPECT_EQ(url_path_encode("a-b_c.d~e/@scope/x+y=z;(1)!$&',*:"), "a-b_c.d~e/@scope/x+y=z;(1)!$&',*:");
  EXPECT_EQ(url_path_encode("my file #1?.py"), "my%20file%20%231%3F.py");
  EXPECT_EQ(url_path_encode("pkg%2e%2e/x.py"), "pkg%252e%252e/x.py");
  EXPECT_EQ(url_path_encode("a\nb\\c\"<>.py"), "a%0Ab%5Cc%22%3C%3E.py");
  EXPECT_EQ(url_path_encode("caf\xC3\xA9.py"), "caf%C3%A9.py");
}

// What the API reads a body in another charset with, and the scanner a
// file that declares its encoding: iconv's names and Python's spellings.
TEST(Text, ToUtf8ReadsTheCharsetNamed) {
  EXPECT_EQ(to_utf8("caf\xe9", "latin-1"), std::optional<std::string>("caf\xc3\xa9"));
  EXPECT_EQ(to_utf8("caf\xe9", "ISO-8859-1"), std::optional<std::string>("caf\xc3\xa9"));
  EXPECT_EQ(to_utf8("\x80", "cp1252"), std::optional<std::string>("\xe2\x82\xac"));
  EXPECT_EQ(to_utf8("\xc3\xa9", "latin_1"), std::optional<std::string>("\xc3\x83\xc2\xa9"));
  EXPECT_EQ(to_utf8("\xff", "utf-8"), std::nullopt);
  EXPECT_EQ(to_utf8("x", "klingon"), std::nullopt);
  EXPECT_FALSE(known_charset("klingon"));
  EXPECT_FALSE(known_charset("latin1//TRANSLIT"));
  EXPECT_FALSE(known_charset(""));
  EXPECT_TRUE(known_charset("Latin-1"));
}

TEST(Text, EscapedExcerptIsShortAndPrintable) {
  EXPECT_EQ(escaped_excerpt("plain"), "plain");
  EXPECT_EQ(escaped_excerpt("a\x1b[2J\n\x7f\xff\\"), "a\\x1b[2J\\n\\x7f\\xff\\\\");
  EXPECT_EQ(escaped_excerpt("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(escaped_excerpt(std::string(100, 'x'), 5), "xxxxx…");
  EXPECT_EQ(escaped_excerpt(std::string("\0\0", 2), 1), "\\x00…");
}

}  // namespace
}  // namespace errdex::util
