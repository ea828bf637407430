// The pure helpers of the site: escaping, Python highlighting, URL decoding,
// routing, gzip negotiation.
#include <gtest/gtest.h>

#include <random>
#include <regex>

#include "web/gzip.h"
#include "web/html.h"
#include "web/routes.h"
#include "web/url.h"

namespace errdex::web {
namespace {

TEST(Html, EscapesEverySpecialCharacter) {
  EXPECT_EQ(html_escape("<a href=\"x\" title='y'>&</a>"),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  EXPECT_EQ(html_escape("{{ x }}"), "{{ x }}");
}

// Backticks in prose become <code>, after escaping: markup in the text
// stays text, even inside the backticks; an unpaired backtick stays.
TEST(Html, ProseBackticksBecomeCodeAfterEscaping) {
  EXPECT_EQ(prose_html("Calling `wrap(text, width=0)` fails."), "Calling <code>wrap(text, width=0)</code> fails.");
  EXPECT_EQ(prose_html("`<b>` & `x`"), "<code>&lt;b&gt;</code> &amp; <code>x</code>");
  EXPECT_EQ(prose_html("a ` b"), "a ` b");
  EXPECT_EQ(prose_html("``"), "``");
  EXPECT_EQ(prose_html("`a\nb` c"), "`a\nb` c");
}

TEST(Html, HighlightsPythonPerLineAndEscapes) {
  auto lines = highlight_python("if x < 0:  # <b>\n    raise ValueError(f\"{x} <bad>\")\n");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "<span class=\"tok-keyword\">if</span> x &lt; <span class=\"tok-number\">0</span>:  "
                      "<span class=\"tok-comment\"># &lt;b&gt;</span>");
  EXPECT_EQ(lines[1], "    <span class=\"tok-keyword\">raise</span> ValueError(<span class=\"tok-string\">f&quot;{x} "
                      "&lt;bad&gt;&quot;</span>)");
}

TEST(Html, TripleQuotedStringsSpanLinesWithoutCrossingThem) {
  auto lines = highlight_python("x = \"\"\"a\n<b>\"\"\"\nreturn");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "x = <span class=\"tok-string\">&quot;&quot;&quot;a</span>");
  EXPECT_EQ(lines[1], "<span class=\"tok-string\">&lt;b&gt;&quot;&quot;&quot;</span>");
  EXPECT_EQ(lines[2], "<span class=\"tok-keyword\">return</span>");
}

TEST(Html, IdentifiersContainingKeywordsAreNotKeywords) {
  auto lines = highlight_python("raise_if(notify, x2)");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "raise_if(notify, x2)");
}

TEST(Html, HighlightsJavaScriptAndTypeScriptByFileName) {
  auto lines = highlight_source("lib/x.ts",
                                "if (x < 0) {  // <b>\n  throw new TypeError(`bad ${x} <b>\nmore`);\n/* a\nb */ obj.type = 2;\n}");
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0], "<span class=\"tok-keyword\">if</span> (x &lt; <span class=\"tok-number\">0</span>) {  "
                      "<span class=\"tok-comment\">// &lt;b&gt;</span>");
  EXPECT_EQ(lines[1], "  <span class=\"tok-keyword\">throw</span> <span class=\"tok-keyword\">new</span> "
                      "<span class=\"tok-builtin\">TypeError</span>(<span class=\"tok-string\">`bad ${x} &lt;b&gt;</span>");
  EXPECT_EQ(lines[2], "<span class=\"tok-string\">more`</span>);") << "a template literal spans lines";
  EXPECT_EQ(lines[3], "<span class=\"tok-comment\">/* a</span>");
  EXPECT_EQ(lines[4], "<span class=\"tok-comment\">b */</span> obj.type = <span class=\"tok-number\">2</span>;")
      << "a property named like a keyword is not one";
  // A Python file keeps Python's rules: `#` is a comment there.
  EXPECT_EQ(highlight_source("m.py", "x  # y")[0], "x  <span class=\"tok-comment\"># y</span>");
  EXPECT_EQ(highlight_source("m.js", "x  # y")[0], "x  # y");
}

TEST(Html, HighlightsSearchTermsCaseInsensitively) {
  EXPECT_EQ(highlight_terms("Must be <str>", query_words("must STR")), "<mark>Must</mark> be &lt;<mark>str</mark>&gt;");
  EXPECT_EQ(query_words("a \"b\" c* NEAR(dd)"), (std::vector<std::string>{"near", "dd"}));
  // Whole words, as the index matches them: not the "value" in ValueError.
  EXPECT_EQ(highlight_terms("ValueError: bad value", query_words("value")), "ValueError: bad <mark>value</mark>");
}

TEST(Url, PercentDecodingRejectsWhatItCannotRead) {
  EXPECT_EQ(*percent_decode("a%20b+c", true), "a b c");
  EXPECT_EQ(*percent_decode("a+b", false), "a+b");
  EXPECT_FALSE(percent_decode("%zz", false));
  EXPECT_FALSE(percent_decode("%4", false));
  EXPECT_FALSE(percent_decode("%", false));
  EXPECT_FALSE(percent_decode("%ff", false));
  EXPECT_FALSE(percent_decode("%c3%28", false));
  EXPECT_FALSE(percent_decode("a%00", false));
  EXPECT_EQ(*percent_decode("%C3%A9", false), "\xc3\xa9");
}

TEST(Url, PathsWithDotSegmentsAreRefused) {
  EXPECT_FALSE(decode_path("/../etc"));
  EXPECT_FALSE(decode_path("/a/%2E%2E/b"));
  EXPECT_FALSE(decode_path("/a/./b"));
  EXPECT_FALSE(decode_path("relative"));
  EXPECT_FALSE(decode_path("/a%5C..%5Cb"));
  EXPECT_EQ(*decode_path("/errors/abc/x..y"), "/errors/abc/x..y");
}

TEST(Url, QueryStrings) {
  auto q = parse_query("q=a+b&repo=o%2Fn&flag&q2=");
  ASSERT_TRUE(q);
  EXPECT_EQ((*q)["q"], "a b");
  EXPECT_EQ((*q)["repo"], "o/n");
  EXPECT_EQ((*q)["flag"], "");
  EXPECT_FALSE(parse_query("q=%ff"));
  EXPECT_EQ(percent_encode("a b/c&é"), "a%20b%2Fc%26%C3%A9");
  EXPECT_EQ(percent_encode("a/b", true), "a/b");
}

TEST(Routes, MatchesTemplatesAndReportsAllowedMethods) {
  auto m = match_route("GET", "/api/errors/0123456789abcdef");
  ASSERT_NE(m.route, nullptr);
  EXPECT_EQ(m.route->id, RouteId::api_error);
  EXPECT_EQ(m.params["id"], "0123456789abcdef");
  EXPECT_EQ(match_route("HEAD", "/").route->id, RouteId::home);
  auto wrong = match_route("DELETE", "/api/match");
  EXPECT_EQ(wrong.route, nullptr);
  EXPECT_EQ(wrong.allowed, (std::vector<std::string_view>{"POST"}));
  EXPECT_EQ(match_route("GET", "/nope").allowed.size(), 0u);
  EXPECT_EQ(match_route("GET", "/repos/a/b").params["name"], "b");
  EXPECT_EQ(match_route("GET", "/repos//b").route, nullptr);
  EXPECT_EQ(match_route("GET", "/static/style.css").params["file"], "style.css");
}

TEST(Gzip, AcceptEncodingNegotiation) {
  EXPECT_TRUE(accepts_gzip("gzip"));
  EXPECT_TRUE(accepts_gzip("br, GZIP;q=0.5"));
  EXPECT_TRUE(accepts_gzip("*"));
  EXPECT_FALSE(accepts_gzip("gzip;q=0"));
  EXPECT_FALSE(accepts_gzip("deflate, br"));
  EXPECT_FALSE(accepts_gzip(""));
}

// Random bytes (seeded, so a failure reproduces) through every parser of
// request input and through the highlighter: nothing crashes, decoded text
// is valid UTF-8, and highlighted HTML holds no markup but its own spans.
TEST(Html, RandomInputKeepsTheInvariants) {
  std::mt19937 rng(20261202);
  static const char k_alphabet[] = "<>&\"'#%/.+=?{}\\\n\r\t fr'\"\"\"abc019_@\x00\xc3\xa9\xff\xe2\x80";
  const std::string alphabet(k_alphabet, sizeof k_alphabet - 1);  // with its NUL
  const std::regex own_tags("<span class=\"tok-[a-z]+\">|</span>|<mark>|</mark>");
  for (int n = 0; n < 20000; ++n) {
    std::string in;
    int len = static_cast<int>(rng() % 40);
    for (int i = 0; i < len; ++i)
      in += rng() % 4 ? alphabet[rng() % alphabet.size()] : static_cast<char>(rng() % 256);
    if (auto d = percent_decode(in, true)) {
      EXPECT_EQ(d->find('\0'), std::string::npos);
    }
    if (auto p = decode_path("/" + in)) {
      match_route("GET", *p);
      EXPECT_EQ(p->find("/../"), std::string::npos);
    }
    parse_query(in);
    accepts_gzip(in);
    std::string html;
    for (const auto& line : highlight_python(in)) html += line + "\n";
    html += highlight_terms(in, query_words(in + " abc"));
    std::string stripped = std::regex_replace(html, own_tags, "");
    EXPECT_EQ(stripped.find('<'), std::string::npos) << in;
    EXPECT_EQ(stripped.find('>'), std::string::npos) << in;
    EXPECT_EQ(stripped.find('"'), std::string::npos) << in;
  }
}

}  // namespace
}  // namespace errdex::web
