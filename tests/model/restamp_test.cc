#include "model/restamp.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "model/record_json.h"

namespace errdex::model {
namespace {

std::vector<ErrorRecord> fixture_records() {
  std::ifstream in(std::string(ERRDEX_SOURCE_DIR) + "/tests/fixtures/dataset_lines.jsonl", std::ios::binary);
  std::vector<ErrorRecord> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto parsed = dataset_line_from_json(line);
    EXPECT_TRUE(parsed) << parsed.error();
    if (parsed) out.push_back(parsed->record);
  }
  return out;
}

// What analyze::stamp changes, with values that need escaping and that
// also occur elsewhere in the record.
void stamp(ErrorRecord& r, const std::string& sha, const std::string& at) {
  r.analyzed_sha = sha;
  r.analyzed_at = at;
  if (r.analysis) r.analysis->at = at;
  r.github_url = "https://github.com/o/n/blob/" + sha + "/a \"b\"\\é.py#L1-L2";
}

// Two revisions' records that differ only in their stamps and places (an
// edit above the site moved its lines) share a body, and the body with a
// record's stamp and place put back reads as that record and writes its
// bytes.
TEST(Restamp, RevisionsShareABodyAndItsStampRestoresTheRecord) {
  auto records = fixture_records();
  ASSERT_FALSE(records.empty());
  for (auto from : records) {
    for (bool with_analysis : {false, true}) {
      if (with_analysis) from.analysis = Analysis{"llm", "qwen \"7b\"", 2, {"documentation", "solutions"}, "x"};
      else from.analysis.reset();
      // An excerpt that quotes the stamp's text keeps it.
      from.source_code += "\n# ,\"analyzedSha\":\"" + from.analyzed_sha + "\"";
      stamp(from, std::string(40, 'a'), "2026-01-01T00:00:00.000Z");
      ErrorRecord to = from;
      stamp(to, std::string(40, 'b'), "2026-02-02T00:00:00.000Z");
      to.line_number += 7;
      to.source_code_start += 7;
      to.source_code_end += 7;
      const ErrorRecord before = to;
      EXPECT_TRUE(same_but_stamp(from, to));
      const std::string body = body_json(to);
      EXPECT_EQ(to, before) << "lent only for the call";
      EXPECT_EQ(body, body_json(from));
      EXPECT_EQ(body.find(std::string(40, 'b')), std::string::npos);
      auto read = record_from_json(body);
      ASSERT_TRUE(read) << read.error();
      restore_stamp(*read, stamp_of(to));
      EXPECT_EQ(*read, to);
      EXPECT_EQ(to_json(*read), to_json(to));
    }
  }
}

TEST(Restamp, RecordsThatDifferInAnythingElseHaveOtherBodies) {
  auto from = fixture_records().at(0);
  ErrorRecord to = from;
  stamp(to, std::string(40, 'b'), "2026-02-02T00:00:00.000Z");
  to.source_code += "\n";
  EXPECT_FALSE(same_but_stamp(from, to));
  EXPECT_NE(body_json(from), body_json(to));
  to = from;
  to.evidence.docs.push_back({"README.md", 3});
  EXPECT_FALSE(same_but_stamp(from, to));
  EXPECT_NE(body_json(from), body_json(to));
  to = from;
  to.analysis = Analysis{"static", "", 0, {}, "x"};
  EXPECT_FALSE(same_but_stamp(from, to));
  EXPECT_NE(body_json(from), body_json(to));
}

}  // namespace
}  // namespace errdex::model
