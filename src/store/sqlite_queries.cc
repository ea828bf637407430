#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "model/record_json.h"
#include "model/restamp.h"
#include "store/dataset_rules.h"
#include "store/sqlite_store_impl.h"

namespace errdex::store::sqlite {

Expected<model::ErrorRecord> read_record(const Run& run) {
  auto record = model::record_from_json(run.column_text(0));
  if (!record) return Error{record.error()};
  model::restore_stamp(*record, {std::string(run.column_text(1)), std::string(run.column_text(2)),
                                 std::string(run.column_text(3)), std::string(run.column_text(4)),
                                 static_cast<int>(run.column_int(5)), static_cast<int>(run.column_int(6)),
                                 static_cast<int>(run.column_int(7))});
  return record;
}

std::vector<std::string> quoted_words(std::string_view text) {
  std::vector<std::string> out;
  for (const auto& word : search_words(text)) {
    std::string q = "\"";
    for (char c : word) {
      if (c == '"') q += '"';
      q += c;
    }
    q += '"';
    out.push_back(std::move(q));
  }
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

Expected<std::vector<Revision>> SqliteStore::revisions(const std::string& repo) {
  auto rows = datasets_of(repo);
  if (!rows) return Error{rows.error()};
  std::vector<Revision> out;
  for (auto& r : *rows) out.push_back(std::move(r.revision));
  return out;
}

Expected<std::vector<SiteAt>> SqliteStore::read_sites(Statement& stmt, const std::function<void(Run&)>& bind) {
  std::vector<SiteAt> out;
  Run run(stmt);
  bind(run);
  int rc;
  while ((rc = run.step()) == SQLITE_ROW) {
    SiteAt s;
    s.repo = run.column_text(0);
    s.ref = run.column_text(1);
    s.sha = run.column_text(2);
    s.id = run.column_text(3);
    s.file_path = run.column_text(4);
    s.line = static_cast<int>(run.column_int(5));
    s.error_class = run.column_text(6);
    s.error_message = run.column_text(7);
    s.site_key = run.column_text(8);
    out.push_back(std::move(s));
  }
  if (rc != SQLITE_DONE) return db_error(m_db, "read sites");
  return out;
}

Expected<std::optional<std::pair<Revision, std::vector<SiteAt>>>> SqliteStore::revision(const std::string& repo,
                                                                                      const std::string& rev) {
  using Answer = std::optional<std::pair<Revision, std::vector<SiteAt>>>;
  auto rows = datasets_of(repo);
  if (!rows) return Error{rows.error()};
  const DatasetRow* r = find_revision(*rows, rev);
  if (!r) return Answer();
  auto sites = read_sites(m_revision_sites, [&](Run& run) { run.integer(1, r->id); });
  if (!sites) return Error{sites.error()};
  return Answer(std::pair(r->revision, std::move(*sites)));
}

Expected<std::vector<SiteAt>> SqliteStore::occurrences(std::string_view id) {
  return read_sites(m_occurrences, [&](Run& run) { run.text(1, id); });
}

Expected<std::vector<SiteAt>> SqliteStore::occurrences_of_key(const std::string& repo, const std::string& key) {
  if (key.empty()) return std::vector<SiteAt>();
  return read_sites(m_occurrences_key, [&](Run& run) { run.text(1, repo).text(2, key); });
}

Expected<std::optional<model::DatasetLine>> SqliteStore::get(std::string_view id) {
  Run run(m_get);
  int rc = run.text(1, id).step();
  if (rc == SQLITE_DONE) return std::optional<model::DatasetLine>();
  if (rc != SQLITE_ROW) return db_error(m_db, "get record");
  auto record = read_record(run);
  if (!record) return Error{"stored record " + std::string(id) + " is unreadable: " + record.error()};
  return std::optional<model::DatasetLine>(
      model::DatasetLine{std::move(*record), std::string(run.column_text(k_record_columns)),
                         std::string(run.column_text(k_record_columns + 1))});
}

Expected<std::vector<model::DatasetLine>> SqliteStore::list(const std::optional<std::string>& repo) {
  Run run(m_list);
  run.text_or_null(1, repo);
  return read_lines(run);
}

Expected<std::optional<std::vector<model::DatasetLine>>> SqliteStore::list_at(const std::string& repo,
                                                                             const std::string& rev) {
  using Answer = std::optional<std::vector<model::DatasetLine>>;
  auto rows = datasets_of(repo);
  if (!rows) return Error{rows.error()};
  const DatasetRow* r = find_revision(*rows, rev);
  if (!r) return Answer();
  Run run(m_list_at);
  run.integer(1, r->id);
  auto lines = read_lines(run);
  if (!lines) return Error{lines.error()};
  return Answer(std::move(*lines));
}

// Rows of (ERRDEX_RECORD_COLUMNS, dataset_version, ref) as dataset lines.
Expected<std::vector<model::DatasetLine>> SqliteStore::read_lines(Run& run) {
  std::vector<model::DatasetLine> out;
  int rc;
  while ((rc = run.step()) == SQLITE_ROW) {
    auto record = read_record(run);
    if (!record) return Error{"stored record is unreadable: " + record.error()};
    out.push_back(model::DatasetLine{std::move(*record), std::string(run.column_text(k_record_columns)),
                                     std::string(run.column_text(k_record_columns + 1))});
  }
  if (rc != SQLITE_DONE) return db_error(m_db, "list records");
  return out;
}

Expected<std::vector<model::ErrorRecord>> SqliteStore::match_fields(const std::optional<std::string>& repo) {
  Run run(m_match_fields);
  run.text_or_null(1, repo);
  return read_match_fields(run);
}

Expected<std::optional<std::vector<model::ErrorRecord>>> SqliteStore::match_fields_at(const std::string& repo,
                                                                                     const std::string& rev) {
  using Answer = std::optional<std::vector<model::ErrorRecord>>;
  auto rows = datasets_of(repo);
  if (!rows) return Error{rows.error()};
  const DatasetRow* r = find_revision(*rows, rev);
  if (!r) return Answer();
  Run run(m_match_fields_at);
  run.integer(1, r->id);
  auto records = read_match_fields(run);
  if (!records) return Error{records.error()};
  return Answer(std::move(*records));
}

Expected<std::vector<model::ErrorRecord>> SqliteStore::read_match_fields(Run& run) {
  std::vector<model::ErrorRecord> out;
  int rc;
  while ((rc = run.step()) == SQLITE_ROW) {
    model::ErrorRecord r;
    r.id = run.column_text(0);
    r.repo = run.column_text(1);
    r.file_path = run.column_text(2);
    r.line_number = static_cast<int>(run.column_int(3));
    r.error_class = run.column_text(4);
    r.error_message = run.column_text(5);
    r.message_pattern = run.column_text(6);
    r.source_code = run.column_text(7);
    r.source_code_start = static_cast<int>(run.column_int(8));
    r.documentation = run.column_text(9);
    if (auto variants = run.column_text(10); !variants.empty()) {
      // The same reading as record_from_json's, on the one field.
      auto parsed = model::record_variants_from_json(variants);
      if (!parsed) return Error{"stored record " + r.id + " is unreadable: " + parsed.error()};
      r.message_variants = std::move(*parsed);
    }
    out.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE) return db_error(m_db, "list records for matching");
  return out;
}

Expected<std::vector<SearchHit>> SqliteStore::search(std::string_view text, const std::optional<std::string>& repo,
                                                     int limit) {
  return search_words<SearchHit>(m_search, text, repo, limit, [](const Run& run) -> Expected<SearchHit> {
    auto record = read_record(run);
    if (!record) return Error{"stored record is unreadable: " + record.error()};
    return SearchHit{std::move(*record), run.column_double(k_record_columns)};
  });
}

Expected<std::vector<RankedId>> SqliteStore::search_ids(std::string_view text, const std::optional<std::string>& repo,
                                                        int limit) {
  return search_words<RankedId>(m_search_ids, text, repo, limit, [](const Run& run) -> Expected<RankedId> {
    return RankedId{std::string(run.column_text(0)), run.column_double(1)};
  });
}

Expected<std::vector<RepoSummary>> SqliteStore::repos() {
  std::vector<RepoSummary> out;
  Run run(m_repos);
  int rc;
  while ((rc = run.step()) == SQLITE_ROW) {
    out.push_back(RepoSummary{std::string(run.column_text(0)), std::string(run.column_text(1)),
                              std::string(run.column_text(2)), run.column_int(3),
                              import_roots_from_json(run.column_text(4)), std::string(run.column_text(5))});
  }
  if (rc != SQLITE_DONE) return db_error(m_db, "list repos");
  return out;
}

Expected<std::string> SqliteStore::datasets_state() {
  // A dataset replaced is deleted and inserted again: a new id.
  Run run(m_datasets_state);
  if (run.step() != SQLITE_ROW) return db_error(m_db, "read the datasets' state");
  return std::to_string(run.column_int(0)) + ":" + std::to_string(run.column_int(1));
}

}  // namespace errdex::store::sqlite
