// evidence.docs: texts that quote a record's message are found among many.
#include "analyze/docs.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

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

}  // namespace
}  // namespace errdex::analyze
