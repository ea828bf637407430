// An error across revisions, on a real SQLite store: ids carried over to a
// reworded site, a site's history, and the diff between two revisions.
#include "store/history.h"

#include <gtest/gtest.h>

#include "support/process.h"

namespace errdex::store {
namespace {

using testing::TempDir;

const std::string k_sha1(40, '1'), k_sha2(40, '2'), k_sha3(40, '3');

struct Site {
  std::string id, cls, message, function;
  int line;
  std::string file = "pkg/a.py";
};

// One revision of acme/a.
Dataset revision(const std::string& sha, const std::string& ref, const std::vector<Site>& sites) {
  Dataset d{"acme/a", sha, "2026-01-01T00:00:00.000Z", {}};
  d.ref = ref;
  for (const auto& s : sites) {
    model::ErrorRecord r;
    r.id = s.id;
    r.repo = "acme/a";
    r.file_path = s.file;
    r.line_number = s.line;
    r.error_class = s.cls;
    r.error_message = s.message;
    r.analyzed_sha = sha;
    d.records.push_back(r);
    d.site_keys.push_back(site_key(s.file, "", s.function));
  }
  return d;
}

std::unique_ptr<Store> open_in(const TempDir& dir) {
  auto s = open_store("sqlite:" + (dir / "h.db").string());
  EXPECT_TRUE(s) << (s ? "" : s.error());
  return s ? std::move(*s) : nullptr;
}

TEST(History, ARewordedSiteKeepsItsIdWhenItsKeyIsHeldOnce) {
  std::vector<SiteAt> stored = {
      {"acme/a", "v1", k_sha1, "00000000000000a1", "pkg/a.py", "ValueError", "x must be positive", site_key("pkg/a.py", "", "f"), 3},
      {"acme/a", "v1", k_sha1, "00000000000000b1", "pkg/a.py", "KeyError", "one", site_key("pkg/a.py", "", "g"), 7},
      {"acme/a", "v1", k_sha1, "00000000000000b2", "pkg/a.py", "KeyError", "two", site_key("pkg/a.py", "", "g"), 8},
      {"acme/a", "v1", k_sha1, "00000000000000e1", "pkg/a.py", "KeyError", "three", site_key("pkg/a.py", "", "k"), 9},
      {"acme/a", "v1", k_sha1, "00000000000000e2", "pkg/a.py", "KeyError", "four", site_key("pkg/a.py", "", "k"), 10},
  };
  std::vector<model::ErrorRecord> records(6);
  records[0].id = "00000000000000a2";  // f reworded: takes a1
  records[1].id = "00000000000000b1";  // g's first, unchanged
  records[2].id = "00000000000000c1";  // g's second reworded: the one site of g left on each side, takes b2
  records[3].id = "00000000000000d1";  // a new function
  records[4].id = "00000000000000e3";  // both of k's reworded at once: two guesses, no id carried over
  records[5].id = "00000000000000e4";
  for (auto& r : records) r.error_class = "KeyError";
  records[0].error_class = "ValueError";
  std::vector<std::string> keys = {site_key("pkg/a.py", "", "f"), site_key("pkg/a.py", "", "g"),
                                   site_key("pkg/a.py", "", "g"), site_key("pkg/a.py", "", "h"),
                                   site_key("pkg/a.py", "", "k"), site_key("pkg/a.py", "", "k")};
  EXPECT_EQ(keep_site_ids(records, keys, stored), 2u);
  EXPECT_EQ(records[0].id, "00000000000000a1");
  EXPECT_EQ(records[1].id, "00000000000000b1");
  EXPECT_EQ(records[2].id, "00000000000000b2");
  EXPECT_EQ(records[3].id, "00000000000000d1");
  EXPECT_EQ(records[4].id, "00000000000000e3");
  EXPECT_EQ(records[5].id, "00000000000000e4");
  // One site of k now, two stored, neither a record's: which one it is stays a guess.
  std::vector<model::ErrorRecord> one_left(1);
  one_left[0].id = "00000000000000e5";
  one_left[0].error_class = "KeyError";
  EXPECT_EQ(keep_site_ids(one_left, {site_key("pkg/a.py", "", "k")}, stored), 0u)
      << "two stored sites of k, neither a record's";
  // Keys that do not line up with the records change nothing.
  keys.pop_back();
  EXPECT_EQ(keep_site_ids(records, keys, stored), 0u);
}

// A scan of many revisions adds each stored revision to the index once;
// it must answer as keep_site_ids over all of them, a later revision's id
// winning for a key.
TEST(History, SiteIdIndexBuiltRevisionByRevisionAnswersAsKeepSiteIds) {
  auto at = [](const std::string& ref, const std::string& sha, const std::string& id, const std::string& fn) {
    return SiteAt{"acme/a", ref, sha, id, "pkg/a.py", "ValueError", "m " + id, site_key("pkg/a.py", "", fn), 1};
  };
  const std::vector<SiteAt> v1 = {at("v1", k_sha1, "00000000000000a1", "f"), at("v1", k_sha1, "00000000000000b1", "g")};
  const std::vector<SiteAt> v2 = {at("v2", k_sha2, "00000000000000a2", "f"), at("v2", k_sha2, "00000000000000b1", "g"),
                                  at("v2", k_sha2, "00000000000000b9", "g")};
  auto fresh = [] {
    std::vector<model::ErrorRecord> records(3);
    records[0].id = "00000000000000a3";  // f reworded again: takes v2's a2, the later id
    records[1].id = "00000000000000b3";  // g: two sites in v2, the last to hold it, neither a record's
    records[2].id = "00000000000000c3";
    for (auto& r : records) r.error_class = "ValueError";
    return records;
  };
  const std::vector<std::string> keys = {site_key("pkg/a.py", "", "f"), site_key("pkg/a.py", "", "g"),
                                         site_key("pkg/a.py", "", "h")};
  auto whole = fresh();
  const std::size_t kept = keep_site_ids(whole, keys, std::vector<const std::vector<SiteAt>*>{&v1, &v2});
  SiteIdIndex index;
  auto none = fresh();
  EXPECT_EQ(index.keep(none, keys), 0u);  // nothing stored yet
  index.add(v1);
  index.add(v2);
  auto built = fresh();
  EXPECT_EQ(index.keep(built, keys), kept);
  EXPECT_EQ(kept, 2u);
  for (std::size_t i = 0; i < whole.size(); ++i) EXPECT_EQ(built[i].id, whole[i].id) << i;
  EXPECT_EQ(built[0].id, "00000000000000a2");
  EXPECT_EQ(built[1].id, "00000000000000b1");
  EXPECT_EQ(built[2].id, "00000000000000c3");
}

// A site reworded in v2 kept v1's id; unchanged in v3, where its function
// gains a raise, its message hashes to another id and its key is no longer
// held once: it is still the site v2 held, under the id v2 gave it (it got
// the new id, and its history stopped at v2).
TEST(History, AnUnchangedSiteKeepsTheIdItsRewordingKeptWhenItsFunctionGainsARaise) {
  const std::string f = site_key("pkg/a.py", "", "parse");
  const std::vector<SiteAt> v1 = {{"acme/a", "v1", k_sha1, "00000000000000a1", "pkg/a.py", "ValueError", "empty unit", f, 3}};
  const std::vector<SiteAt> v2 = {
      {"acme/a", "v2", k_sha2, "00000000000000a1", "pkg/a.py", "ValueError", "a unit cannot be empty", f, 3}};
  std::vector<model::ErrorRecord> v3(2);
  v3[0].id = "00000000000000a2";  // the id "a unit cannot be empty" hashes to
  v3[0].error_class = "ValueError";
  v3[0].error_message = "a unit cannot be empty";
  v3[1].id = "00000000000000c1";  // the raise parse gains
  v3[1].error_class = "TypeError";
  v3[1].error_message = "a unit needs a name";
  SiteIdIndex index;
  index.add(v1);
  index.add(v2);
  EXPECT_EQ(index.keep(v3, {f, f}), 0u) << "no message changed";
  EXPECT_EQ(v3[0].id, "00000000000000a1");
  EXPECT_EQ(v3[1].id, "00000000000000c1");
  // The same message in another class is another site.
  std::vector<model::ErrorRecord> other(1);
  other[0].id = "00000000000000a3";
  other[0].error_class = "TypeError";
  other[0].error_message = "a unit cannot be empty";
  std::vector<model::ErrorRecord> both = {v3[1], other[0]};
  both[0].id = "00000000000000c2";
  index.keep(both, {f, f});
  EXPECT_EQ(both[1].id, "00000000000000a3");
}

// An id counts a site among the equal messages of its file: with one of
// them removed, the sites below it hash to the ids of the ones above. Each
// takes the id the stored revision gave its function, class and message,
// and a site whose id that takes is paired as any new one (cachetools 5.5.2
// to 7.0.6: MRUCache's `%s is empty` gone, RRCache's answered as MRUCache's
// moved, TLRUCache's reworded one as removed).
TEST(History, ARemovedRaiseOfARepeatedMessageShiftsNoOtherSitesId) {
  auto at = [](const std::string& id, const std::string& fn, const std::string& message) {
    return SiteAt{"acme/a", "v1", k_sha1, id, "pkg/a.py", "KeyError", message, site_key("pkg/a.py", fn, "popitem"), 1};
  };
  const std::vector<SiteAt> v1 = {at("00000000000000a0", "A", "{name} is empty"),
                                  at("00000000000000a1", "B", "{name} is empty"),
                                  at("00000000000000a2", "C", "{name} is empty"),
                                  at("00000000000000d1", "D", "{cls} is empty")};
  auto record = [](const std::string& id, const std::string& message) {
    model::ErrorRecord r;
    r.id = id;
    r.error_class = "KeyError";
    r.error_message = message;
    return r;
  };
  // B's raise removed; D's reworded to the others' message. By their
  // ordinals, C and D hash to B's and C's ids.
  std::vector<model::ErrorRecord> v2 = {record("00000000000000a0", "{name} is empty"),
                                        record("00000000000000a1", "{name} is empty"),
                                        record("00000000000000a2", "{name} is empty")};
  const std::vector<std::string> keys = {site_key("pkg/a.py", "A", "popitem"), site_key("pkg/a.py", "C", "popitem"),
                                         site_key("pkg/a.py", "D", "popitem")};
  EXPECT_EQ(keep_site_ids(v2, keys, v1), 1u) << "one message changed: D's";
  EXPECT_EQ(v2[0].id, "00000000000000a0");
  EXPECT_EQ(v2[1].id, "00000000000000a2");
  EXPECT_EQ(v2[2].id, "00000000000000d1");
  // A site whose id is taken and that pairs with none gets an id of its
  // own, the same on every scan.
  std::vector<model::ErrorRecord> added = {record("00000000000000a0", "{name} is empty"),
                                           record("00000000000000a1", "{name} is empty"),
                                           record("00000000000000a2", "{name} is empty"),
                                           record("00000000000000a3", "{name} is empty")};
  // E's raise added above B's.
  const std::vector<std::string> added_keys = {site_key("pkg/a.py", "A", "popitem"), site_key("pkg/a.py", "E", "popitem"),
                                               site_key("pkg/a.py", "B", "popitem"), site_key("pkg/a.py", "C", "popitem")};
  auto again = added;
  keep_site_ids(added, added_keys, v1);
  keep_site_ids(again, added_keys, v1);
  EXPECT_EQ(added[2].id, "00000000000000a1");
  EXPECT_EQ(added[3].id, "00000000000000a2");
  EXPECT_EQ(added[1].id.size(), 16u);
  for (const char* taken : {"00000000000000a0", "00000000000000a1", "00000000000000a2", "00000000000000a3"})
    EXPECT_NE(added[1].id, taken);
  EXPECT_EQ(added[1].id, again[1].id);
}

TEST(History, FirstLastRemovedAndEachChange) {
  TempDir dir;
  auto st = open_in(dir);
  ASSERT_TRUE(st);
  ASSERT_TRUE(st->ingest(revision(k_sha1, "v1.0", {{"00000000000000a1", "ValueError", "bad {x}", "f", 3}})));
  ASSERT_TRUE(st->ingest(revision(k_sha2, "v1.2", {{"00000000000000a1", "ValueError", "x is bad: {x}", "f", 5}})));
  ASSERT_TRUE(st->ingest(revision(k_sha3, "v1.10", {{"00000000000000ff", "TypeError", "other", "g", 1}})));
  auto h = site_history(*st, "00000000000000a1");
  ASSERT_TRUE(h);
  ASSERT_TRUE(*h);
  const SiteHistory& hist = **h;
  EXPECT_EQ(hist.repo, "acme/a");
  ASSERT_EQ(hist.revisions.size(), 3u);
  EXPECT_EQ(revision_name(hist.revisions[hist.first].revision), "v1.0");
  EXPECT_EQ(revision_name(hist.revisions[hist.last].revision), "v1.2");
  ASSERT_GE(hist.removed_in, 0);
  EXPECT_EQ(revision_name(hist.revisions[hist.removed_in].revision), "v1.10");
  ASSERT_EQ(hist.changes.size(), 1u);
  EXPECT_EQ(hist.revisions[hist.changes[0].to].site->error_message, "x is bad: {x}");
  EXPECT_EQ(hist.revisions[1].site->line, 5);
  auto j = to_json(hist);
  EXPECT_NE(j.find("\"removedIn\":\"v1.10\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"firstSeen\":\"v1.0\""), std::string::npos) << j;
  auto unknown = site_history(*st, "0123456789abcdef");
  ASSERT_TRUE(unknown);
  EXPECT_FALSE(*unknown);
}

TEST(History, DiffSaysAddedRemovedRewordedClassChangedMoved) {
  TempDir dir;
  auto st = open_in(dir);
  ASSERT_TRUE(st);
  ASSERT_TRUE(st->ingest(revision(k_sha1, "v1", {{"00000000000000a1", "ValueError", "same", "moves", 3},
                                                 {"00000000000000b1", "ValueError", "old words", "words", 10},
                                                 {"00000000000000c1", "ValueError", "kind", "kind", 20},
                                                 {"00000000000000d1", "KeyError", "gone", "gone", 30},
                                                 {"00000000000000e1", "KeyError", "stays", "stays", 40}})));
  // b's new id was not carried over (scanned elsewhere, say): its key pairs it.
  ASSERT_TRUE(st->ingest(revision(k_sha2, "v2", {{"00000000000000a1", "ValueError", "same", "moves", 6},
                                                 {"00000000000000b2", "ValueError", "new words", "words", 13},
                                                 {"00000000000000c2", "TypeError", "kind", "kind", 23},
                                                 {"00000000000000e1", "KeyError", "stays", "stays", 40},
                                                 {"00000000000000f1", "OSError", "fresh", "fresh", 50}})));
  std::string missing;
  auto d = diff_revisions(*st, "acme/a", "v1", "v2", &missing);
  ASSERT_TRUE(d);
  ASSERT_TRUE(*d);
  const RevisionDiff& diff = **d;
  ASSERT_EQ(diff.added.size(), 1u);
  EXPECT_EQ(diff.added[0].error_message, "fresh");
  ASSERT_EQ(diff.removed.size(), 1u);
  EXPECT_EQ(diff.removed[0].error_message, "gone");
  ASSERT_EQ(diff.reworded.size(), 1u);
  EXPECT_EQ(diff.reworded[0].second.error_message, "new words");
  ASSERT_EQ(diff.class_changed.size(), 1u);
  EXPECT_EQ(diff.class_changed[0].second.error_class, "TypeError");
  ASSERT_EQ(diff.moved.size(), 1u);
  EXPECT_EQ(diff.moved[0].second.line, 6);
  EXPECT_NE(to_json("acme/a", diff).find("\"classChanged\":[{"), std::string::npos);
  auto none = diff_revisions(*st, "acme/a", "v1", "v3", &missing);
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  EXPECT_EQ(missing, "v3");
}

// One raise of a function reworded, its others unchanged (flask's typo fix
// `"--key is not used.` → `"--key" is not used.` beside five raises of
// the same function): reworded, not one removed and one added. Two of a
// function changed at once stay removed and added.
TEST(History, DiffPairsAFunctionsOneRewordedSiteAmongUnchangedOnes) {
  TempDir dir;
  auto st = open_in(dir);
  ASSERT_TRUE(st);
  ASSERT_TRUE(st->ingest(revision(k_sha1, "v1", {{"00000000000000b1", "ValueError", "one", "g", 10},
                                                 {"00000000000000b2", "ValueError", "two", "g", 11},
                                                 {"00000000000000c1", "KeyError", "x", "h", 20},
                                                 {"00000000000000c2", "KeyError", "y", "h", 21}})));
  ASSERT_TRUE(st->ingest(revision(k_sha2, "v2", {{"00000000000000b1", "ValueError", "one", "g", 10},
                                                 {"00000000000000b3", "ValueError", "two!", "g", 11},
                                                 {"00000000000000c3", "KeyError", "x2", "h", 20},
                                                 {"00000000000000c4", "KeyError", "y2", "h", 21}})));
  auto d = diff_revisions(*st, "acme/a", "v1", "v2");
  ASSERT_TRUE(d);
  ASSERT_TRUE(*d);
  const RevisionDiff& diff = **d;
  ASSERT_EQ(diff.reworded.size(), 1u);
  EXPECT_EQ(diff.reworded[0].first.error_message, "two");
  EXPECT_EQ(diff.reworded[0].second.error_message, "two!");
  EXPECT_EQ(diff.removed.size(), 2u);
  EXPECT_EQ(diff.added.size(), 2u);
}

// A function's raise whose class and message both changed is another
// statement: ky 2.0's `create` throws RangeError("The `totalTimeout`
// option …") where 1.14 threw an HTTPError, which it now throws elsewhere
// (`throw errorToThrow`). Neither the scan nor the diff pairs them.
TEST(History, ARaiseWhoseClassAndMessageBothChangedIsAnotherStatement) {
  const std::string create = site_key("pkg/a.py", "Ky", "create");
  const std::vector<SiteAt> v1 = {
      {"acme/a", "v1", k_sha1, "00000000000000a1", "pkg/a.py", "HTTPError", "Request failed", create, 3}};
  std::vector<model::ErrorRecord> v2(1);
  v2[0].id = "00000000000000b1";
  v2[0].error_class = "RangeError";
  v2[0].error_message = "The totalTimeout option cannot be greater than {max}";
  EXPECT_EQ(keep_site_ids(v2, {create}, v1), 0u);
  EXPECT_EQ(v2[0].id, "00000000000000b1");
  // Reworded, or its class changed, it is the same.
  v2[0].error_class = "HTTPError";
  EXPECT_EQ(keep_site_ids(v2, {create}, v1), 1u);
  EXPECT_EQ(v2[0].id, "00000000000000a1");

  TempDir dir;
  auto st = open_in(dir);
  ASSERT_TRUE(st);
  ASSERT_TRUE(st->ingest(revision(k_sha1, "v1", {{"00000000000000a1", "HTTPError", "Request failed", "create", 3},
                                                 {"00000000000000c1", "KeyError", "x", "get", 9}})));
  ASSERT_TRUE(st->ingest(revision(k_sha2, "v2", {{"00000000000000b1", "RangeError", "too long", "create", 3},
                                                 {"00000000000000c2", "LookupError", "x", "get", 9}})));
  auto d = diff_revisions(*st, "acme/a", "v1", "v2");
  ASSERT_TRUE(d);
  ASSERT_TRUE(*d);
  const RevisionDiff& diff = **d;
  ASSERT_EQ(diff.removed.size(), 1u);
  EXPECT_EQ(diff.removed[0].error_class, "HTTPError");
  ASSERT_EQ(diff.added.size(), 1u);
  EXPECT_EQ(diff.added[0].error_class, "RangeError");
  ASSERT_EQ(diff.class_changed.size(), 1u);
  EXPECT_EQ(diff.class_changed[0].second.error_class, "LookupError");
}

// A file renamed or split (`datetime.py` become `_pydatetime.py`): its
// sites get new ids, as an id hashes the file; one that says the same in
// the same function is moved, not one removed and one added, unless
// another site removed or added says it too.
TEST(History, DiffFollowsASiteIntoARenamedFile) {
  TempDir dir;
  auto st = open_in(dir);
  ASSERT_TRUE(st);
  ASSERT_TRUE(st->ingest(revision(k_sha1, "v1", {{"00000000000000a1", "ValueError", "year out of range", "check", 3, "pkg/dt.py"},
                                                 {"00000000000000b1", "ValueError", "twice", "twice", 5, "pkg/dt.py"},
                                                 {"00000000000000b2", "ValueError", "twice", "twice", 6, "pkg/dt.py"},
                                                 {"00000000000000c1", "TypeError", "", "bare", 9, "pkg/dt.py"},
                                                 {"00000000000000d1", "KeyError", "gone", "gone", 12, "pkg/dt.py"}})));
  ASSERT_TRUE(st->ingest(revision(k_sha2, "v2", {{"00000000000000a2", "ValueError", "year out of range", "check", 30, "pkg/_pydt.py"},
                                                 {"00000000000000b3", "ValueError", "twice", "twice", 50, "pkg/_pydt.py"},
                                                 {"00000000000000b4", "ValueError", "twice", "twice", 60, "pkg/_pydt.py"},
                                                 {"00000000000000c2", "TypeError", "", "bare", 90, "pkg/_pydt.py"},
                                                 {"00000000000000e1", "KeyError", "gone", "elsewhere", 1, "pkg/_pydt.py"}})));
  auto d = diff_revisions(*st, "acme/a", "v1", "v2");
  ASSERT_TRUE(d);
  ASSERT_TRUE(*d);
  const RevisionDiff& diff = **d;
  ASSERT_EQ(diff.moved.size(), 1u);
  EXPECT_EQ(diff.moved[0].first.file_path, "pkg/dt.py");
  EXPECT_EQ(diff.moved[0].second.file_path, "pkg/_pydt.py");
  EXPECT_EQ(diff.moved[0].second.line, 30);
  // Said twice, said nothing, or in another function: removed and added.
  EXPECT_EQ(diff.removed.size(), 4u);
  EXPECT_EQ(diff.added.size(), 4u);
  EXPECT_TRUE(diff.reworded.empty());
  EXPECT_TRUE(diff.class_changed.empty());
  // Each side's history names the other.
  auto before = site_history(*st, "00000000000000a1");
  auto after = site_history(*st, "00000000000000a2");
  ASSERT_TRUE(before && *before && after && *after);
  EXPECT_EQ((*before)->moved_from.revision, -1);
  ASSERT_EQ((*before)->moved_to.revision, 1);
  EXPECT_EQ((*before)->moved_to.site.id, "00000000000000a2");
  ASSERT_EQ((*after)->moved_from.revision, 0);
  EXPECT_EQ((*after)->moved_from.site.file_path, "pkg/dt.py");
  EXPECT_EQ((*after)->moved_to.revision, -1);
  const std::string j = to_json(**after);
  EXPECT_NE(j.find("\"movedFrom\":{\"errorClass\":\"ValueError\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"revision\":\"v1\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"movedTo\":null"), std::string::npos) << j;
  // A site gone without a successor moved nowhere.
  auto gone = site_history(*st, "00000000000000d1");
  ASSERT_TRUE(gone && *gone);
  EXPECT_EQ((*gone)->moved_to.revision, -1);
}

// A server answers many histories across one edge: the diff is run once
// and the answers are those of the diff run each time.
TEST(History, ADiffMemoRunsEachDiffOnceAndAnswersTheSame) {
  TempDir dir;
  auto st = open_in(dir);
  ASSERT_TRUE(st);
  ASSERT_TRUE(st->ingest(revision(k_sha1, "v1", {{"00000000000000a1", "ValueError", "year out of range", "check", 3, "pkg/dt.py"},
                                                 {"00000000000000d1", "KeyError", "gone", "gone", 12, "pkg/dt.py"}})));
  ASSERT_TRUE(st->ingest(revision(k_sha2, "v2", {{"00000000000000a2", "ValueError", "year out of range", "check", 30, "pkg/_pydt.py"},
                                                 {"00000000000000e1", "KeyError", "new", "fresh", 1, "pkg/_pydt.py"}})));
  DiffMemo memo;
  for (const char* id : {"00000000000000a1", "00000000000000a2", "00000000000000d1", "00000000000000e1"}) {
    auto plain = site_history(*st, id);
    auto held = site_history(*st, id, &memo);
    ASSERT_TRUE(plain && *plain && held && *held) << id;
    EXPECT_EQ(to_json(**plain), to_json(**held)) << id;
  }
  // Four histories, each reading the one edge v1 -> v2.
  EXPECT_EQ(memo.runs(), 1u);
  std::string missing;
  auto d = memo.diff(*st, "acme/a", "v1", "v2", &missing);
  ASSERT_TRUE(d && *d);
  EXPECT_EQ((*d)->moved.size(), 1u);
  EXPECT_EQ(memo.runs(), 1u);
  // A revision not stored: nothing, named, and remembered as such.
  auto none = memo.diff(*st, "acme/a", "v1", "v9", &missing);
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  EXPECT_EQ(missing, "v9");
  missing.clear();
  none = memo.diff(*st, "acme/a", "v1", "v9", &missing);
  EXPECT_EQ(missing, "v9");
  EXPECT_EQ(memo.runs(), 2u);
}

}  // namespace
}  // namespace errdex::store
