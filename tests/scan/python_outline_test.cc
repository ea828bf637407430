// The fast path (statements without throw words blanked before the parse)
// must give exactly the sites of a whole-file parse.
#include "scan/python/outline.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
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
  ASSERT_FALSE(fast.sites[0].message.parts.empty());
  EXPECT_EQ(fast.sites[0].message.parts[0].text, "bad month number ");
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

TEST(PythonOutline, ReadsDocstringsOfTheModuleItsClassesAndFunctions) {
  std::string src =
      "#!/usr/bin/env python3\n"
      "\"\"\"Parse things.\n"
      "\n"
      "    More.\n"
      "\"\"\"\n"
      "import os\n"
      "class Decoder(object):\n"
      "    r'''Decode a \\d document.'''\n"
      "    @staticmethod\n"
      "    def decode(s):\n"
      "        \"\"\"\n"
      "        Return the object in s.\n"
      "\n"
      "        Raises ValueError when s is not valid.\n"
      "        \"\"\"\n"
      "        def inner():\n"
      "            'Closure.'\n"
      "        return s\n"
      "def loads(s): return Decoder.decode(s)\n"
      "def not_doc():\n"
      "    \"x\".join([])\n"
      "def fstring():\n"
      "    f\"no {doc}\"\n"
      "async def fetch():\n"
      "    'Fetch it.'  # a comment\n";
  auto d = read_docstrings(src);
  ASSERT_EQ(d.size(), 5u);
  EXPECT_EQ(d[0].kind, "module");
  EXPECT_EQ(d[0].name, "");
  EXPECT_EQ(d[0].line, 2);
  EXPECT_EQ(d[0].text, "Parse things.\n\nMore.");
  EXPECT_EQ(d[1].kind, "class");
  EXPECT_EQ(d[1].name, "Decoder");
  EXPECT_EQ(d[1].text, "Decode a \\d document.");
  EXPECT_EQ(d[2].kind, "function");
  EXPECT_EQ(d[2].name, "Decoder.decode");
  EXPECT_EQ(d[2].line, 11);
  EXPECT_EQ(d[2].text, "Return the object in s.\n\nRaises ValueError when s is not valid.");
  EXPECT_EQ(d[3].name, "Decoder.decode.inner");
  EXPECT_EQ(d[3].text, "Closure.");
  EXPECT_EQ(d[4].name, "fetch");
  EXPECT_EQ(d[4].text, "Fetch it.");
  // Bounded: a long docstring is cut at a line end.
  std::string long_doc = "def f():\n    \"\"\"Summary.\n";
  for (int i = 0; i < 200; ++i) long_doc += "    line " + std::to_string(i) + " of a long description\n";
  long_doc += "    \"\"\"\n";
  auto l = read_docstrings(long_doc);
  ASSERT_EQ(l.size(), 1u);
  EXPECT_LE(l[0].text.size(), model::Docstring::k_max_docstring);
  EXPECT_GT(l[0].text.size(), model::Docstring::k_max_docstring - 40);
  EXPECT_EQ(l[0].text.back(), 'n');  // "...description", whole lines only
}

// The docstring cut as read_docstrings promises: whole lines up to the bound.
std::string cut_docstring(const std::string& text) {
  std::string out;
  std::size_t at = 0;
  bool first = true;
  while (at <= text.size()) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(at, nl - at);
    if (!first && out.size() + 1 + line.size() > model::Docstring::k_max_docstring) break;
    out += (first ? "" : "\n") + line;
    first = false;
    at = nl + 1;
  }
  return out.substr(0, model::Docstring::k_max_docstring);
}

// Every docstring Python's ast finds in the machine's standard library,
// and no other, with the same name, line and (cut) text.
TEST(PythonOutline, DocstringsAsPythonReadsThemOnTheStandardLibrary) {
  namespace fs = std::filesystem;
  testing::TempDir tmp;
  std::string list;
  for (const auto& e : fs::recursive_directory_iterator(testing::python_stdlib())) {
    std::string p = e.path().string();
    if (e.is_regular_file() && p.ends_with(".py") && p.find("-packages/") == std::string::npos) list += p + "\n";
  }
  testing::write_file(tmp.path() / "list", list);
  auto r = testing::run("python3 " + testing::shell_quote(std::string(ERRDEX_SOURCE_DIR) + "/tests/scan/docstrings.py") +
                        " < " + testing::shell_quote((tmp.path() / "list").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  std::size_t files = 0, python = 0, agree = 0, reported = 0;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    auto j = nlohmann::json::parse(line);
    if (j.contains("error")) continue;
    std::string content = testing::read_file(j["path"].get<std::string>());
    source::decode_declared_encoding(content);
    ++files;
    std::map<int, model::Docstring> ours;
    for (auto& d : read_docstrings(content)) ours[d.line] = std::move(d);
    for (const auto& d : j["docstrings"]) {
      ++python;
      int at = d[2].get<int>();
      auto it = ours.find(at);
      std::string want = cut_docstring(d[3].get<std::string>());
      bool same = it != ours.end() && it->second.kind == d[0] && it->second.name == d[1] && it->second.text == want;
      agree += same;
      if (!same && reported++ < 60)
        ADD_FAILURE() << j["path"] << ":" << at << " " << d[1] << ": python " << nlohmann::json(want).dump()
                      << "\n  ours " << (it == ours.end() ? "none" : nlohmann::json(it->second.text).dump());
      if (it != ours.end()) ours.erase(it);
    }
    for (const auto& [at, d] : ours)
      if (reported++ < 10) ADD_FAILURE() << j["path"] << ":" << at << " " << d.name << ": not a docstring to Python";
  }
  std::printf("%zu files, %zu docstrings, %zu read the same, %zu differences\n", files, python, agree, reported);
  EXPECT_GT(python, 10000u);
  EXPECT_EQ(reported, 0u);
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
