// A stored pattern whose fixed text begins or ends with blanks (a space, an
// escaped line break) against the message a traceback prints, which is read
// trimmed: the pattern is read the same way (detail::edge_trimmed).
#include <gtest/gtest.h>

#include "match/matcher.h"
#include "match/matcher_index.h"

namespace errdex::match {
namespace {

model::ErrorRecord rec(std::string id, std::string message, std::string pattern, std::string file, int line) {
  model::ErrorRecord r;
  r.id = std::move(id);
  r.repo = "o/r";
  r.error_class = "ValueError";
  r.error_message = std::move(message);
  r.message_pattern = std::move(pattern);
  r.file_path = std::move(file);
  r.line_number = line;
  return r;
}

std::string top_id(const MatchResult& r) { return r.candidates.empty() ? "" : std::string(r.candidates.front().id); }

TEST(EdgeTrimmed, DropsTheBlanksAtEitherEndOnly) {
  EXPECT_EQ(detail::edge_trimmed(" specify (.+?)\\. If"), "specify (.+?)\\. If");
  EXPECT_EQ(detail::edge_trimmed("\\n   An attempt (.+?)\\n        "), "An attempt (.+?)");
  EXPECT_EQ(detail::edge_trimmed("message: (.+?)\\n"), "message: (.+?)");
  // An escaped backslash before `n` is text, not a line break.
  EXPECT_EQ(detail::edge_trimmed("C:\\\\n"), "C:\\\\n");
  EXPECT_EQ(detail::edge_trimmed("a \\ b"), "a \\ b");
  EXPECT_EQ(detail::edge_trimmed("   "), "   ");
}

// sympy's `raise ValueError(" specify dummy variables for %s. If the
// function contains …" % func)` prints `ValueError:  specify …`: its own
// message, before integrals' shorter `specify dummy variables for %s`,
// whose placeholder would take the rest.
TEST(Matcher, APatternStartingWithABlankMatchesTheTrimmedMessage) {
  const Matcher m = Matcher::build(
      {rec("f", " specify dummy variables for {func}. If the function contains more than one free symbol",
           " specify dummy variables for (.+?)\\. If the function contains more than one free symbol", "sympy/series/fourier.py",
           71),
       rec("i", "specify dummy variables for {function}", "specify dummy variables for (.+?)", "sympy/concrete/expr_with_limits.py",
           66),
       rec("q", "Unserializable message: {result}\n", "Unserializable message: (.+?)\\n", "multiprocessing/queues.py", 266)});
  auto r = m.match("ValueError:  specify dummy variables for x*y. If the function contains more than one free symbol\n");
  ASSERT_EQ(top_id(r), "f");
  EXPECT_FALSE(r.ambiguous);
  ASSERT_EQ(r.candidates[0].captures.size(), 1u);
  EXPECT_EQ(r.candidates[0].captures[0].value, "x*y");
  // A message ending in a line break prints it, and the paste loses it.
  r = m.match("ValueError: Unserializable message: Traceback\n");
  ASSERT_EQ(top_id(r), "q");
  EXPECT_FALSE(r.ambiguous);
}

}  // namespace
}  // namespace errdex::match
