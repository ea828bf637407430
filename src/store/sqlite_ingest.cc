#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include <nlohmann/json.hpp>

#include "model/record_json.h"
#include "model/restamp.h"
#include "store/dataset_rules.h"
#include "store/sqlite_store_impl.h"
#include "util/text.h"

namespace errdex::store::sqlite {
namespace {

// What the search index reads of a record (records_fts' columns), with its
// id, hashed: two records with the same hash share a search doc.
std::string search_hash(const model::ErrorRecord& r) {
  std::string text = r.id;
  for (const std::string* part : {&r.error_message, &r.error_class, &r.documentation}) {
    text += '\0';
    text += *part;
  }
  text += '\0';
  for (const auto& tag : r.tags) {
    text += tag;
    text += ' ';
  }
  // 128 bits: a collision would index one record with another's text.
  return util::content_key(text);
}

}  // namespace

Status SqliteStore::ingest(const Dataset& dataset) {
  if (auto s = check_dataset(dataset); !s) return s;
  // Everything below commits together or not at all: a reader or a process
  // opening after a crash sees the previous dataset or this one.
  auto s = in_transaction("ingest", [&] { return ingest_locked(dataset); });
  // What the ingest kept for the next one holds only once committed.
  if (!s) m_last.reset();
  return s;
}

Expected<std::string> SqliteStore::datasets_mark() {
  Run run(m_datasets_mark);
  if (run.step() != SQLITE_ROW) return db_error(m_db, "read the datasets' mark");
  return std::to_string(run.column_int(0)) + ":" + std::to_string(run.column_int(1)) + ":" +
         std::to_string(run.column_int(2)) + ":" + std::string(run.column_text(3));
}

Status SqliteStore::ingest_locked(const Dataset& dataset) {
  // What the last ingest kept, if no one has written since.
  std::optional<LastIngest> last = std::exchange(m_last, std::nullopt);
  if (last) {
    auto mark = datasets_mark();
    if (!mark) return Error{mark.error()};
    if (*mark != last->mark) last.reset();
  }
  // The current revision's records by id, with what search reads of them:
  // a record stored now with the same text keeps its search doc.
  auto found = current_dataset(dataset.repo);
  if (!found) return Error{found.error()};
  const std::optional<std::int64_t> current = *found;
  std::unordered_map<std::string, std::pair<std::string, std::int64_t>> docs_by_id;
  std::vector<std::int64_t> indexed;
  if (current && last && last->repo == dataset.repo && last->current == *current) {
    docs_by_id = std::move(last->docs_by_id);
    indexed = std::move(last->indexed);
  } else if (current) {
    Run run(m_docs_by_id);
    run.integer(1, *current);
    int rc;
    while ((rc = run.step()) == SQLITE_ROW) {
      indexed.push_back(run.column_int(2));
      docs_by_id.emplace(std::string(run.column_text(0)), std::pair(std::string(run.column_text(1)), run.column_int(2)));
    }
    if (rc != SQLITE_DONE) return db_error(m_db, "read the current records' search docs");
    std::sort(indexed.begin(), indexed.end());
  }
  // A new doc number is above every one in use: the search index holds
  // only docs of stored records.
  std::int64_t next_doc = 0;
  if (last) {
    next_doc = last->next_doc;
  } else {
    Run run(m_max_doc);
    if (run.step() != SQLITE_ROW) return db_error(m_db, "read the last search doc");
    next_doc = run.column_int(0) + 1;
  }
  std::optional<std::int64_t> same;
  {
    Run run(m_find_same);
    int rc = run.text(1, dataset.repo).text(2, dataset.sha).text(3, dataset.ref).step();
    if (rc == SQLITE_ROW) same = run.column_int(0);
    else if (rc != SQLITE_DONE) return db_error(m_db, "find dataset");
  }
  if (same) {
    // Bodies and docs go with it: nothing known is sure to hold after.
    last.reset();
    Run del_bodies(m_delete_bodies);
    if (del_bodies.integer(1, *same).step() != SQLITE_DONE) return db_error(m_db, "delete old bodies");
    Run del_records(m_delete_records);
    if (del_records.integer(1, *same).step() != SQLITE_DONE) return db_error(m_db, "delete old records");
    Run del_dataset(m_delete_dataset);
    if (del_dataset.integer(1, *same).step() != SQLITE_DONE) return db_error(m_db, "delete old dataset");
  }
  std::int64_t dataset_id;
  {
    Run run(m_insert_dataset);
    run.text(1, dataset.repo).text(2, dataset.sha).text(3, dataset.dataset_version).text(4, util::iso_now_ms());
    run.text(6, nlohmann::json(dataset.import_roots).dump()).text(7, dataset.ref);
    if (run.integer(5, static_cast<std::int64_t>(dataset.records.size())).step() != SQLITE_DONE)
      return db_error(m_db, "insert dataset");
    dataset_id = sqlite3_last_insert_rowid(m_db);
  }
  // Kept for the next ingest: the bodies known, and this dataset's docs.
  LastIngest next;
  if (last) next.bodies = std::move(last->bodies);
  next.repo = dataset.repo;
  next.docs_by_id.reserve(dataset.records.size());
  next.indexed.reserve(dataset.records.size());
  const bool serialised = dataset.record_bodies.size() == dataset.records.size();
  const bool keyed = serialised && dataset.record_body_keys.size() == dataset.records.size();
  std::string own;  // a body this store serialised
  for (std::size_t i = 0; i < dataset.records.size(); ++i) {
    const auto& r = dataset.records[i];
    if (!serialised) {
      model::ErrorRecord lent = r;
      own = model::body_json(lent);
    }
    const std::string& text = serialised ? dataset.record_bodies[i] : own;
    std::string key = keyed ? dataset.record_body_keys[i] : util::content_key(text);
    // A body holds all that the search hash reads: one known gives both.
    auto known = next.bodies.find(key);
    if (known == next.bodies.end()) {
      auto body = body_id(text, key);
      if (!body) return Error{body.error()};
      known = next.bodies.emplace(std::move(key), std::pair(*body, search_hash(r))).first;
    }
    const auto& [body, hash] = known->second;
    std::int64_t doc;
    if (auto it = docs_by_id.find(r.id); it != docs_by_id.end() && it->second.first == hash) {
      doc = it->second.second;
      docs_by_id.erase(it);  // one record per doc
    } else {
      doc = next_doc++;
    }
    // Every text bound lives in the dataset or in `next` past this Run.
    Run run(m_insert_record);
    run.integer(1, dataset_id).text_static(2, r.id).text_static(3, r.repo).text_static(4, r.file_path);
    run.integer(5, r.line_number).text_static(6, r.error_class).text_static(7, r.error_message);
    run.text_static(8, dataset.site_keys.empty() ? std::string_view() : dataset.site_keys[i]);
    run.integer(9, doc).text_static(10, hash).integer(11, body).text_static(12, r.github_url);
    run.text_static(13, r.analyzed_at);
    run.text_static(14, r.analysis ? std::string_view(r.analysis->at) : std::string_view());
    run.integer(15, r.source_code_start).integer(16, r.source_code_end);
    int rc = run.step();
    if (rc == SQLITE_CONSTRAINT_UNIQUE)
      return Error{"duplicate record id " + r.id + " in dataset " + dataset.repo + "@" + dataset.sha};
    if (rc != SQLITE_DONE) return db_error(m_db, "insert record " + r.id);
    next.docs_by_id.emplace(r.id, std::pair(hash, doc));
    next.indexed.push_back(doc);
  }
  std::sort(next.indexed.begin(), next.indexed.end());
  if (auto s = choose_current(dataset.repo, indexed, {dataset_id, &next.indexed}); !s) return s;
  next.next_doc = next_doc;
  if (same) return ok();  // the last doc may have gone with it: read again next time
  // The docs are known when this dataset became current. The mark is read
  // while this transaction holds the write lock: it is what the commit
  // leaves, and no other writer's change can slip under it.
  auto now = current_dataset(dataset.repo);
  if (!now) return Error{now.error()};
  if (*now == dataset_id) {
    next.current = dataset_id;
  } else {
    next.docs_by_id.clear();
    next.indexed.clear();
  }
  auto mark = datasets_mark();
  if (!mark) return Error{mark.error()};
  next.mark = std::move(*mark);
  m_last = std::move(next);
  return ok();
}

Expected<std::int64_t> SqliteStore::body_id(const std::string& body, const std::string& key) {
  {
    Run find(m_find_body);
    int rc = find.text(1, key).step();
    if (rc == SQLITE_ROW) return find.column_int(0);
    if (rc != SQLITE_DONE) return db_error(m_db, "find record body");
  }
  Run add(m_insert_body);
  if (add.text(1, key).text(2, body).step() != SQLITE_DONE) return db_error(m_db, "insert record body");
  return sqlite3_last_insert_rowid(m_db);
}

Expected<std::optional<std::int64_t>> SqliteStore::current_dataset(const std::string& repo) {
  Run run(m_find_current);
  int rc = run.text(1, repo).step();
  if (rc == SQLITE_ROW) return std::optional<std::int64_t>(run.column_int(0));
  if (rc != SQLITE_DONE) return db_error(m_db, "find current dataset");
  return std::optional<std::int64_t>();
}

Expected<std::vector<std::int64_t>> SqliteStore::search_docs(std::optional<std::int64_t> dataset,
                                                            const std::string& repo) {
  if (!dataset) {
    auto found = current_dataset(repo);
    if (!found) return Error{found.error()};
    dataset = *found;
  }
  std::vector<std::int64_t> docs;
  if (!dataset) return docs;
  Run run(m_search_docs);
  run.integer(1, *dataset);
  int rc;
  while ((rc = run.step()) == SQLITE_ROW) docs.push_back(run.column_int(0));
  if (rc != SQLITE_DONE) return db_error(m_db, "read search docs");
  return docs;
}

Status SqliteStore::choose_current(const std::string& repo, const std::vector<std::int64_t>& indexed,
                                   const std::pair<std::int64_t, const std::vector<std::int64_t>*>& inserted) {
  auto rows = datasets_of(repo);
  if (!rows) return Error{rows.error()};
  std::vector<std::int64_t> wanted;
  if (!rows->empty() && inserted.second && rows->back().id == inserted.first) {
    wanted = *inserted.second;
  } else if (!rows->empty()) {
    auto docs = search_docs(rows->back().id, repo);
    if (!docs) return Error{docs.error()};
    wanted = std::move(*docs);
  }
  // Out of the index: what the old current held and the new one does not;
  // into it: the reverse. Both lists are sorted.
  std::vector<std::int64_t> drop, add;
  std::set_difference(indexed.begin(), indexed.end(), wanted.begin(), wanted.end(), std::back_inserter(drop));
  std::set_difference(wanted.begin(), wanted.end(), indexed.begin(), indexed.end(), std::back_inserter(add));
  for (std::int64_t doc : drop) {
    Run run(m_fts_delete);
    if (run.integer(1, doc).step() != SQLITE_DONE) return db_error(m_db, "clear search index");
  }
  if (rows->empty()) {
    Run run(m_unset_current);
    if (run.text(1, repo).step() != SQLITE_DONE) return db_error(m_db, "forget repository");
    return ok();
  }
  const std::int64_t last = rows->back().id;
  if (add.size() == wanted.size()) {
    // Nothing kept: one statement indexes them all.
    Run run(m_fts_fill);
    if (run.integer(1, last).step() != SQLITE_DONE) return db_error(m_db, "index records for search");
  } else {
    for (std::int64_t doc : add) {
      Run run(m_fts_add);
      if (run.integer(1, last).integer(2, doc).step() != SQLITE_DONE) return db_error(m_db, "index records for search");
    }
  }
  Run run(m_set_current);
  if (run.text(1, repo).integer(2, last).step() != SQLITE_DONE) return db_error(m_db, "set current dataset");
  return ok();
}

Expected<std::vector<SqliteStore::DatasetRow>> SqliteStore::datasets_of(const std::string& repo) {
  std::vector<DatasetRow> rows;
  {
    Run run(m_datasets_of);
    run.text(1, repo);
    int rc;
    while ((rc = run.step()) == SQLITE_ROW)
      rows.push_back({run.column_int(0), Revision{std::string(run.column_text(1)), std::string(run.column_text(2)),
                                                  std::string(run.column_text(3)), run.column_int(4), false}});
    if (rc != SQLITE_DONE) return db_error(m_db, "list revisions");
  }
  order_revisions(rows);
  return rows;
}

Expected<std::size_t> SqliteStore::forget(const std::string& repo, const std::optional<std::string>& rev) {
  m_last.reset();  // bodies and docs go
  return in_transaction("forget", [&]() -> Expected<std::size_t> {
    auto rows = datasets_of(repo);
    if (!rows) return Error{rows.error()};
    const std::vector<std::int64_t> drop = datasets_to_forget(*rows, rev);
    if (drop.empty()) return std::size_t{0};
    auto indexed = search_docs(std::nullopt, repo);
    if (!indexed) return Error{indexed.error()};
    for (std::int64_t id : drop) {
      Run del_bodies(m_delete_bodies);
      if (del_bodies.integer(1, id).step() != SQLITE_DONE) return db_error(m_db, "delete bodies");
      Run del_records(m_delete_records);
      if (del_records.integer(1, id).step() != SQLITE_DONE) return db_error(m_db, "delete records");
      Run del_dataset(m_delete_dataset);
      if (del_dataset.integer(1, id).step() != SQLITE_DONE) return db_error(m_db, "delete dataset");
    }
    if (auto s = choose_current(repo, *indexed); !s) return Error{s.error()};
    return drop.size();
  });
}

}  // namespace errdex::store::sqlite
