// Incremental parsing across revisions (scan/python/earlier_trees.h): a
// file's next content parsed from its last tree gives the tree and the
// facts a parse from scratch gives, wherever the file was edited.
#include "scan/python/earlier_trees.h"

#include <gtest/gtest.h>
#include <tree_sitter/api.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "scan/facts_json.h"
#include "scan/python/frontend.h"
#include "support/process.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace errdex::scan {
namespace {

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::size_t b = 0;
  while (b < s.size()) {
    std::size_t e = s.find('\n', b);
    e = e == std::string::npos ? s.size() : e + 1;
    out.push_back(s.substr(b, e - b));
    b = e;
  }
  return out;
}

// The edits are a valid line diff: every line outside them is equal in
// both texts, in order, and replaying them on `before` gives `after`.
void expect_replays(const std::string& before, const std::string& after) {
  auto a = lines_of(before), b = lines_of(after);
  auto edits = line_edits(before, after);
  std::string rebuilt;
  std::size_t x = 0, y = 0;
  for (const auto& e : edits) {
    ASSERT_LE(x, e.old_begin);
    ASSERT_LE(e.old_begin, e.old_end);
    ASSERT_LE(e.new_begin, e.new_end);
    ASSERT_EQ(e.old_begin - x, e.new_begin - y) << "as many kept lines before the edit in both";
    for (; x < e.old_begin; ++x, ++y) {
      ASSERT_EQ(a[x], b[y]);
      rebuilt += a[x];
    }
    for (std::size_t j = e.new_begin; j < e.new_end; ++j) rebuilt += b[j];
    x = e.old_end, y = e.new_end;
  }
  ASSERT_EQ(a.size() - x, b.size() - y);
  for (; x < a.size(); ++x, ++y) {
    ASSERT_EQ(a[x], b[y]);
    rebuilt += a[x];
  }
  EXPECT_EQ(rebuilt, after);
}

TEST(LineEdits, NameOnlyTheLinesThatChanged) {
  EXPECT_TRUE(line_edits("a\nb\nc\n", "a\nb\nc\n").empty());
  auto e = line_edits("a\nb\nc\nd\n", "a\nB\nc\nd\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].old_begin, 1u);
  EXPECT_EQ(e[0].old_end, 2u);
  EXPECT_EQ(e[0].new_begin, 1u);
  EXPECT_EQ(e[0].new_end, 2u);
  // Two places apart: two edits, the lines between kept.
  e = line_edits("import a\nx\ny\nz\nw\n", "import b\nx\ny\nz\nw\nv\n");
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].old_begin, 0u);
  EXPECT_EQ(e[0].old_end, 1u);
  EXPECT_EQ(e[1].old_begin, 5u);
  EXPECT_EQ(e[1].old_end, 5u);
  EXPECT_EQ(e[1].new_begin, 5u);
  EXPECT_EQ(e[1].new_end, 6u);
  // A block moved: deleted in one place, inserted in another.
  e = line_edits("f\n1\n2\ng\n3\n", "g\n3\nf\n1\n2\n");
  EXPECT_EQ(e.size(), 2u);
  // Past the limit, one edit from the first changed line to the last.
  e = line_edits("a\n1\n2\n3\nz\n", "a\n4\n5\n6\nz\n", 2);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].old_begin, 1u);
  EXPECT_EQ(e[0].old_end, 4u);
  for (auto [x, y] : std::vector<std::pair<std::string, std::string>>{
           {"", ""}, {"", "a\n"}, {"a\n", ""}, {"a", "a\n"}, {"a\nb", "a\nc"}, {"a\nb", "a\nb\nc"},
           {"x\na\nb\n", "a\nb\n"}, {"a\nb\n", "a\nb\nc"}, {"f\n1\n2\ng\n3\n", "g\n3\nf\n1\n2\n"}})
    expect_replays(x, y);
}

TEST(LineEdits, ReplayOnRandomEdits) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::string before, after;
    int n = static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) before += std::string(1, static_cast<char>('a' + rng() % 5)) + "\n";
    for (const auto& l : lines_of(before)) {
      switch (rng() % 6) {
        case 0: break;  // deleted
        case 1: after += "new" + std::to_string(rng() % 3) + "\n" + l; break;
        case 2: after += l + l; break;
        default: after += l;
      }
    }
    if (rng() % 3 == 0 && !after.empty()) after.pop_back();  // no newline at the end
    SCOPED_TRACE(before + "=>\n" + after);
    expect_replays(before, after);
  }
}

std::string tree_string(TSTree* tree) {
  char* s = ts_node_string(ts_tree_root_node(tree));
  std::string out(s);
  free(s);
  return out;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Edits a revision may make to a file, each applied to the file alone.
std::vector<std::string> edited(const std::string& src) {
  std::vector<std::string> out;
  auto lines = lines_of(src);
  auto join = [](const std::vector<std::string>& ls) {
    std::string s;
    for (const auto& l : ls) s += l;
    return s;
  };
  // At the start: an import added.
  out.push_back("import os.path as _edited_path\n" + src);
  // At the end: a function added (and the last newline dropped).
  std::string tail = src + "\n\ndef _edited(x):\n    raise ValueError(f\"edited {x}\")";
  out.push_back(tail);
  if (lines.size() > 6) {
    // In the middle: a line's indented copy with another name, and three
    // lines further down deleted.
    auto ls = lines;
    std::size_t mid = ls.size() / 2;
    std::string l = ls[mid];
    std::size_t indent = l.find_first_not_of(' ');
    if (indent != std::string::npos && l.find("\"\"\"") == std::string::npos && l.find("'''") == std::string::npos)
      ls.insert(ls.begin() + static_cast<std::ptrdiff_t>(mid), std::string(indent, ' ') + "_edited = None\n");
    std::size_t cut = std::min(ls.size() - 1, mid + 3 * ls.size() / 8);
    ls.erase(ls.begin() + static_cast<std::ptrdiff_t>(cut), ls.begin() + static_cast<std::ptrdiff_t>(std::min(ls.size(), cut + 3)));
    out.push_back(join(ls));
  }
  // A top-level function moved to the end.
  std::size_t def = src.find("\ndef ");
  if (def != std::string::npos) {
    std::size_t end = src.find("\n", def + 1);
    while (end != std::string::npos && end + 1 < src.size() &&
           (src[end + 1] == ' ' || src[end + 1] == '\n' || src[end + 1] == '#'))
      end = src.find("\n", end + 1);
    if (end != std::string::npos) {
      std::string fn = src.substr(def + 1, end - def);
      std::string rest = src.substr(0, def + 1) + src.substr(end + 1);
      if (!rest.empty() && rest.back() != '\n') rest += '\n';
      out.push_back(rest + "\n\n" + fn);
    }
  }
  return out;
}

// Files of the machine's Python standard library, a spread of sizes.
std::vector<std::filesystem::path> stdlib_files(std::size_t n) {
  std::vector<std::filesystem::path> all;
  for (const auto& e : std::filesystem::directory_iterator(testing::python_stdlib()))
    if (e.is_regular_file() && e.path().extension() == ".py") all.push_back(e.path());
  std::sort(all.begin(), all.end());
  std::vector<std::filesystem::path> out;
  for (std::size_t i = 0; i < all.size() && out.size() < n; i += std::max<std::size_t>(1, all.size() / n))
    out.push_back(all[i]);
  return out;
}

// The tree tree-sitter gives from the edited old tree is the tree of a
// parse from scratch, node for node, for edits at the start, in the
// middle, at the end and a function moved.
TEST(EarlierTrees, AnEditedFileParsesIntoTheTreeOfAParseFromScratch) {
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  EarlierTrees trees;
  std::size_t compared = 0;
  for (const auto& path : stdlib_files(40)) {
    const std::string src = read(path);
    for (const auto& next : edited(src)) {
      SCOPED_TRACE(path.string());
      ParsingFile file(&trees, path.string());
      TSTree* first = parse_reusing(parser, "t", src);
      ASSERT_NE(first, nullptr);
      {
        // From the last edit's tree back to the file as it is.
        TSTree* scratch = ts_parser_parse_string(parser, nullptr, src.data(), static_cast<std::uint32_t>(src.size()));
        EXPECT_EQ(tree_string(first), tree_string(scratch));
        ts_tree_delete(scratch);
      }
      TSTree* again = parse_reusing(parser, "t", next);
      TSTree* scratch = ts_parser_parse_string(parser, nullptr, next.data(), static_cast<std::uint32_t>(next.size()));
      ASSERT_NE(again, nullptr);
      EXPECT_EQ(tree_string(again), tree_string(scratch));
      // Rows and bytes too: the string above has neither.
      TSNode a = ts_tree_root_node(again), b = ts_tree_root_node(scratch);
      EXPECT_EQ(ts_node_end_byte(a), ts_node_end_byte(b));
      EXPECT_EQ(ts_node_end_point(a).row, ts_node_end_point(b).row);
      EXPECT_EQ(ts_node_descendant_count(a), ts_node_descendant_count(b));
      ++compared;
      ts_tree_delete(first);
      ts_tree_delete(again);
      ts_tree_delete(scratch);
    }
  }
  ts_parser_delete(parser);
  EXPECT_GT(compared, 100u);
  EXPECT_GT(trees.reused(), compared / 2) << "most edited files were parsed from their earlier tree";
  EXPECT_EQ(trees.size(), 40u) << "one tree kept per path and pass";
  trees.keep_only({});
  EXPECT_EQ(trees.size(), 0u);
}

// The facts of an edited file scanned with its earlier tree are those of a
// scan from scratch: sites, lines, guards, classes, calls, docstrings.
TEST(EarlierTrees, AnEditedFileGivesTheFactsOfAScanFromScratch) {
  EarlierTrees trees;
  std::size_t compared = 0;
  for (const auto& path : stdlib_files(60)) {
    const std::string src = read(path);
    for (const auto& next : edited(src)) {
      SCOPED_TRACE(path.string());
      {
        ParsingFile file(&trees, path.string());
        scan_python(src);
      }
      std::string reused;
      {
        ParsingFile file(&trees, path.string());
        reused = facts_to_json(scan_python(next));
      }
      EXPECT_EQ(reused, facts_to_json(scan_python(next)));
      ++compared;
    }
  }
  EXPECT_GT(compared, 150u);
  EXPECT_GT(trees.reused(), compared / 2);
}

// A site's facts follow the lines that moved above it, and a raise added
// inside an unchanged function's neighbour is found, with the guards and
// function of where it now is.
TEST(EarlierTrees, SitesMoveWithTheLinesAboveThem) {
  const std::string v1 =
      "import json\n\n\ndef f(x):\n    if x < 0:\n        raise ValueError(f\"negative {x}\")\n    return x\n\n\n"
      "def g(y):\n    return y\n";
  const std::string v2 =
      "import json\nimport os\n\n\ndef f(x):\n    if x < 0:\n        raise ValueError(f\"negative {x}\")\n    return x\n\n\n"
      "def g(y):\n    if not y:\n        raise KeyError(y)\n    return y\n";
  EarlierTrees trees;
  model::FileFacts facts;
  {
    ParsingFile file(&trees, "pkg/m.py");
    scan_python(v1);
  }
  {
    ParsingFile file(&trees, "pkg/m.py");
    facts = scan_python(v2);
  }
  ASSERT_EQ(facts.sites.size(), 2u);
  EXPECT_EQ(facts.sites[0].line, 7);
  EXPECT_EQ(facts.sites[0].function, "f");
  EXPECT_EQ(facts.sites[1].line, 13);
  EXPECT_EQ(facts.sites[1].function, "g");
  ASSERT_EQ(facts.sites[1].guards.size(), 1u);
  EXPECT_EQ(facts.sites[1].guards[0].condition, "not y");
  EXPECT_EQ(facts_to_json(facts), facts_to_json(scan_python(v2)));
  EXPECT_GE(trees.reused(), 1u);
}

// Past the budget of source bytes a tree is not kept; a path's new tree
// replaces its old one, whose bytes are freed.
TEST(EarlierTrees, KeepTreesWithinTheirBudget) {
  const std::string small = "def f():\n    raise ValueError('x')\n";
  const std::string big = small + std::string(200, '#') + "\n";
  EarlierTrees trees(2 * small.size());
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  auto parse = [&](const std::string& path, const std::string& src) {
    ParsingFile file(&trees, path);
    ts_tree_delete(parse_reusing(parser, "t", src));
  };
  parse("big.py", big);
  EXPECT_EQ(trees.size(), 0u);
  parse("a.py", small);
  parse("b.py", small);
  parse("c.py", small);
  EXPECT_EQ(trees.size(), 2u) << "the third is past the budget";
  parse("a.py", small + "\n");
  EXPECT_EQ(trees.size(), 1u) << "a.py's new tree takes more than its old one freed";
  EXPECT_EQ(trees.reused(), 1u);
  parse("c.py", small);
  EXPECT_EQ(trees.size(), 2u);
  ts_parser_delete(parser);
}

// No scope, or one without trees: a parse from scratch, nothing kept.
TEST(EarlierTrees, WithoutTreesNothingIsKept) {
  EarlierTrees trees;
  const std::string src = "def f():\n    raise ValueError('x')\n";
  scan_python(src);
  {
    ParsingFile file(nullptr, "a.py");
    scan_python(src);
  }
  EXPECT_EQ(trees.size(), 0u);
  EXPECT_EQ(trees.fresh(), 0u);
}

}  // namespace
}  // namespace errdex::scan
