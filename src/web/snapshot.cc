#include "web/snapshot.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <set>

#include "util/text.h"

namespace errdex::web {
namespace {

int indent_of(std::string_view line) {
  int n = 0;
  for (char c : line) {
    if (c == ' ') ++n;
    else if (c == '\t') n += 8;
    else break;
  }
  return n;
}

bool blank(std::string_view line) { return util::trim(line).empty(); }

const std::set<std::string, std::less<>>& ignored_names() {
  static const std::set<std::string, std::less<>> k = {
      "if", "elif", "while", "assert", "not", "and", "or", "is", "in", "None", "True", "False", "len",
      "isinstance", "hasattr", "getattr", "type", "self", "cls", "lambda", "for", "int", "str", "float",
      "list", "dict", "tuple", "set", "bool", "bytes", "callable", "any", "all", "issubclass", "object"};
  return k;
}

// Identifiers of a condition, attribute chains kept whole (`self.layers`),
// string literals skipped.
std::vector<std::string> condition_names(std::string_view cond) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < cond.size()) {
    char c = cond[i];
    if (c == '"' || c == '\'') {
      auto e = cond.find(c, i + 1);
      i = e == std::string_view::npos ? cond.size() : e + 1;
      continue;
    }
    if (c == '#') break;
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t e = i;
      while (e < cond.size() && (std::isalnum(static_cast<unsigned char>(cond[e])) || cond[e] == '_' || cond[e] == '.'))
        ++e;
      std::string name(cond.substr(i, e - i));
      while (!name.empty() && name.back() == '.') name.pop_back();
      bool attr_of_call = i > 0 && cond[i - 1] == '.';
      if (!attr_of_call && !ignored_names().count(name) &&
          std::find(out.begin(), out.end(), name) == out.end())
        out.push_back(name);
      i = e;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < cond.size() && std::isalnum(static_cast<unsigned char>(cond[i]))) ++i;
      continue;
    }
    ++i;
  }
  return out;
}

bool starts_with_word(std::string_view s, std::string_view w) {
  if (s.substr(0, w.size()) != w) return false;
  return s.size() == w.size() || (!std::isalnum(static_cast<unsigned char>(s[w.size()])) && s[w.size()] != '_');
}

}  // namespace

SiteContext site_context(const model::ErrorRecord& r) {
  SiteContext ctx;
  auto lines = util::split_lines(r.source_code);
  long at = static_cast<long>(r.line_number) - r.source_code_start;
  if (at < 0 || at >= static_cast<long>(lines.size())) return ctx;
  std::string_view throw_line = util::trim(lines[at]);
  int indent = indent_of(lines[at]);
  if (starts_with_word(throw_line, "assert")) ctx.guard_names = condition_names(throw_line.substr(6));
  bool guard_done = !ctx.guard_names.empty();
  for (long i = at - 1; i >= 0; --i) {
    std::string_view line = lines[i];
    if (blank(line)) continue;
    int ind = indent_of(line);
    if (ind >= indent) continue;
    std::string_view t = util::trim(line);
    indent = ind;
    if (!guard_done && (starts_with_word(t, "if") || starts_with_word(t, "elif") || starts_with_word(t, "while"))) {
      ctx.guard_names = condition_names(t);
      guard_done = true;
    } else if (!guard_done && (starts_with_word(t, "else") || starts_with_word(t, "try") ||
                               starts_with_word(t, "except") || starts_with_word(t, "for") ||
                               starts_with_word(t, "with"))) {
      guard_done = true;  // the nearest block is not a condition
    }
    if (starts_with_word(t, "async")) t = util::trim(t.substr(5));
    if (starts_with_word(t, "def")) {
      auto rest = util::trim(t.substr(3));
      std::size_t e = 0;
      while (e < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[e])) || rest[e] == '_')) ++e;
      ctx.function = std::string(rest.substr(0, e));
      break;
    }
    if (starts_with_word(t, "class")) break;
  }
  return ctx;
}

const model::DatasetLine* Snapshot::find(const std::string& id) const {
  auto it = by_id.find(id);
  return it == by_id.end() ? nullptr : lines[it->second].get();
}

const model::ErrorRecord* Snapshot::matched(std::size_t index) const {
  if (index < lines.size()) return &lines[index]->record;
  index -= lines.size();
  return index < other_records.size() ? &other_records[index] : nullptr;
}

std::pair<std::string, std::string> Snapshot::revision_of(const model::ErrorRecord& r) const {
  if (!matched_current(r)) return other_revision_of[static_cast<std::size_t>(&r - other_records.data())];
  for (const auto& repo : repos)
    if (repo.repo == r.repo) return {repo.ref, repo.sha};
  return {"", r.analyzed_sha};
}

Expected<std::string> store_signature(store::Store& store) {
  auto repos = store.repos();
  if (!repos) return Error{repos.error()};
  std::string sig;
  for (const auto& r : *repos) sig += r.repo + '\n' + r.sha + '\n' + r.dataset_version + '\n' + std::to_string(r.records) + '\n';
  // Revisions that are not current count too: the matcher holds them.
  auto state = store.datasets_state();
  if (!state) return Error{state.error()};
  return sig + *state;
}

namespace {

// What a repository's records depend on: its current dataset and every
// revision stored (the matcher holds them all).
Expected<std::string> repo_state(store::Store& store, const store::RepoSummary& r) {
  auto revs = store.revisions(r.repo);
  if (!revs) return Error{revs.error()};
  std::string state = r.sha + '\n' + r.ref + '\n' + r.dataset_version + '\n' + std::to_string(r.records) + '\n';
  for (const auto& root : r.import_roots) state += root + '\t';
  state += '\n';
  for (const auto& v : *revs)
    state += v.ref + '\t' + v.sha + '\t' + v.dataset_version + '\t' + std::to_string(v.records) + (v.current ? "\t*\n" : "\n");
  return state;
}

// One repository's part of a snapshot: its current lines and its other
// revisions' records, each with its revision and preference.
struct RepoPart {
  std::vector<std::shared_ptr<const model::DatasetLine>> lines;
  std::vector<model::ErrorRecord> others;
  std::vector<std::pair<std::string, std::string>> other_revision_of;
  std::vector<std::uint32_t> other_preference;
};

Expected<RepoPart> read_repo(store::Store& store, const std::string& repo) {
  RepoPart part;
  auto lines = store.list(repo);
  if (!lines) return Error{lines.error()};
  part.lines.reserve(lines->size());
  for (auto& l : *lines) part.lines.push_back(std::make_shared<const model::DatasetLine>(std::move(l)));
  auto others = store::match_fields_all(store, repo, false);
  if (!others) return Error{others.error()};
  for (std::uint32_t k : others->revision_of)
    part.other_revision_of.emplace_back(others->revisions[k].ref, others->revisions[k].sha);
  part.others = std::move(others->records);
  part.other_preference = std::move(others->preference);
  return part;
}

// What the matcher reads of a record (Store::match_fields' fields, and the
// revision its twin builds are told by): the rest of a record is large
// (prose, evidence) and the snapshot's lines hold it already.
model::ErrorRecord match_view(const model::ErrorRecord& whole) {
  model::ErrorRecord r;
  r.id = whole.id;
  r.repo = whole.repo;
  r.file_path = whole.file_path;
  r.line_number = whole.line_number;
  r.error_class = whole.error_class;
  r.error_message = whole.error_message;
  r.message_pattern = whole.message_pattern;
  r.message_variants = whole.message_variants;
  r.source_code = whole.source_code;
  r.source_code_start = whole.source_code_start;
  r.documentation = whole.documentation;
  r.analyzed_sha = whole.analyzed_sha;
  return r;
}

// The same part, from a snapshot that holds it (its lines shared, its
// other revisions' match fields copied).
RepoPart kept_repo(const Snapshot& s, const std::string& repo) {
  RepoPart part;
  if (auto it = s.by_repo.find(repo); it != s.by_repo.end())
    for (std::size_t i : it->second) part.lines.push_back(s.lines[i]);
  for (std::size_t i = 0; i < s.other_records.size(); ++i)
    if (s.other_records[i].repo == repo) {
      part.others.push_back(s.other_records[i]);
      part.other_revision_of.push_back(s.other_revision_of[i]);
      part.other_preference.push_back(s.other_preference[i]);
    }
  return part;
}

}  // namespace

Expected<std::shared_ptr<const Snapshot>> load_snapshot(store::Store& store, const Snapshot* previous) {
  auto snap = std::make_shared<Snapshot>();
  // Signature and states first: a dataset landing during the load makes
  // the next refresh load again rather than be missed.
  auto sig = store_signature(store);
  if (!sig) return Error{sig.error()};
  snap->signature = std::move(*sig);
  auto repos = store.repos();
  if (!repos) return Error{repos.error()};
  snap->repos = std::move(*repos);
  for (const auto& r : snap->repos) {
    auto state = repo_state(store, r);
    if (!state) return Error{state.error()};
    snap->repo_states.emplace(r.repo, std::move(*state));
  }
  // Repositories in the store's order (repos() and list() both go by
  // name), so the lines and the matcher's indexes are as one read gives.
  std::vector<std::string> refs_of_others;
  for (const auto& r : snap->repos) {
    RepoPart part;
    auto was = previous ? previous->repo_states.find(r.repo) : std::map<std::string, std::string>::const_iterator();
    if (previous && was != previous->repo_states.end() && was->second == snap->repo_states[r.repo]) {
      part = kept_repo(*previous, r.repo);
    } else {
      auto read = read_repo(store, r.repo);
      if (!read) return Error{read.error()};
      part = std::move(*read);
    }
    std::move(part.lines.begin(), part.lines.end(), std::back_inserter(snap->lines));
    std::move(part.others.begin(), part.others.end(), std::back_inserter(snap->other_records));
    snap->other_revision_of.insert(snap->other_revision_of.end(), part.other_revision_of.begin(),
                                   part.other_revision_of.end());
    snap->other_preference.insert(snap->other_preference.end(), part.other_preference.begin(),
                                  part.other_preference.end());
  }
  snap->contexts.reserve(snap->lines.size());
  std::vector<model::ErrorRecord> records;
  records.reserve(snap->lines.size() + snap->other_records.size());
  for (std::size_t i = 0; i < snap->lines.size(); ++i) {
    const auto& r = snap->lines[i]->record;
    snap->contexts.push_back(site_context(r));
    snap->by_id.emplace(r.id, i);
    snap->by_file[r.repo + '\n' + r.file_path].push_back(i);
    snap->by_template[r.repo + '\n' + r.error_class + '\n' + r.error_message].push_back(i);
    snap->by_repo[r.repo].push_back(i);
    records.push_back(match_view(r));
  }
  // The repositories' other revisions: matched too, a traceback from an
  // older release finds its own lines; pages show the current records.
  std::vector<std::uint32_t> preference(records.size(), 0);
  std::vector<std::string> refs;
  if (!snap->other_records.empty()) {
    preference.insert(preference.end(), snap->other_preference.begin(), snap->other_preference.end());
    for (const auto& line : snap->lines) refs.push_back(line->ref);
    for (const auto& rev : snap->other_revision_of) refs.push_back(rev.first);
    records.insert(records.end(), snap->other_records.begin(), snap->other_records.end());
  }
  snap->matcher = MatchEngine::build(records, store::import_roots(snap->repos), preference, refs);
  return std::shared_ptr<const Snapshot>(std::move(snap));
}

}  // namespace errdex::web
