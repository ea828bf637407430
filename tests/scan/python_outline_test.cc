// The fast path (statements without throw words blanked before the parse)
// must give exactly the sites of a whole-file parse.
#include "scan/python/outline.h"

#include <gtest/gtest.h>

#include <sstream>

#include "scan/python/frontend.h"
#include "source/source_tree.h"
#include "support/process.h"
#include "util/text.h"

namespace errdex::scan {
namespace {

std::string describe(const model::ThrowSite& s) {
  std::ostringstream o;
  o << s.line << "-" << s.end_line << " " << s.kind << " " << s.error_class << " reraise=" << s.reraise
    << " style=" << s.message.style << " lit=" << s.message.from_literals << " raised=" << s.raised_text
    << " cause=" << s.cause << " fn=" << s.function << "(" << s.function_params << ")@" << s.function_line
    << " doc=" << s.function_doc << " cls=" << s.class_name << "(" << s.class_bases << ") cdoc=" << s.class_doc;
  for (const auto& p : s.message.parts) o << " [" << p.literal << "|" << p.text << "|" << p.display << "|" << p.printf_conv << "]";
  for (const auto& alt : s.alternatives) {
    o << " alt=";
    for (const auto& p : alt.parts) o << "[" << p.literal << "|" << p.text << "|" << p.display << "]";
  }
  for (const auto& a : s.args) o << " arg=" << a;
  for (const auto& d : s.decorators) o << " @" << d;
  for (const auto& g : s.guards) {
    o << " guard=" << g.kind << ":" << g.condition << ":" << g.line;
    for (const auto& n : g.names) o << "," << n;
  }
  return o.str();
}

std::vector<std::string> describe_all(const model::FileFacts& f) {
  std::vector<std::string> out;
  for (const auto& s : f.sites) out.push_back(describe(s));
  return out;
}

TEST(PythonOutline, BlanksStatementsWithoutThrowWordsAndKeepsLines) {
  const std::string src =
      "import os\n"
      "\n"
      "def quiet(x):\n"
      "    return x + 1\n"
      "\n"
      "class Base(Exception):\n"
      "    \"\"\"Doc.\"\"\"\n"
      "    def ok(self):\n"
      "        return 1\n"
      "    @property\n"
      "    def bad(self):\n"
      "        if self.x:\n"
      "            raise ValueError('x')\n"
      "\n"
      "class Empty:\n"
      "    def a(self):\n"
      "        return 2\n"
      "if os.name == 'nt':\n"
      "    pass\n"
      "else:\n"
      "    warnings.warn('posix')\n";
  auto out = blank_unreachable(src);
  ASSERT_TRUE(out);
  auto in_lines = util::split_lines(src);
  auto out_lines = util::split_lines(*out);
  ASSERT_EQ(out_lines.size(), in_lines.size());
  EXPECT_EQ(out_lines[2], "");                     // def quiet: blanked
  EXPECT_EQ(out_lines[5], "class Base(Exception):");  // class header kept
  EXPECT_EQ(out_lines[6], in_lines[6]);            // its docstring
  EXPECT_EQ(out_lines[7], "");                     // def ok: blanked
  EXPECT_EQ(out_lines[9], "    @property");        // decorated def with a raise: kept
  EXPECT_EQ(out_lines[15], "    pass");            // class Empty keeps a body
  EXPECT_EQ(out_lines[17], in_lines[17]);          // if/else kept together
  EXPECT_EQ(out_lines[19], "else:");
  EXPECT_EQ(describe_all(scan_python(src)), describe_all(scan_python_whole(src)));
}

// A message read from a helper or from callers the outline blanks (they hold
// no throw word): the scan asks again keeping them, and gets what a whole
// parse gets.
TEST(PythonOutline, KeepsHelpersAndCallersAMessageIsReadFrom) {
  std::string src =
      "def _error(value):\n"
      "    if value:\n"
      "        return ValueError('unexpected token: %s' % value)\n"
      "    return ValueError('unexpected end')\n"
      "\n"
      "def parse(tok):\n"
      "    raise _error(tok)\n"
      "\n"
      "class Context:\n"
      "    def _fail(self, cls, explanation):\n"
      "        raise cls(explanation)\n"
      "    def unrelated(self):\n"
      "        return 1\n"
      "\n"
      "def sqrt(ctx, x):\n"
      "    return ctx._fail(ValueError, 'square root of a negative number')\n" +
      std::string(3000, '\n') + "x = 1\n";
  auto fast = scan_python(src);
  ASSERT_EQ(fast.sites.size(), 2u);
  EXPECT_TRUE(fast.blanked.empty());
  EXPECT_EQ(fast.sites[0].error_class, "ValueError");
  ASSERT_EQ(fast.sites[0].alternatives.size(), 1u);
  EXPECT_EQ(fast.sites[0].alternatives[0].parts[0].text, "unexpected end");
  ASSERT_EQ(fast.sites[1].alternatives.size(), 1u);
  EXPECT_EQ(fast.sites[1].alternatives[0].parts[0].text, "square root of a negative number");
  EXPECT_EQ(describe_all(fast), describe_all(scan_python_whole(src)));
  // The outline alone blanks both; kept when asked for.
  auto plain = blank_unreachable(src);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->find("unexpected end"), std::string::npos);
  auto wider = blank_unreachable(src, {"_error", "_fail"});
  ASSERT_TRUE(wider);
  EXPECT_NE(wider->find("unexpected end"), std::string::npos);
  EXPECT_NE(wider->find("square root"), std::string::npos);
  EXPECT_EQ(wider->find("return 1"), std::string::npos);
}

// An exception class's `__init__` and `__str__` hold no raise, so the
// outline blanks them; a raise of the class reads its message from them,
// so the file is outlined again keeping them. A class with neither costs
// no second pass.
TEST(PythonOutline, KeepsTheMethodsAnExceptionClassFormatsItsMessageIn) {
  std::string src =
      "class MonthError(ValueError):\n"
      "    def __init__(self, month):\n"
      "        self.month = month\n"
      "    def __str__(self):\n"
      "        return 'bad month number %r; must be 1-12' % self.month\n"
      "\n"
      "def check(month):\n"
      "    raise MonthError(month)\n" +
      std::string(3000, '\n') + "x = 1\n";
  auto fast = scan_python(src);
  ASSERT_EQ(fast.sites.size(), 1u);
  ASSERT_EQ(fast.sites[0].alternatives.size(), 1u);
  EXPECT_EQ(fast.sites[0].alternatives[0].parts[0].text, "bad month number ");
  EXPECT_EQ(describe_all(fast), describe_all(scan_python_whole(src)));

  std::string plain_class =
      "class PlainError(ValueError):\n"
      "    pass\n"
      "class Other:\n"
      "    def __init__(self):\n"
      "        self.x = 1\n"
      "\n"
      "def check(month):\n"
      "    raise PlainError(month)\n" +
      std::string(3000, '\n') + "x = 1\n";
  auto once = scan_python(plain_class);
  ASSERT_EQ(once.sites.size(), 1u);
  EXPECT_TRUE(once.blanked.empty());
  EXPECT_TRUE(once.sites[0].alternatives.empty());
}

TEST(PythonOutline, GivesUpOnWhatItCannotSplit) {
  EXPECT_FALSE(blank_unreachable("x = '''never closed\n"));
  EXPECT_FALSE(blank_unreachable("x = (1,\n"));
  EXPECT_FALSE(blank_unreachable("    indented_first = 1\n"));
  // Regression (found by template_fuzz): decorators at the end of the file.
  EXPECT_TRUE(blank_unreachable("@\xfd]"));
  EXPECT_TRUE(blank_unreachable(std::string(200, '\n') + "x = 1\n@a\n@b\n"));
  // Regression (found by template_fuzz): a backslash as the last byte.
  EXPECT_TRUE(blank_unreachable("\xc2=\\"));
  // Strings and comments that look like code do not split statements.
  std::string tricky =
      "def f():\n"
      "    s = '''\n"
      "def g():\n"
      "    raise KeyError('in a string')\n"
      "'''\n"
      "    t = \"quote \\\" # not a comment\"  # raise in a comment\n"
      "    return s\n"
      "x = [1,\n"
      "2]\n"
      "def h():\n"
      "    raise ValueError(\"real\")\n" + std::string(2000, '\n');
  EXPECT_EQ(describe_all(scan_python(tricky)), describe_all(scan_python_whole(tricky)));
}

void expect_same_sites(const std::string& path, const std::optional<std::string>& rev, const std::string& under) {
  auto tree = source::open_tree(path, rev, {});
  ASSERT_TRUE(tree) << tree.error();
  std::vector<source::Skip> skipped;
  std::size_t files = 0, sites = 0, differing = 0;
  for (const auto& e : (*tree)->list(skipped)) {
    if (e.path.compare(0, under.size(), under) != 0) continue;
    auto content = (*tree)->read(e);
    if (!content || source::content_problem(*content, {}) || !may_have_sites(*content)) continue;
    ++files;
    auto fast = describe_all(scan_python(*content));
    auto whole = describe_all(scan_python_whole(*content));
    sites += whole.size();
    if (fast != whole) {
      ++differing;
      ADD_FAILURE() << e.path << ": " << fast.size() << " sites fast, " << whole.size() << " whole";
      for (std::size_t i = 0; i < std::min(fast.size(), whole.size()); ++i)
        if (fast[i] != whole[i]) {
          ADD_FAILURE() << "  fast:  " << fast[i] << "\n  whole: " << whole[i];
          break;
        }
    }
  }
  std::printf("%s: %zu files, %zu sites, %zu files differ\n", path.c_str(), files, sites, differing);
  EXPECT_GT(sites, 1000u);
}

// Every file of the machine's standard library: same sites either way.
TEST(PythonOutline, SameSitesAsWholeParseOnTheStandardLibrary) {
  expect_same_sites(testing::python_stdlib(), std::nullopt, "");
}

// And transformers' src/ at the seeds' commit, read from git, when a
// repository holding it is at hand (TRANSFORMERS_GIT).
TEST(PythonOutline, SameSitesAsWholeParseOnTransformers) {
  std::string dir = testing::transformers_git();
  if (dir.empty()) GTEST_SKIP() << "no repository with transformers@a597f974 (set TRANSFORMERS_GIT)";
  expect_same_sites(dir, testing::k_transformers_sha, "src/");
}

}  // namespace
}  // namespace errdex::scan
