// evidence.docs: texts that quote a record's message are found among many.
#include "analyze/docs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.h"
#include "util/text.h"

namespace errdex::analyze {
namespace {

model::ThrowSite site_saying(const std::string& text) {
  model::ThrowSite s;
  s.message.style = "string";
  s.message.parts.push_back({true, text});
  s.function = "run";
  return s;
}

// The corpus looks each literal up by the bytes at a word start and passes
// over the word starts no literal has: with thousands of literals (a filter
// bit taken by several), every quote is still found, at its line, and a
// literal quoted nowhere finds nothing.
TEST(Docs, EveryQuoteIsFoundAmongThousandsOfLiterals) {
  constexpr int k_n = 3000;
  std::vector<model::ThrowSite> sites;
  std::vector<model::ErrorRecord> records;
  std::vector<std::string> paths, texts;
  paths.reserve(k_n);
  texts.reserve(k_n);
  for (int i = 0; i < k_n; ++i) {
    char lit[96];
    std::snprintf(lit, sizeof lit, "widget %05dth entry of the table is out of range", i);
    sites.push_back(site_saying(lit));
    model::ErrorRecord r;
    r.file_path = "pkg/m.py";
    r.error_class = "ValueError";
    records.push_back(r);
    if (i % 7 == 3) continue;  // never quoted
    char path[32];
    std::snprintf(path, sizeof path, "docs/%d.rst", i);
    paths.push_back(path);
    // Words before and after, the quote on the third line, its spaces
    // written as a doc wraps them.
    texts.push_back("Notes on widgets and\ntheir tables, entry " + std::to_string(i) + ".\nWhen it fails: " +
                    std::string(lit).replace(std::string(lit).find(" of the"), 7, "\n  of  the") + ".\n");
  }
  std::vector<DocSource> docs;
  for (std::size_t d = 0; d < paths.size(); ++d) docs.push_back({&paths[d], 1, {}, texts[d], false});
  link_docs(docs, sites, records);
  for (int i = 0; i < k_n; ++i) {
    const auto& found = records[i].evidence.docs;
    if (i % 7 == 3) {
      EXPECT_TRUE(found.empty()) << i;
      continue;
    }
    ASSERT_EQ(found.size(), 1u) << i;
    EXPECT_EQ(found[0].file_path, "docs/" + std::to_string(i) + ".rst");
    EXPECT_EQ(found[0].line_number, 3) << i;
  }
}

// Each text is searched on its own: a quote that fills a text from its
// first byte to its last is found, and one whose first half ends a text and
// whose second half starts the next is no quote, whichever order the texts
// come in.
TEST(Docs, AQuoteIsFoundToItsTextsEdgesAndNeverAcrossTwoTexts) {
  const std::string lit = "the spline has fewer knots than its degree";
  std::vector<model::ThrowSite> sites{site_saying(lit)};
  const std::vector<std::string> paths{"docs/a.rst", "docs/b.rst", "docs/c.rst", "docs/d.rst"};
  const std::vector<std::string> texts{"Intro.\n\nthe spline has fewer", " knots than its degree\n", lit,
                                       "Then:\n" + lit};
  for (int order = 0; order < 2; ++order) {
    std::vector<DocSource> docs;
    for (int k = 0; k < 4; ++k) {
      const int d = order == 0 ? k : 3 - k;
      docs.push_back({&paths[d], 1, {}, texts[d], false});
    }
    std::vector<model::ErrorRecord> records(1);
    records[0].file_path = "pkg/spline.py";
    records[0].error_class = "ValueError";
    link_docs(docs, sites, records);
    // Links are ordered by path, then line.
    const std::vector<model::DocEvidence> want{{"docs/c.rst", 1}, {"docs/d.rst", 2}};
    EXPECT_EQ(records[0].evidence.docs, want) << order;
  }
}

// A caller's kept indexes (index_doc_text, as a scan of many revisions keeps
// them by content) link as link_docs's own: the standard library's modules
// read as doc files and as docstrings, with sites whose messages quote a
// line of one and whose functions it calls, all found at the same lines.
TEST(Docs, KeptIndexesLinkAsTheTextsThemselves) {
  const std::string stdlib = testing::python_stdlib();
  ASSERT_FALSE(stdlib.empty());
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(stdlib))
    if (e.path().extension() == ".py") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<std::string> texts, doc_paths, code_paths;
  std::vector<model::ThrowSite> sites;
  std::vector<model::ErrorRecord> records;
  for (std::size_t i = 0; i < files.size() && texts.size() < 60; i += 3) {
    std::ifstream in(files[i], std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    std::string text = buf.str();
    // The site quotes the first long line past the file's middle, and is
    // raised in the first function the file calls by a name of 4 letters
    // or more.
    std::string quote;
    for (std::size_t at = text.find('\n', text.size() / 2); at != std::string::npos && quote.empty();
         at = text.find('\n', at + 1)) {
      std::string line = util::collapse_ws(text.substr(at + 1, text.find('\n', at + 1) - at - 1));
      if (line.size() >= 30 && std::count(line.begin(), line.end(), ' ') >= 3) quote = line;
    }
    std::string called;
    for (std::size_t p = text.find('('); p != std::string::npos && called.empty(); p = text.find('(', p + 1)) {
      std::size_t b = p;
      while (b > 0 && util::is_word_char(text[b - 1])) --b;
      if (p - b >= 4) called = text.substr(b, p - b);
    }
    if (quote.empty() || called.empty()) continue;
    model::ThrowSite s = site_saying(quote);
    s.function = called;
    sites.push_back(s);
    model::ErrorRecord r;
    r.file_path = "other/" + files[i].filename().string();
    r.error_class = "ValueError";
    records.push_back(r);
    texts.push_back(std::move(text));
    doc_paths.push_back("docs/" + files[i].stem().string() + ".rst");
    code_paths.push_back("Lib/" + files[i].filename().string());
  }
  ASSERT_GE(texts.size(), 30u);
  std::vector<DocSource> docs;
  for (std::size_t d = 0; d < texts.size(); ++d) {
    docs.push_back({&doc_paths[d], 1, {}, texts[d], false});
    docs.push_back({&code_paths[d], 10, sites[d].function, texts[d], true});
  }
  std::vector<DocTextIndex> indexes;
  for (const auto& d : docs) indexes.push_back(index_doc_text(d.text, d.docstring));
  auto kept = docs;
  for (std::size_t d = 0; d < kept.size(); ++d) kept[d].index = &indexes[d];
  auto alone = records, with_kept = records;
  link_docs(docs, sites, alone);
  link_docs(kept, sites, with_kept);
  std::size_t links = 0;
  for (std::size_t r = 0; r < records.size(); ++r) {
    const auto &a = alone[r].evidence.docs, &b = with_kept[r].evidence.docs;
    ASSERT_EQ(a.size(), b.size()) << r;
    for (std::size_t k = 0; k < a.size(); ++k) {
      EXPECT_EQ(a[k].file_path, b[k].file_path) << r;
      EXPECT_EQ(a[k].line_number, b[k].line_number) << r;
    }
    links += a.size();
  }
  EXPECT_GE(links, records.size()) << "each quote is found at least in its own text";
  // The folded text: no whitespace but single spaces, none first.
  for (const auto& x : indexes) {
    EXPECT_EQ(x.folded.find("  "), std::string::npos);
    EXPECT_EQ(x.folded.find_first_of("\n\t\r"), std::string::npos);
    EXPECT_FALSE(!x.folded.empty() && x.folded[0] == ' ');
  }
}

}  // namespace
}  // namespace errdex::analyze
