// The prose written from evidence (issue 29, item 6): the repository's
// docstrings, linked tests and entry points give specific sentences; a
// record without them gets less, not filler.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "analyze/analyst.h"
#include "analyze/docstring_prose.h"
#include "analyze/llm_analyst.h"
#include "analyze/python_check.h"
#include "analyze/situation.h"
#include "analyze/static_prose.h"
#include "scan/python/frontend.h"
#include "support/process.h"

namespace errdex::analyze {
namespace {

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

struct Analyzed {
  model::FileFacts facts;
  std::vector<model::ErrorRecord> records;
};

Analyzed analyze_one(const std::string& path, const std::string& src) {
  Analyzed a;
  a.facts = scan::scan_python(src);
  ClassIndex index;
  index.add(path, a.facts.classes);
  FileContext ctx{"acme/app", path, std::string(40, 'a'), "", "2026-01-01T00:00:00.000Z", src, &index,
                  &a.facts.docstrings};
  a.records = analyze_file(ctx, a.facts.sites);
  return a;
}

TEST(EvidenceProse, DocstringSummaryNamesTheCallAndTheClassSaysWhatCallersDo) {
  auto a = analyze_one("app/wrap.py", R"py(class TextWrapper:
    """Object for wrapping and filling text paragraphs."""

    def wrap(self, text, width):
        """Wrap a single paragraph of text, returning a list of lines.

        Each line is at most *width* columns long. Tabs are expanded.
        """
        if width <= 0:
            raise ValueError("invalid width %r (must be > 0)" % width)
        return [text]
)py");
  ASSERT_EQ(a.records.size(), 1u);
  const auto& r = a.records[0];
  EXPECT_TRUE(contains(r.trigger_scenarios,
                       "Calling `TextWrapper.wrap`, whose docstring reads: Wrap a single paragraph of text, returning a "
                       "list of lines."))
      << r.trigger_scenarios;
  // The docstring's sentence on the parameter the check tests, not the one on tabs.
  EXPECT_TRUE(contains(r.trigger_scenarios, "From the docstring of `TextWrapper.wrap`: Each line is at most *width* columns long."))
      << r.trigger_scenarios;
  EXPECT_FALSE(contains(r.trigger_scenarios, "Tabs are expanded")) << r.trigger_scenarios;
  // The code's own sentence stays: the call and the condition.
  EXPECT_TRUE(contains(r.trigger_scenarios, "with `width` such that `width <= 0`")) << r.trigger_scenarios;
  EXPECT_EQ(r.common_situations.rfind("Callers are working with a `TextWrapper`, whose docstring reads: Object for "
                                      "wrapping and filling text paragraphs.", 0),
            0u)
      << r.common_situations;
  // No category filler once a specific sentence exists.
  EXPECT_FALSE(contains(r.common_situations, "often")) << r.common_situations;
}

TEST(EvidenceProse, APrivateHelperIsReachedThroughItsDocumentedPublicCaller) {
  auto a = analyze_one("app/render.py", R"py("""Render text for terminals."""


def _check(width):
    """Check a width."""
    if width <= 0:
        raise ValueError(f"width must be positive, got {width}")


def render(text, width):
    """Render text in columns of the given width."""
    _check(width)
    return text[:width]
)py");
  ASSERT_EQ(a.records.size(), 1u);
  const auto& r = a.records[0];
  EXPECT_EQ(r.trigger_scenarios.rfind("Calling `render`, which calls `_check`; its docstring reads: Render text in "
                                      "columns of the given width.",
                                      0),
            0u)
      << r.trigger_scenarios;
  // The helper's own docstring comes after the code's sentence.
  EXPECT_TRUE(contains(r.trigger_scenarios, "`width <= 0`. `_check` itself is documented as: Check a width."))
      << r.trigger_scenarios;
  EXPECT_TRUE(contains(r.common_situations,
                       "Callers are using the `render` module, whose docstring reads: Render text for terminals."))
      << r.common_situations;
}

TEST(EvidenceProse, APrivateMethodIsReachedThroughPrivateOnesFromADocumentedConstructor) {
  auto a = analyze_one("app/query.py", R"py(class Query:
    """A query over the rows of one table."""

    def __init__(self, where):
        self._setup(where)

    def _setup(self, where):
        self._check(where)

    def _check(self, where):
        if where is None:
            raise TypeError("where is required")
)py");
  ASSERT_EQ(a.records.size(), 1u);
  EXPECT_EQ(a.records[0].trigger_scenarios.rfind("Constructing `Query`, which reaches `_check` through `_setup`; its "
                                                 "docstring reads: A query over the rows of one table.",
                                                 0),
            0u)
      << a.records[0].trigger_scenarios;
  EXPECT_FALSE(contains(a.records[0].common_situations, "A query over")) << a.records[0].common_situations;
}

TEST(EvidenceProse, ModuleLevelRaiseQuotesTheModuleDocstringAndAConstructorItsClass) {
  auto a = analyze_one("app/fastpath.py", R"py("""Accelerated parsing of configuration files."""
import sys

if sys.maxsize < 2**32:
    raise ImportError("fastpath needs a 64-bit build")


class Parser:
    """Reads configuration files into dictionaries."""

    def __init__(self, strict):
        if strict not in (True, False):
            raise TypeError("strict must be a bool")
)py");
  ASSERT_EQ(a.records.size(), 2u);
  EXPECT_TRUE(contains(a.records[0].common_situations,
                       "Importing `fastpath`, whose module docstring reads: Accelerated parsing of configuration files."))
      << a.records[0].common_situations;
  EXPECT_FALSE(contains(a.records[0].common_situations, "another platform")) << a.records[0].common_situations;
  EXPECT_EQ(a.records[1].trigger_scenarios.rfind(
                "Constructing `Parser`, whose docstring reads: Reads configuration files into dictionaries.", 0),
            0u)
      << a.records[1].trigger_scenarios;
  // The class docstring is said once: not again as the situation.
  EXPECT_FALSE(contains(a.records[1].common_situations, "Reads configuration files")) << a.records[1].common_situations;
}

TEST(EvidenceProse, WithoutDocstringsNothingIsQuotedAndNoDocstringSentenceIsMadeUp) {
  auto a = analyze_one("app/sizes.py", R"py(def resize(n):
    if n < 0:
        raise ValueError(f"n must be non-negative, got {n}")
)py");
  ASSERT_EQ(a.records.size(), 1u);
  const auto& r = a.records[0];
  EXPECT_EQ(r.trigger_scenarios, "Calling `resize(..., n=n)` with `n` such that `n < 0`.");
  EXPECT_FALSE(contains(r.common_situations, "docstring")) << r.common_situations;
  EXPECT_FALSE(r.common_situations.empty());  // the seed format fills every field
}

TEST(EvidenceProse, ALinkedTestGivesTheTriggerAndTheExampleFixStartsFromItsCall) {
  auto a = analyze_one("app/wrap.py", R"py(def wrap(text, width):
    if width <= 0:
        raise ValueError("invalid width %r (must be > 0)" % width)
    return [text]
)py");
  ASSERT_EQ(a.records.size(), 1u);
  auto r = a.records[0];
  r.evidence.tests.push_back({"tests/test_wrap.py", 12, "WrapTest.test_bad_width",
                              "self.assertRaises(ValueError, wrap, \"abc\", 0)"});
  r.evidence.tests.push_back({"tests/test_wrap.py", 20, "WrapTest.test_negative",
                              "with self.assertRaises(ValueError):\n    wrap(\"abc\", width=-1)"});
  write_test_trigger(r);
  EXPECT_EQ(r.trigger_scenarios.rfind("`tests/test_wrap.py::WrapTest.test_bad_width` raises it on purpose: "
                                      "`self.assertRaises(ValueError, wrap, \"abc\", 0)` (and 1 more test",
                                      0),
            0u)
      << r.trigger_scenarios;
  EXPECT_EQ(r.example_fix.rfind("# before: tests/test_wrap.py::WrapTest.test_bad_width does this on purpose\n"
                                "wrap(\"abc\", 0)\n\n# after\n",
                                0),
            0u)
      << r.example_fix;
  EXPECT_TRUE(parses_as_python(r.example_fix)) << r.example_fix;

  // A test whose call does not stand alone leaves the static fix as it was.
  auto plain = a.records[0];
  plain.evidence.tests.push_back({"tests/test_wrap.py", 30, "test_x", "with pytest.raises(ValueError):\n    wrap(\"abc\","});
  std::string before = plain.example_fix;
  write_test_trigger(plain);
  EXPECT_EQ(plain.example_fix, before);
}

TEST(EvidenceProse, AnEntryPointSaysWhatCallersAreDoingInItsDocstringsWords) {
  auto a = analyze_one("Lib/json/decoder.py", R"py(class JSONDecoder:
    def raw_decode(self, s):
        if not s:
            raise ValueError("Expecting value")
)py");
  ASSERT_EQ(a.records.size(), 1u);
  auto init = scan::scan_python(R"py("""JSON encoder and decoder."""
def loads(s, *, cls=None):
    """Deserialize ``s`` (a :class:`str` instance containing a JSON document) to a Python object.

    More about it.
    """
    return cls().decode(s)
)py");
  DocstringIndex docs;
  docs.add("Lib/json/__init__.py", init.docstrings);
  auto r = a.records[0];
  std::string without = r.common_situations;
  write_entry_point_prose(r, docs);
  EXPECT_EQ(r.common_situations, without);  // no entry points: nothing changes
  // A sentence of the code's own stays beside the entry point's.
  without = "Passing text read from a peer that closed the connection early.";
  r.common_situations = without;
  // A docstring already leads triggerScenarios: the entry point says where callers come from.
  r.trigger_scenarios = "Calling `JSONDecoder.raw_decode`, whose docstring reads: Decode a JSON document. " +
                        r.trigger_scenarios;
  r.evidence.entry_points.push_back({"json.decoder.JSONDecoder.raw_decode", {"json.decoder.JSONDecoder.raw_decode"}});
  r.evidence.entry_points.push_back(
      {"json.loads", {"json.loads", "json.decoder.JSONDecoder.decode", "json.decoder.JSONDecoder.raw_decode"}});
  write_entry_point_prose(r, docs);
  EXPECT_EQ(r.common_situations.rfind("Callers reach it from `json.loads` (through `json.decoder.JSONDecoder.decode`), "
                                      "whose docstring reads: Deserialize `s` (a `str` instance containing a JSON "
                                      "document) to a Python object. ",
                                      0),
            0u)
      << r.common_situations;
  EXPECT_TRUE(contains(r.common_situations, without));

  // Without a docstring leading triggerScenarios, the entry point leads it.
  auto bare = a.records[0];
  bare.evidence.entry_points = r.evidence.entry_points;
  bare.trigger_scenarios = "Calling `json_decoder.raw_decode(...)` while `not s`.";
  write_entry_point_prose(bare, docs);
  EXPECT_EQ(bare.trigger_scenarios,
            "Calling `json.loads` reaches it through `json.decoder.JSONDecoder.decode`; its docstring reads: Deserialize "
            "`s` (a `str` instance containing a JSON document) to a Python object. Calling "
            "`json_decoder.raw_decode(...)` while `not s`.");
}

// A sentence that says only the error's category ("Passing a value out of
// range or inconsistent with the rest to `f(x)`.") gives way to what the
// public call's docstring says callers are doing; kept beside an entry
// point whose docstring says nothing.
TEST(EvidenceProse, AnEntryPointsDocstringReplacesACategorySentence) {
  auto a = analyze_one("Lib/json/decoder.py", R"py(class JSONDecoder:
    def raw_decode(self, s, idx):
        raise ValueError("Expecting value")
)py");
  ASSERT_EQ(a.records.size(), 1u);
  const std::string category = a.records[0].common_situations;
  ASSERT_TRUE(is_category_situation(category)) << category;
  auto init = scan::scan_python(R"py(def loads(s):
    """Deserialize ``s`` to a Python object."""
    return JSONDecoder().raw_decode(s, 0)

def undocumented(s):
    return JSONDecoder().raw_decode(s, 0)
)py");
  DocstringIndex docs;
  docs.add("Lib/json/__init__.py", init.docstrings);
  auto r = a.records[0];
  r.trigger_scenarios = "Calling `JSONDecoder.raw_decode`, whose docstring reads: Decode. " + r.trigger_scenarios;
  r.evidence.entry_points.push_back({"json.loads", {"json.loads", "json.decoder.JSONDecoder.raw_decode"}});
  write_entry_point_prose(r, docs);
  EXPECT_EQ(r.common_situations, "Callers reach it from `json.loads`, whose docstring reads: Deserialize `s` to a Python object.");

  auto bare = a.records[0];
  bare.trigger_scenarios = r.trigger_scenarios;
  bare.evidence.entry_points.push_back({"json.undocumented", {"json.undocumented", "json.decoder.JSONDecoder.raw_decode"}});
  write_entry_point_prose(bare, docs);
  EXPECT_EQ(bare.common_situations, "Callers reach it from `json.undocumented`. " + category);
}

TEST(EvidenceProse, CategorySentencesAreToldFromSpecificOnes) {
  for (const char* type : {"validation", "type", "lookup", "io", "permission", "dependency", "unsupported", "network",
                           "timeout", "configuration", "runtime", ""}) {
    const std::string s = category_situation(type, "`f(x, y=1)`");
    EXPECT_TRUE(is_category_situation(s)) << s;
    EXPECT_TRUE(is_category_situation(category_situation(type, "the import of pkg/mod.py"))) << type;
    EXPECT_FALSE(is_category_situation(s + " More.")) << s;
    EXPECT_FALSE(is_category_situation("Callers reach it from `g`. " + s)) << s;
    EXPECT_FALSE(is_category_situation(category_situation(type, "`f` and `g`"))) << type;
  }
  EXPECT_FALSE(is_category_situation("Passing a computed `n` that went too small (n < 0) to `f(n)`: an off-by-one."));
  EXPECT_FALSE(is_category_situation(""));
}

// DocstringIndex finds a name by its module part and sorts a file's names
// when first asked; it must answer as a table of every name each file's
// docstrings give under every suffix of its module path (one docstring per
// name, a name two give is nobody's, a class's `__init__` when the class has
// none). Checked over standard-library modules at several depths, each
// added under two roots so that short names are ambiguous and long ones not,
// and asked every name the table holds and some it does not.
TEST(EvidenceProse, DocstringIndexAnswersAsATableOfEveryName) {
  const std::string stdlib = testing::python_stdlib();
  ASSERT_FALSE(stdlib.empty());
  std::vector<std::string> rels;
  for (const char* dir : {"", "json", "email", "email/mime", "importlib"})
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(stdlib) / dir))
      if (e.path().extension() == ".py")
        rels.push_back((std::string(dir).empty() ? "" : std::string(dir) + "/") + e.path().filename().string());
  std::sort(rels.begin(), rels.end());
  std::vector<std::pair<std::string, model::FileFacts>> files;
  for (std::size_t i = 0; i < rels.size(); i += 4) {
    std::ifstream in(std::filesystem::path(stdlib) / rels[i], std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    auto facts = scan::scan_python(buf.str());
    files.emplace_back("Lib/" + rels[i], facts);
    files.emplace_back("other/" + rels[i], std::move(facts));
  }
  files.emplace_back("__init__.py", scan::scan_python("def root():\n    \"\"\"At the root, no module part.\"\"\"\n"));
  ASSERT_GT(files.size(), 40u);

  // The reference: every name formed, as the index once stored them.
  std::map<std::string, const model::Docstring*> table;  // null: ambiguous
  DocstringIndex index;
  for (const auto& [path, facts] : files) {
    index.add(path, facts.docstrings);
    std::string module = path.substr(0, path.size() - 3);
    if (module.ends_with("/__init__")) module.resize(module.size() - 9);
    else if (module == "__init__") module.clear();
    std::replace(module.begin(), module.end(), '/', '.');
    std::vector<std::string> prefixes;
    for (std::size_t at = 0; at < module.size();) {
      prefixes.push_back(module.substr(at) + ".");
      std::size_t dot = module.find('.', at);
      if (dot == std::string::npos) break;
      at = dot + 1;
    }
    for (const auto& d : facts.docstrings) {
      if (d.kind == "module") continue;
      for (const auto& p : prefixes) {
        auto [it, added] = table.try_emplace(p + d.name, &d);
        if (!added && it->second != &d) it->second = nullptr;
      }
    }
  }
  auto expected = [&](const std::string& dotted) -> const model::Docstring* {
    auto it = table.find(dotted);
    if (it != table.end()) return it->second;
    auto init = table.find(dotted + ".__init__");
    return init != table.end() ? init->second : nullptr;
  };
  std::set<std::string> asked;
  for (const auto& [name, d] : table) {
    asked.insert(name);
    if (name.ends_with(".__init__")) asked.insert(name.substr(0, name.size() - 9));  // a class by its constructor
    asked.insert(name + ".missing");
    asked.insert("nowhere." + name);
  }
  std::size_t found = 0, ambiguous = 0;
  for (const auto& name : asked) {
    const model::Docstring* want = expected(name);
    EXPECT_EQ(index.find(name), want) << name;
    found += want != nullptr;
    ambiguous += table.contains(name) && !table.at(name);
  }
  // The table holds both kinds of answer, or the comparison proves little.
  EXPECT_GT(found, 1000u);
  EXPECT_GT(ambiguous, 1000u);
  EXPECT_EQ(index.find("root"), nullptr);
}

TEST(EvidenceProse, DocstringSummariesAndSentences) {
  EXPECT_EQ(doc_summary("loads(s, *, cls=None) -> object\n\nDeserialize ``s`` to a :py:class:`~json.Obj`."),
            "Deserialize `s` to a `json.Obj`.");
  EXPECT_EQ(doc_summary("Return the value, e.g. 3. And more."), "Return the value, e.g. 3.");
  EXPECT_EQ(doc_summary("Parse a config file\n\nDetails."), "Parse a config file.");
  EXPECT_EQ(doc_summary("Constructor."), "");
  // The old `name' quoting is no code span: it must not swallow the next sentence.
  EXPECT_EQ(doc_summary("Add the object `tarinfo' to the archive. If `fileobj' is given, read it."),
            "Add the object 'tarinfo' to the archive.");
  EXPECT_EQ(doc_summary(">>> f(1)\n1"), "");
  auto said = doc_sentences_naming("Open a file.\n\n:param mode: how to open it.\n:param other: mode is not this.\n"
                                   "Raises ValueError if mode is bad. Nothing else.",
                                   {"mode", "ValueError"}, 3);
  ASSERT_EQ(said.size(), 2u);
  EXPECT_EQ(said[0], ":param mode: how to open it.");
  EXPECT_EQ(said[1], "Raises ValueError if mode is bad.");
}

TEST(EvidenceProse, TheLlmPromptCarriesTheEvidence) {
  auto a = analyze_one("app/wrap.py", R"py(def wrap(text, width):
    if width <= 0:
        raise ValueError("invalid width")
)py");
  auto r = a.records[0];
  std::string without = llm_prompt(a.facts.sites[0], r);
  EXPECT_FALSE(contains(without, "\"evidence\""));
  r.evidence.tests.push_back({"tests/test_wrap.py", 12, "test_bad_width", "wrap('abc', 0)"});
  r.evidence.entry_points.push_back({"app.wrap.wrap", {"app.wrap.wrap"}});
  std::string with = llm_prompt(a.facts.sites[0], r);
  EXPECT_TRUE(contains(with, "\"evidence\":{\"tests\":[{\"filePath\":\"tests/test_wrap.py\"")) << with;
  EXPECT_TRUE(contains(with, "test_bad_width")) << with;
  EXPECT_TRUE(contains(with, "entryPoints")) << with;
}

}  // namespace
}  // namespace errdex::analyze
