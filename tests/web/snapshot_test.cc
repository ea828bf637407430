// What the server holds in memory (web/snapshot.h), loaded again after the
// store changed: only the repositories that changed are read.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "model/record_json.h"
#include "store/store.h"
#include "support/process.h"
#include "util/text.h"
#include "web/snapshot.h"

namespace errdex::web {
namespace {

using testing::TempDir;

// A store that counts what is read from it, repository by repository.
class CountingStore final : public store::Store {
 public:
  explicit CountingStore(store::Store& inner) : m(inner) {}
  std::map<std::string, int> lists;   // repo ("*" for all) -> list() calls
  std::map<std::string, int> others;  // repo -> match_fields_at() calls

  Status ingest(const store::Dataset& d) override { return m.ingest(d); }
  Expected<std::size_t> forget(const std::string& repo, const std::optional<std::string>& rev) override {
    return m.forget(repo, rev);
  }
  Expected<std::vector<store::Revision>> revisions(const std::string& repo) override { return m.revisions(repo); }
  Expected<std::optional<std::pair<store::Revision, std::vector<store::SiteAt>>>> revision(
      const std::string& repo, const std::string& rev) override {
    return m.revision(repo, rev);
  }
  Expected<std::vector<store::SiteAt>> occurrences(std::string_view id) override { return m.occurrences(id); }
  Expected<std::vector<store::SiteAt>> occurrences_of_key(const std::string& repo, const std::string& key) override {
    return m.occurrences_of_key(repo, key);
  }
  Expected<std::optional<model::DatasetLine>> get(std::string_view id) override { return m.get(id); }
  Expected<std::vector<model::DatasetLine>> list(const std::optional<std::string>& repo) override {
    ++lists[repo.value_or("*")];
    return m.list(repo);
  }
  Expected<std::optional<std::vector<model::DatasetLine>>> list_at(const std::string& repo,
                                                                  const std::string& rev) override {
    return m.list_at(repo, rev);
  }
  Expected<std::vector<model::ErrorRecord>> match_fields(const std::optional<std::string>& repo) override {
    ++lists[repo.value_or("*")];
    return m.match_fields(repo);
  }
  Expected<std::optional<std::vector<model::ErrorRecord>>> match_fields_at(const std::string& repo,
                                                                          const std::string& rev) override {
    ++others[repo];
    return m.match_fields_at(repo, rev);
  }
  Expected<std::vector<store::SearchHit>> search(std::string_view text, const std::optional<std::string>& repo,
                                                 int limit) override {
    return m.search(text, repo, limit);
  }
  Expected<std::vector<store::RankedId>> search_ids(std::string_view text, const std::optional<std::string>& repo,
                                                    int limit) override {
    return m.search_ids(text, repo, limit);
  }
  Expected<std::vector<store::RepoSummary>> repos() override { return m.repos(); }
  Expected<std::string> datasets_state() override { return m.datasets_state(); }

 private:
  store::Store& m;
};

model::ErrorRecord record(const std::string& repo, const std::string& sha, int n, const std::string& word) {
  model::ErrorRecord r;
  r.id = util::hex64(util::fnv1a64(repo + "#" + std::to_string(n) + "#" + word));
  r.repo = repo;
  r.slug = "step-failed";
  r.error_message = "step " + std::to_string(n) + " failed: " + word;
  r.message_pattern = "step " + std::to_string(n) + " failed: " + word;
  r.error_type = "validation";
  r.error_class = "ValueError";
  r.severity = "error";
  r.file_path = "pkg/mod.py";
  r.line_number = 10 + n;
  r.source_code = "raise ValueError(\"step failed\")\n";
  r.source_code_start = r.line_number;
  r.source_code_end = r.line_number;
  r.github_url = "https://github.com/" + repo + "/blob/" + sha + "/" + r.file_path;
  r.documentation = "Raised when the step fails.";
  r.analyzed_sha = sha;
  r.analyzed_at = "2026-01-02T03:04:05.006Z";
  return r;
}

store::Dataset dataset(const std::string& repo, char sha, const std::string& ref, const std::string& word) {
  store::Dataset d{repo, std::string(40, sha), "2026-01-02T03:04:05.000Z", {}};
  d.ref = ref;
  for (int n = 0; n < 3; ++n) d.records.push_back(record(repo, d.sha, n, word));
  return d;
}

std::string lines_json(const Snapshot& s) {
  std::string out;
  for (const auto& l : s.lines) out += model::to_json(*l) + "\n";
  for (std::size_t i = 0; i < s.other_records.size(); ++i)
    out += model::to_json(s.other_records[i]) + " " + s.other_revision_of[i].first + " " +
           std::to_string(s.other_preference[i]) + "\n";
  return out;
}

// A reload after one repository's new dataset read every repository's
// records again (the whole store, for each dataset a scan stores): it now
// reads only that repository's, and serves the same as a load from scratch.
TEST(Snapshot, AReloadReadsOnlyTheRepositoriesThatChanged) {
  TempDir dir;
  auto opened = store::open_store("sqlite:" + (dir / "s.db").string());
  ASSERT_TRUE(opened) << opened.error();
  CountingStore st(**opened);
  ASSERT_TRUE(st.ingest(dataset("acme/a", 'a', "v1", "alpha")));
  ASSERT_TRUE(st.ingest(dataset("acme/a", 'b', "v2", "alpha2")));
  ASSERT_TRUE(st.ingest(dataset("zeta/z", 'c', "", "zulu")));
  auto first = load_snapshot(st);
  ASSERT_TRUE(first) << first.error();
  ASSERT_EQ((*first)->lines.size(), 6u);
  ASSERT_EQ((*first)->other_records.size(), 3u);

  ASSERT_TRUE(st.ingest(dataset("zeta/z", 'd', "", "zulu2")));
  st.lists.clear();
  st.others.clear();
  auto again = load_snapshot(st, first->get());
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(st.lists, (std::map<std::string, int>{{"zeta/z", 1}}));
  EXPECT_EQ(st.others.count("acme/a"), 0u);
  auto whole = load_snapshot(st);
  ASSERT_TRUE(whole) << whole.error();
  EXPECT_EQ(lines_json(**again), lines_json(**whole));
  EXPECT_EQ((*again)->signature, (*whole)->signature);
  // The kept repository's old revision still answers, and the new dataset
  // of the other.
  auto old = (*again)->matcher->match("ValueError: step 1 failed: alpha", 3);
  ASSERT_FALSE(old.candidates.empty());
  EXPECT_EQ((*again)->matched(old.candidates[0].index)->repo, "acme/a");
  auto fresh = (*again)->matcher->match("ValueError: step 2 failed: zulu2", 3);
  ASSERT_FALSE(fresh.candidates.empty());
  EXPECT_EQ((*again)->lines[fresh.candidates[0].index]->record.error_message, "step 2 failed: zulu2");

  // A revision dropped is a change of its repository too.
  ASSERT_TRUE(st.forget("acme/a", std::string("v1")));
  st.lists.clear();
  auto dropped = load_snapshot(st, again->get());
  ASSERT_TRUE(dropped) << dropped.error();
  EXPECT_EQ(st.lists, (std::map<std::string, int>{{"acme/a", 1}}));
  for (const auto& r : (*dropped)->other_records) EXPECT_EQ(r.repo, "zeta/z") << "acme/a holds one revision now";
  whole = load_snapshot(st);
  ASSERT_TRUE(whole) << whole.error();
  EXPECT_EQ(lines_json(**dropped), lines_json(**whole));
}

}  // namespace
}  // namespace errdex::web
