// A file's statements taken from the scan of its earlier content
// (DefinitionMemo, scan/python/file_scanner.h): a statement whose text is
// unchanged is reused only when what it read elsewhere in the file (a
// helper, a module constant, a caller, a class) is unchanged too, and its
// sites move with its lines.
#include <gtest/gtest.h>
#include <tree_sitter/api.h>

#include <memory>
#include <string>

#include "scan/facts_json.h"
#include "scan/python/earlier_trees.h"
#include "scan/python/file_scanner.h"
#include "scan/python/frontend.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace errdex::scan::python::detail {
namespace {

struct Parsed {
  explicit Parsed(const std::string& s) : src(s) {
    TSParser* p = ts_parser_new();
    ts_parser_set_language(p, tree_sitter_python());
    tree = ts_parser_parse_string(p, nullptr, src.data(), static_cast<std::uint32_t>(src.size()));
    ts_parser_delete(p);
  }
  ~Parsed() { ts_tree_delete(tree); }
  TSNode root() const { return ts_tree_root_node(tree); }
  std::string src;
  TSTree* tree = nullptr;
};

struct Rescan {
  model::FileFacts facts;  // of the scan with the memo
  std::string reused, fresh;
  std::size_t statements = 0;  // taken from the first scan's memo
};

// `before` scanned, then `after` with the first scan's memo, against
// `after` scanned alone.
Rescan rescan(const std::string& before, const std::string& after) {
  Parsed a(before), b(after);
  FileScanner first(a.src, a.root(), {}, nullptr, true);
  first.run();
  FileScanner second(b.src, b.root(), {}, first.next_memo(), true);
  Rescan r;
  r.facts = second.run();
  r.reused = facts_to_json(r.facts);
  r.statements = second.reused_statements();
  r.fresh = facts_to_json(FileScanner(b.src, b.root()).run());
  return r;
}

// `before` with `from` replaced by `to`, rescanned: the facts of a scan
// from scratch, which show `to`. Returns the rescan.
Rescan changed(const std::string& before, const std::string& from, const std::string& to) {
  std::string after = before;
  after.replace(after.find(from), from.size(), to);
  Rescan r = rescan(before, after);
  EXPECT_EQ(r.reused, r.fresh);
  EXPECT_NE(r.reused.find(to), std::string::npos);
  return r;
}

TEST(DefinitionMemo, AHelperThatChangedIsReadAgain) {
  const std::string v1 =
      "import os\n\n\ndef _error(name):\n    return ValueError('no such file: %s' % name)\n\n\n"
      "def load(name):\n    if not os.path.exists(name):\n        raise _error(name)\n";
  const Rescan r = changed(v1, "no such file", "missing file");
  EXPECT_EQ(r.statements, 0u);  // `load` walked again (`import os` holds nothing to find)
}

TEST(DefinitionMemo, AModuleConstantThatChangedIsReadAgain) {
  const std::string v1 =
      "LIMIT_MESSAGE = 'the limit is ten'\n\n\ndef check(n):\n    if n > 10:\n        raise ValueError(LIMIT_MESSAGE)\n";
  changed(v1, "ten", "twelve");
}

TEST(DefinitionMemo, ACallerThatChangedIsReadAgain) {
  // The raise's message is a parameter: the callers in the file fill it.
  const std::string v1 =
      "def require(ok, message):\n    if not ok:\n        raise ValueError(message)\n\n\n"
      "def open_port(port):\n    require(port > 0, 'port must be positive')\n";
  changed(v1, "must be positive", "must not be zero");
}

TEST(DefinitionMemo, AClassThatChangedIsReadAgain) {
  const std::string v1 =
      "class ParseError(Exception):\n    def __str__(self):\n        return 'cannot parse the input'\n\n\n"
      "def parse(text):\n    if not text:\n        raise ParseError()\n";
  changed(v1, "cannot parse the input", "cannot read the input");
}

TEST(DefinitionMemo, AMethodReadsItsClassAgain) {
  // The method's text is unchanged; the class's table it reads is not.
  const std::string v1 =
      "class Field:\n    default_error_messages = {'invalid': 'Enter a valid value.'}\n\n"
      "    def fail(self, key):\n        raise ValueError(self.default_error_messages['invalid'])\n\n"
      "    def clean(self, value):\n        if not value:\n            raise TypeError('a value is required here')\n";
  const Rescan r = changed(v1, "Enter a valid value.", "Enter a proper value");
  // `clean` looked nothing up: reused.
  EXPECT_EQ(r.statements, 1u);
}

TEST(DefinitionMemo, AStatementThatMovedKeepsItsSitesOnItsNewLines) {
  const std::string v1 =
      "import sys\n\n\ndef f(x):\n    if x < 0:\n        raise ValueError(f'negative {x}')\n    return x\n\n\n"
      "class Box:\n    def put(self, item):\n        if item is None:\n            raise TypeError('no item to put')\n";
  // Lines added above both, and inside the class above the method.
  std::string v2 = "# a comment\n\"\"\"The module.\"\"\"\n" + v1;
  v2.replace(v2.find("    def put"), 0, "    size = 3\n\n");
  const Rescan r = rescan(v1, v2);
  EXPECT_EQ(r.reused, r.fresh);
  EXPECT_EQ(r.statements, 2u);  // `f` and `put`
  ASSERT_EQ(r.facts.sites.size(), 2u);
  EXPECT_EQ(r.facts.sites[0].line, 8);
  EXPECT_EQ(r.facts.sites[0].function_line, 6);
  ASSERT_EQ(r.facts.sites[0].guards.size(), 1u);
  EXPECT_EQ(r.facts.sites[0].guards[0].line, 7);
  EXPECT_EQ(r.facts.sites[1].line, 17);
  ASSERT_EQ(r.facts.classes.size(), 1u);
  EXPECT_EQ(r.facts.classes[0].line, 12);
}

// Through the frontend (outline, wider outline, whole file), across
// revisions kept by path: the same facts as a scan from scratch.
TEST(DefinitionMemo, TheFrontendGivesTheFactsOfAScanFromScratch) {
  const std::string v1 =
      "import os\n\n\ndef _error(name):\n    return ValueError('no such file: %s' % name)\n\n\n"
      "def load(name):\n    if not os.path.exists(name):\n        raise _error(name)\n\n\n"
      "class Store:\n    def get(self, key):\n        raise KeyError(f'no key {key}')\n";
  std::string v2 = v1;
  v2.replace(v2.find("no such file"), 12, "missing file");
  v2.insert(0, "import sys\n");
  EarlierTrees trees;
  {
    ParsingFile file(&trees, "m.py");
    scan_python(v1);
  }
  std::string reused;
  {
    ParsingFile file(&trees, "m.py");
    reused = facts_to_json(scan_python(v2));
  }
  EXPECT_EQ(reused, facts_to_json(scan_python(v2)));
  EXPECT_NE(reused.find("missing file"), std::string::npos);
}

}  // namespace
}  // namespace errdex::scan::python::detail
