#include "store/history.h"

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "util/text.h"

namespace errdex::store {
namespace {

// Keys held by exactly one of `sites`, as views of theirs (hashed as the
// strings are, so the map iterates as one of strings would).
template <class Sites, class KeyOf>
std::unordered_map<std::string_view, std::size_t> unique_keys(const Sites& sites, KeyOf key_of) {
  std::unordered_map<std::string_view, std::size_t> at;
  std::unordered_set<std::string_view> repeated;
  for (std::size_t i = 0; i < sites.size(); ++i) {
    const std::string& k = key_of(sites[i], i);
    if (k.empty()) continue;
    if (!at.emplace(k, i).second) repeated.insert(k);
  }
  for (const auto& k : repeated) at.erase(k);
  return at;
}

// What a site is in a file of another name (`datetime.py` become
// `_pydatetime.py`, `zipfile.py` a package's `zipfile/__init__.py`): its
// site key without the file, its class and its message; "" for a site
// without text, which says too little to follow.
std::string moved_key(const SiteAt& s) {
  if (s.error_message.empty()) return {};
  const std::size_t file_end = s.site_key.find('\n');
  if (file_end == std::string::npos) return {};
  return s.site_key.substr(file_end + 1) + '\n' + s.error_class + '\n' + s.error_message;
}

// Pairs a removed site with an added one as moved when both say the same
// (moved_key) and no other removed or added site does: the file was
// renamed or split, and the site went with it.
void pair_moved_files(RevisionDiff& d) {
  std::vector<std::string> removed_keys, added_keys;
  for (const auto& s : d.removed) removed_keys.push_back(moved_key(s));
  for (const auto& s : d.added) added_keys.push_back(moved_key(s));
  auto key_at = [](const std::vector<std::string>& keys) {
    return [&keys](const SiteAt&, std::size_t i) -> const std::string& { return keys[i]; };
  };
  const auto added_at = unique_keys(d.added, key_at(added_keys));
  const auto removed_at = unique_keys(d.removed, key_at(removed_keys));
  std::vector<bool> taken(d.added.size(), false);
  std::vector<SiteAt> removed;
  for (std::size_t i = 0; i < d.removed.size(); ++i) {
    auto a = added_at.find(removed_keys[i]);
    if (a == added_at.end() || !removed_at.contains(removed_keys[i])) {
      removed.push_back(std::move(d.removed[i]));
      continue;
    }
    taken[a->second] = true;
    d.moved.emplace_back(std::move(d.removed[i]), d.added[a->second]);
  }
  d.removed = std::move(removed);
  std::vector<SiteAt> added;
  for (std::size_t i = 0; i < d.added.size(); ++i)
    if (!taken[i]) added.push_back(std::move(d.added[i]));
  d.added = std::move(added);
}

}  // namespace

std::string site_key(std::string_view file_path, std::string_view class_name, std::string_view function) {
  std::string key;
  key.reserve(file_path.size() + class_name.size() + function.size() + 2);
  key.append(file_path).push_back('\n');
  key.append(class_name).push_back('\n');
  key.append(function);
  return key;
}

std::size_t keep_site_ids(std::vector<model::ErrorRecord>& records, const std::vector<std::string>& keys,
                          const std::vector<SiteAt>& stored) {
  // Split into revisions: runs of one (ref, sha).
  std::vector<std::vector<SiteAt>> revisions;
  for (std::size_t b = 0; b < stored.size();) {
    std::size_t e = b;
    while (e < stored.size() && stored[e].ref == stored[b].ref && stored[e].sha == stored[b].sha) ++e;
    revisions.emplace_back(stored.begin() + b, stored.begin() + e);
    b = e;
  }
  std::vector<const std::vector<SiteAt>*> each;
  for (const auto& r : revisions) each.push_back(&r);
  return keep_site_ids(records, keys, each);
}

std::size_t keep_site_ids(std::vector<model::ErrorRecord>& records, const std::vector<std::string>& keys,
                          const std::vector<const std::vector<SiteAt>*>& stored) {
  if (keys.size() != records.size()) return 0;
  SiteIdIndex index;
  for (const std::vector<SiteAt>* one : stored) index.add(*one);
  return index.keep(records, keys);
}

namespace {

// A site as its function, class and message name it: the three joined as
// site_key joins its parts.
std::string content_key(std::string_view site_key_of, std::string_view error_class, std::string_view error_message) {
  return site_key(site_key_of, error_class, error_message);
}

}  // namespace

void SiteIdIndex::add(const std::vector<SiteAt>& revision) {
  // Per stored revision, the ids of each key; a later revision's wins.
  std::unordered_map<std::string_view, std::vector<std::string>> ids;
  std::unordered_map<std::string, std::vector<const std::string*>> by_content;
  for (const auto& s : revision)
    if (!s.site_key.empty()) {
      ids[s.site_key].push_back(s.id);
      by_content[content_key(s.site_key, s.error_class, s.error_message)].push_back(&s.id);
    }
  for (auto& [k, list] : by_content) {
    if (list.size() == 1) m_id_of_content.insert_or_assign(k, *list.front());
    else m_id_of_content.erase(k);
  }
  for (auto& [k, list] : ids) {
    if (list.size() == 1) m_id_of_unique_key.insert_or_assign(std::string(k), list.front());
    if (auto it = m_ids_of_key.find(k); it != m_ids_of_key.end()) it->second = std::move(list);
    else m_ids_of_key.emplace(std::string(k), std::move(list));
  }
  for (const auto& s : revision) m_stored_ids.insert_or_assign(s.id, s.error_class + '\n' + s.error_message);
}

void SiteIdIndex::realign(std::vector<model::ErrorRecord>& records, const std::vector<std::string>& keys) const {
  std::vector<std::string> contents(records.size());
  std::unordered_map<std::string_view, int> held;
  for (std::size_t i = 0; i < records.size(); ++i)
    if (!keys[i].empty()) ++held[contents[i] = content_key(keys[i], records[i].error_class, records[i].error_message)];
  // Stored id -> the one record whose content the stored revisions give it.
  std::unordered_map<std::string_view, std::size_t> claims;
  std::unordered_set<std::string_view> contested;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (contents[i].empty() || held[contents[i]] != 1) continue;
    auto it = m_id_of_content.find(contents[i]);
    if (it == m_id_of_content.end() || it->second == records[i].id) continue;
    if (!claims.emplace(it->second, i).second) contested.insert(it->second);
  }
  for (const auto& id : contested) claims.erase(id);
  if (claims.empty()) return;
  std::unordered_set<std::size_t> claimants;
  for (const auto& [id, i] : claims) claimants.insert(i);
  // A record whose id another takes, claiming none itself, gets an id of
  // its own, paired below as any new one (a reworded site keeps its
  // stored id there).
  std::vector<std::size_t> displaced;
  for (std::size_t i = 0; i < records.size(); ++i)
    if (!claimants.contains(i) && claims.contains(records[i].id)) displaced.push_back(i);
  std::vector<std::pair<std::size_t, std::string>> moves;
  for (const auto& [id, i] : claims) moves.emplace_back(i, std::string(id));
  for (auto& [i, id] : moves) records[i].id = std::move(id);
  for (std::size_t i : displaced)
    records[i].id = util::hex64(util::mix64(util::fnv1a64(records[i].id + '\n' + contents[i])));
}

std::size_t SiteIdIndex::keep(std::vector<model::ErrorRecord>& records, const std::vector<std::string>& keys) const {
  if (keys.size() != records.size() || m_ids_of_key.empty()) return 0;
  realign(records, keys);
  // Views of the records' ids: an id given below is the record's own string.
  std::unordered_set<std::string_view> taken;
  for (const auto& r : records) taken.insert(r.id);
  // A site whose id is stored is the same site, same message: its id
  // already holds. The others are paired by key with the stored sites of
  // that key no record holds any more, when one is left on each side (the
  // other sites of the function unchanged, one reworded).
  std::vector<std::size_t> unpaired;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (m_stored_ids.contains(records[i].id)) continue;
    // Unchanged since the last revision holding it, where it kept the id
    // of a rewording before: that id again (not a message change).
    auto same = m_id_of_content.find(content_key(keys[i], records[i].error_class, records[i].error_message));
    if (!keys[i].empty() && same != m_id_of_content.end() && !taken.contains(same->second)) {
      taken.erase(records[i].id);
      records[i].id = same->second;
      taken.insert(records[i].id);
      continue;
    }
    unpaired.push_back(i);
  }
  auto key_of = [&](std::size_t i, std::size_t) -> const std::string& { return keys[i]; };
  std::size_t kept = 0;
  for (const auto& [k, at] : unique_keys(unpaired, key_of)) {
    auto old = m_ids_of_key.find(k);
    if (old == m_ids_of_key.end()) continue;
    const std::string* left = nullptr;
    std::size_t n_left = 0;
    for (const auto& id : old->second)
      if (!taken.contains(id)) left = &id, ++n_left;
    if (n_left > 1) {
      // Two or more left in the last revision holding the key: the last
      // that held it once, if its id is free.
      auto once = m_id_of_unique_key.find(k);
      if (once == m_id_of_unique_key.end() || taken.contains(once->second)) continue;
      left = &once->second;
    } else if (n_left == 0) {
      continue;
    }
    auto& r = records[unpaired[at]];
    if (auto what = m_stored_ids.find(*left); what != m_stored_ids.end()) {
      const std::string_view cls_msg = what->second;
      const std::size_t nl = cls_msg.find('\n');
      if (cls_msg.substr(0, nl) != r.error_class && cls_msg.substr(nl + 1) != r.error_message) continue;
    }
    taken.erase(r.id);
    r.id = *left;
    taken.insert(r.id);
    ++kept;
  }
  return kept;
}

Expected<std::optional<SiteHistory>> site_history(Store& store, std::string_view id, DiffMemo* diffs) {
  auto seen = store.occurrences(id);
  if (!seen) return Error{seen.error()};
  if (seen->empty()) return std::optional<SiteHistory>();
  SiteHistory h;
  h.id = std::string(id);
  h.repo = seen->front().repo;
  auto revisions = store.revisions(h.repo);
  if (!revisions) return Error{revisions.error()};
  for (auto& rev : *revisions) {
    SiteHistory::At at{std::move(rev), std::nullopt};
    for (const auto& s : *seen)
      if (s.repo == h.repo && s.ref == at.revision.ref && s.sha == at.revision.sha) at.site = s;
    h.revisions.push_back(std::move(at));
  }
  int previous = -1;
  for (int i = 0; i < static_cast<int>(h.revisions.size()); ++i) {
    if (!h.revisions[i].site) {
      if (h.last >= 0 && h.removed_in < 0) h.removed_in = i;
      continue;
    }
    if (h.first < 0) h.first = i;
    h.last = i;
    h.removed_in = -1;  // back again: removed only after its last revision
    if (previous >= 0) {
      const SiteAt& a = *h.revisions[previous].site;
      const SiteAt& b = *h.revisions[i].site;
      if (a.error_message != b.error_message || a.error_class != b.error_class) h.changes.push_back({previous, i});
    }
    previous = i;
  }
  // Followed into a renamed file: the diff across each edge of its span.
  auto elsewhere = [&](int from, int to, bool forward, SiteHistory::Elsewhere& out) -> Status {
    if (from < 0 || to < 0) return ok();
    auto key = [&](int i) {
      const Revision& r = h.revisions[i].revision;
      return r.ref.empty() ? r.sha : r.ref;
    };
    std::shared_ptr<const RevisionDiff> d;
    if (diffs) {
      auto held = diffs->diff(store, h.repo, key(from), key(to));
      if (!held) return Error{held.error()};
      d = std::move(*held);
    } else {
      auto run = diff_revisions(store, h.repo, key(from), key(to));
      if (!run) return Error{run.error()};
      if (*run) d = std::make_shared<const RevisionDiff>(std::move(**run));
    }
    if (!d) return ok();
    for (const auto& [a, b] : d->moved)
      if ((forward ? a.id : b.id) == h.id && a.file_path != b.file_path) {
        out = {forward ? to : from, forward ? b : a};
        break;
      }
    return ok();
  };
  if (auto s = elsewhere(h.first - 1, h.first, false, h.moved_from); !s) return Error{s.error()};
  if (auto s = elsewhere(h.last, h.removed_in, true, h.moved_to); !s) return Error{s.error()};
  return std::optional<SiteHistory>(std::move(h));
}

Expected<std::optional<RevisionDiff>> diff_revisions(Store& store, const std::string& repo, const std::string& from,
                                                     const std::string& to, std::string* missing) {
  auto a = store.revision(repo, from);
  if (!a) return Error{a.error()};
  auto b = store.revision(repo, to);
  if (!b) return Error{b.error()};
  if (!*a || !*b) {
    if (missing) *missing = !*a ? from : to;
    return std::optional<RevisionDiff>();
  }
  RevisionDiff d;
  d.from = (*a)->first;
  d.to = (*b)->first;
  const auto& old_sites = (*a)->second;
  const auto& new_sites = (*b)->second;
  std::unordered_map<std::string, std::size_t> old_by_id, new_by_id;
  for (std::size_t i = 0; i < old_sites.size(); ++i) old_by_id.emplace(old_sites[i].id, i);
  for (std::size_t i = 0; i < new_sites.size(); ++i) new_by_id.emplace(new_sites[i].id, i);
  auto classify = [&](const SiteAt& x, const SiteAt& y) {
    if (x.error_class != y.error_class) d.class_changed.emplace_back(x, y);
    else if (x.error_message != y.error_message) d.reworded.emplace_back(x, y);
    else if (x.file_path != y.file_path || x.line != y.line) d.moved.emplace_back(x, y);
  };
  std::vector<std::size_t> gone, fresh;
  for (std::size_t i = 0; i < old_sites.size(); ++i) {
    auto it = new_by_id.find(old_sites[i].id);
    if (it == new_by_id.end()) gone.push_back(i);
    else classify(old_sites[i], new_sites[it->second]);
  }
  for (std::size_t i = 0; i < new_sites.size(); ++i)
    if (!old_by_id.contains(new_sites[i].id)) fresh.push_back(i);
  // A site that lost its id (its message changed, and the scan could not
  // carry the id over) is paired by its key, held once among the sites
  // left on each side, when it keeps its class or its message.
  auto key_at = [](const std::vector<SiteAt>& sites) {
    return [&sites](std::size_t i, std::size_t) -> const std::string& { return sites[i].site_key; };
  };
  auto old_keys = unique_keys(gone, key_at(old_sites));
  auto new_keys = unique_keys(fresh, key_at(new_sites));
  std::set<std::size_t> paired_new;
  for (std::size_t i : gone) {
    const SiteAt& x = old_sites[i];
    auto ok = old_keys.find(x.site_key);
    auto nk = new_keys.find(x.site_key);
    if (ok == old_keys.end() || nk == new_keys.end()) {
      d.removed.push_back(x);
      continue;
    }
    const std::size_t j = fresh[nk->second];
    const SiteAt& y = new_sites[j];
    if (x.error_class != y.error_class && x.error_message != y.error_message) {
      // Another statement in the same function.
      d.removed.push_back(x);
      continue;
    }
    paired_new.insert(j);
    if (x.error_class != y.error_class) d.class_changed.emplace_back(x, y);
    else d.reworded.emplace_back(x, y);
  }
  for (std::size_t i : fresh)
    if (!paired_new.contains(i)) d.added.push_back(new_sites[i]);
  pair_moved_files(d);
  return std::optional<RevisionDiff>(std::move(d));
}

Expected<std::shared_ptr<const RevisionDiff>> DiffMemo::diff(Store& store, const std::string& repo,
                                                             const std::string& from, const std::string& to,
                                                             std::string* missing) {
  std::string key = repo + '\n' + from + '\n' + to;
  {
    std::lock_guard lock(m_mu);
    if (auto it = m_held.find(key); it != m_held.end()) {
      it->second.age = ++m_clock;
      if (missing) *missing = it->second.missing;
      return it->second.diff;
    }
  }
  // Run outside the lock: two callers missing at once both run it, and
  // neither waits on the other's store reads.
  std::string gone;
  auto d = diff_revisions(store, repo, from, to, &gone);
  if (!d) return Error{d.error()};
  std::shared_ptr<const RevisionDiff> held;
  if (*d) held = std::make_shared<const RevisionDiff>(std::move(**d));
  if (missing) *missing = gone;
  std::lock_guard lock(m_mu);
  ++m_runs;
  if (m_held.size() >= k_held) {
    auto oldest = m_held.begin();
    for (auto it = m_held.begin(); it != m_held.end(); ++it)
      if (it->second.age < oldest->second.age) oldest = it;
    m_held.erase(oldest);
  }
  m_held[key] = Held{held, gone, ++m_clock};
  return held;
}

std::size_t DiffMemo::runs() const {
  std::lock_guard lock(m_mu);
  return m_runs;
}

namespace {

using nlohmann::json;

json site_json(const SiteAt& s) {
  return {{"id", s.id}, {"filePath", s.file_path}, {"lineNumber", s.line}, {"errorClass", s.error_class},
          {"errorMessage", s.error_message}};
}

json revision_json(const Revision& r) {
  return {{"ref", r.ref}, {"sha", r.sha}, {"name", revision_name(r)}, {"datasetVersion", r.dataset_version}};
}

json pairs_json(const std::vector<std::pair<SiteAt, SiteAt>>& pairs) {
  json out = json::array();
  for (const auto& [a, b] : pairs) out.push_back({{"old", site_json(a)}, {"new", site_json(b)}});
  return out;
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

std::string revision_name(const Revision& r) { return r.ref.empty() ? r.sha.substr(0, 10) : r.ref; }

std::string to_json(const SiteHistory& h) {
  json revs = json::array();
  for (const auto& at : h.revisions) {
    json r = revision_json(at.revision);
    r["present"] = at.site.has_value();
    if (at.site) r.update(site_json(*at.site));
    revs.push_back(std::move(r));
  }
  auto name_at = [&](int i) { return i < 0 ? json(nullptr) : json(revision_name(h.revisions[i].revision)); };
  json changes = json::array();
  for (const auto& c : h.changes)
    changes.push_back({{"from", name_at(c.from)},
                       {"to", name_at(c.to)},
                       {"old", site_json(*h.revisions[c.from].site)},
                       {"new", site_json(*h.revisions[c.to].site)}});
  auto elsewhere = [&](const SiteHistory::Elsewhere& e) {
    if (e.revision < 0) return json(nullptr);
    json j = site_json(e.site);
    j["revision"] = name_at(e.revision);
    return j;
  };
  return dump({{"id", h.id},
               {"repo", h.repo},
               {"revisions", std::move(revs)},
               {"firstSeen", name_at(h.first)},
               {"lastSeen", name_at(h.last)},
               {"removedIn", name_at(h.removed_in)},
               {"changes", std::move(changes)},
               {"movedFrom", elsewhere(h.moved_from)},
               {"movedTo", elsewhere(h.moved_to)}});
}

std::string to_json(const std::string& repo, const RevisionDiff& d) {
  json added = json::array(), removed = json::array();
  for (const auto& s : d.added) added.push_back(site_json(s));
  for (const auto& s : d.removed) removed.push_back(site_json(s));
  return dump({{"repo", repo},
               {"from", revision_json(d.from)},
               {"to", revision_json(d.to)},
               {"added", std::move(added)},
               {"removed", std::move(removed)},
               {"reworded", pairs_json(d.reworded)},
               {"classChanged", pairs_json(d.class_changed)},
               {"moved", pairs_json(d.moved)}});
}

}  // namespace errdex::store
