#include "scan/template.h"

#include <gtest/gtest.h>
#include <re2/re2.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "scan/python/frontend.h"

namespace errdex::scan {
namespace {

using model::MessageTemplate;
using model::TemplatePart;

TemplatePart lit(std::string t) { return TemplatePart{true, std::move(t), {}, 0}; }
TemplatePart var(std::string t, std::string d = {}, char conv = 0) { return TemplatePart{false, std::move(t), std::move(d), conv}; }

TEST(Template, SeedTextPatternSlug) {
  MessageTemplate t;
  t.style = "fstring";
  t.parts = {lit("The batch size is not consistent across layers: "), var("values")};
  EXPECT_EQ(template_text(t), "The batch size is not consistent across layers: {values}");
  EXPECT_EQ(template_pattern(t), "The batch size is not consistent across layers: (.+?)");
  EXPECT_EQ(slugify(template_text(t)), "the-batch-size-is-not-consistent-across-layers-v");
}

TEST(Template, EscapesOnlyMetacharacters) {
  MessageTemplate t;
  t.parts = {lit("a.b^c$d|e?f*g+h(i)j[k]l{m}n\\o `p`: q\nr")};
  EXPECT_EQ(template_pattern(t), "a\\.b\\^c\\$d\\|e\\?f\\*g\\+h\\(i\\)j\\[k\\]l\\{m\\}n\\\\o `p`: q\\nr");
  t.parts = {var("n", "", 'd'), lit(" "), var("h", "", 'x'), lit(" "), var("o", "", 'o')};
  EXPECT_EQ(template_pattern(t), "(-?\\d+) (-?[0-9a-f]+) (-?[0-7]+)");
}

TEST(Template, DisplayInText) {
  MessageTemplate t;
  t.parts = {lit("got "), var("x", "x!r"), lit(" and "), var("len(y)")};
  EXPECT_EQ(template_text(t), "got {x!r} and {len(y)}");
}

TEST(Template, MatchesAnything) {
  MessageTemplate t;
  t.parts = {var("msg")};
  EXPECT_TRUE(matches_anything(t));
  t.parts = {lit("  \n"), var("msg")};
  EXPECT_TRUE(matches_anything(t));
  t.parts = {lit(": "), var("msg")};
  EXPECT_FALSE(matches_anything(t));
  EXPECT_TRUE(pattern_matches_anything("(.+?)"));
  EXPECT_TRUE(pattern_matches_anything(""));
  EXPECT_TRUE(pattern_matches_anything("(.+?) (-?\\d+)"));
  EXPECT_TRUE(pattern_matches_anything("([-+]?(?:\\d+|inf))"));
  EXPECT_FALSE(pattern_matches_anything("(.+?): (.+?)"));
  EXPECT_FALSE(pattern_matches_anything("\\(x\\)"));
  EXPECT_FALSE(pattern_matches_anything("bad"));
}

TEST(Template, Slug) {
  EXPECT_EQ(slugify("  --Hello, World!!  "), "hello-world");
  EXPECT_EQ(slugify("{x!r} is not in {self.keys()}"), "x-r-is-not-in-self-keys");
  EXPECT_EQ(slugify(""), "");
  EXPECT_EQ(slugify("caf\xC3\xA9 au lait"), "caf-au-lait");
  // A cut that lands on a separator is trimmed again.
  std::string s = std::string(47, 'a') + " b";
  EXPECT_EQ(slugify(s), std::string(47, 'a'));
  EXPECT_EQ(slugify(std::string(60, 'z')).size(), 48u);
}

// Runs `program` with python3 and returns its stdout.
std::string run_python(const std::string& program) {
  static int counter = 0;
  auto path = std::filesystem::temp_directory_path() /
              ("errdex_template_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".py");
  {
    std::ofstream out(path);
    out << program;
  }
  std::string cmd = "PYTHONIOENCODING=utf-8 python3 '" + path.string() + "' 2>&1";
  std::string output;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) output.append(buf, n);
    ::pclose(p);
  }
  std::filesystem::remove(path);
  return output;
}

struct Case {
  const char* name;
  // Defines `f`, whose first site is the one under test.
  std::string code;
  // A Python call of f that reaches that site.
  std::string call;
  // Python expressions for the values the message interpolates, in order.
  std::vector<std::string> values;
  std::string style;
};

class RealMessage : public ::testing::TestWithParam<Case> {};

// The message Python produces must be matched by the site's pattern, and the
// groups must capture exactly the interpolated values.
TEST_P(RealMessage, PatternMatchesAndCaptures) {
  const Case& c = GetParam();
  model::FileFacts facts = scan_python(c.code);
  ASSERT_FALSE(facts.sites.empty()) << c.code;
  const model::ThrowSite& site = facts.sites.front();
  EXPECT_EQ(site.message.style, c.style);

  std::string values = "[";
  for (const auto& v : c.values) values += "str(" + v + "),";
  values += "]";
  std::string program = "import sys, warnings\n" + c.code +
                        "\ntry:\n"
                        "    with warnings.catch_warnings(record=True) as _w:\n"
                        "        warnings.simplefilter('always')\n"
                        "        " + c.call + "\n"
                        "    _msg = str(_w[0].message)\n"
                        "except BaseException as _e:\n"
                        "    _msg = str(_e)\n"
                        "sys.stdout.write('\\x1e'.join([_msg] + " + values + "))\n";
  std::string out = run_python(program);
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    std::size_t sep = out.find('\x1e', start);
    fields.push_back(out.substr(start, sep == std::string::npos ? std::string::npos : sep - start));
    if (sep == std::string::npos) break;
    start = sep + 1;
  }
  ASSERT_EQ(fields.size(), c.values.size() + 1) << "python output: " << out;
  const std::string& real = fields[0];

  std::string pattern = template_pattern(site.message);
  RE2 re("(?s)^(?:" + pattern + ")$");
  ASSERT_TRUE(re.ok()) << re.error();
  int groups = re.NumberOfCapturingGroups();
  ASSERT_EQ(groups, static_cast<int>(c.values.size())) << pattern;
  std::vector<std::string> got(static_cast<std::size_t>(groups));
  std::vector<RE2::Arg> args(got.size());
  std::vector<const RE2::Arg*> arg_ptrs(got.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    args[i] = &got[i];
    arg_ptrs[i] = &args[i];
  }
  ASSERT_TRUE(RE2::FullMatchN(real, re, arg_ptrs.data(), groups))
      << "message: " << real << "\npattern: " << pattern << "\ntemplate: " << template_text(site.message);
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], fields[i + 1]) << "group " << i;
}

const Case k_cases[] = {
    {"plain", "def f():\n    raise ValueError('bad (x) [y] {z} $1.50 ^ | * + ? a.b \\\\ done')\n", "f()", {}, "string"},
    {"escapes", "def f():\n    raise ValueError('tab\\there \\x41 \\u00e9 \\N{EM DASH} nl\\nend')\n", "f()", {"'\\u2014'"}, "string"},
    {"raw", "def f():\n    raise ValueError(r'\\d+\\n(raw)')\n", "f()", {}, "string"},
    {"triple", "def f(n):\n    raise ValueError('''first line\n  second {n}\n''')\n", "f(1)", {}, "string"},
    {"fstring",
     "def f(x, y, n, p, w):\n    raise ValueError(f\"got {x!r} and {y:>6} then {n=} {{lit}} {p:.2f} [{y:{w}}] {len(x)}\\n2\")\n",
     "f('ab', 42, 7, 3.14159, 5)",
     {"repr('ab')", "format(42, '>6')", "repr(7)", "format(3.14159, '.2f')", "format(42, '5')", "2"},
     "fstring"},
    {"implicit_concat",
     "def f(n, m):\n    raise ValueError(\n        'count is '\n        f'{n} of {m:d}; '\n        \"done\"\n    )\n",
     "f('three', 10)", {"'three'", "10"}, "fstring"},
    {"plus", "def f(x, y):\n    raise ValueError('a(' + str(x) + ')b' + f' {y}')\n", "f(5, [1])", {"5", "[1]"}, "concat"},
    {"percent_tuple",
     "def f(name, n, r, h, w):\n    raise ValueError('%s has %d items (%.1f%%), hex %x, %5d' % (name, n, r, h, w))\n",
     "f('box', -3, 2.5, 255, 12)", {"'box'", "-3", "'2.5'", "'ff'", "'   12'"}, "percent"},
    {"percent_single", "def f(x):\n    raise ValueError('bad key %r' % x)\n", "f('q')", {"repr('q')"}, "percent"},
    {"percent_dict",
     "def f(nm, ag):\n    raise ValueError('%(name)s is %(age)d' % {'name': nm, 'age': ag})\n",
     "f('bob', 40)", {"'bob'", "40"}, "percent"},
    {"percent_floats",
     "def f(a, b, c, d):\n    raise ValueError('%f %g %e %F' % (a, b, c, d))\n",
     "f(float('inf'), float('nan'), 1e300, float('-inf'))",
     {"'%f' % float('inf')", "'%g' % float('nan')", "'%e' % 1e300", "'%F' % float('-inf')"}, "percent"},
    {"format_positional",
     "def f(a, b):\n    raise ValueError('{} then {} {{x}}'.format(a, b))\n", "f(1, 'two')", {"1", "'two'"}, "format"},
    {"format_keyword",
     "def f(a, b, c):\n    raise ValueError('{1}/{0} {key!r:>6} {v:.3f}'.format(a, b, key=c, v=2.0))\n",
     "f('A', 'B', 'k')", {"'B'", "'A'", "format(repr('k'), '>6')", "format(2.0, '.3f')"}, "format"},
    {"variable",
     "def f(x):\n    msg = 'ignored'\n    msg = f'bad value {x}'\n    if x:\n        msg += ' (retry %s)' % x\n    raise ValueError(msg)\n",
     "f(9)", {"9", "9"}, "variable"},
    {"warn",
     "import warnings\ndef f(x):\n    warnings.warn(f'{x} is deprecated, use new_{x}()', DeprecationWarning)\n",
     "f('old')", {"'old'", "'old'"}, "fstring"},
    {"assert", "def f(x):\n    assert x > 0, 'x must be > 0, got %d' % x\n", "f(-4)", {"-4"}, "percent"},
    {"expression", "def f(x):\n    raise ValueError(x.upper())\n", "f('loud')", {"'LOUD'"}, "expression"},
};

INSTANTIATE_TEST_SUITE_P(Python, RealMessage, ::testing::ValuesIn(k_cases),
                         [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace errdex::scan
