#include "cli/scan_evidence.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <nlohmann/json.hpp>

#include "analyze/call_graph.h"
#include "analyze/docs.h"
#include "analyze/evidence.h"
#include "cli/parallel.h"
#include "cli/phase_clock.h"
#include "source/import_roots.h"

namespace errdex::cli {
namespace {

// A doc file larger than this is a generated dump or data, not prose.
constexpr std::uint64_t k_max_doc_file = 1 << 20;
// All doc files together.
constexpr std::size_t k_max_doc_total = 64u << 20;

bool is_doc_file(const std::string& path) {
  return std::any_of(doc_extensions().begin(), doc_extensions().end(),
                     [&](const std::string& ext) { return path.ends_with(ext); });
}

}  // namespace

const std::vector<std::string>& doc_extensions() {
  static const std::vector<std::string> k = {".md", ".rst", ".txt"};
  return k;
}

std::vector<source::Entry> take_doc_files(std::vector<source::Entry>& entries, const std::string& prefix) {
  std::vector<source::Entry> docs;
  std::erase_if(entries, [&](source::Entry& e) {
    if (!is_doc_file(e.path)) return false;
    if (!source::is_test_path(source::path_in_repo(prefix, e.path))) docs.push_back(std::move(e));
    return true;
  });
  return docs;
}

std::vector<source::Entry> take_package_files(std::vector<source::Entry>& entries, const std::string& prefix) {
  std::vector<source::Entry> out;
  std::erase_if(entries, [&](source::Entry& e) {
    if (e.path != "package.json" && !e.path.ends_with("/package.json")) return false;
    if (!source::is_test_path(source::path_in_repo(prefix, e.path))) out.push_back(std::move(e));
    return true;
  });
  return out;
}

std::vector<analyze::JsPackage> read_packages(const source::SourceTree& tree, const std::vector<source::Entry>& files,
                                              const std::string& prefix) {
  std::vector<analyze::JsPackage> out;
  for (const auto& f : files) {
    std::string path = source::path_in_repo(prefix, f.path);
    path.resize(path.size() - std::string_view("package.json").size());
    if (!path.empty()) path.pop_back();
    auto text = tree.read(f);
    analyze::JsPackage package = text ? analyze::read_package(*text) : analyze::JsPackage{};
    package.dir = std::move(path);
    out.push_back(std::move(package));
  }
  return out;
}

std::vector<DocFile> read_doc_files(const source::SourceTree& tree, const std::vector<source::Entry>& files,
                                    const std::string& prefix, int jobs, ScanMemo* memo) {
  std::vector<DocFile> out(files.size());
  std::atomic<std::size_t> total{0};
  source::Options bounds;
  bounds.max_file_size = k_max_doc_file;
  parallel_for(files.size(), jobs, [&](std::size_t i) {
    if (total.load() >= k_max_doc_total) return;
    // A blob id names its bytes: what it gave before it gives again
    // (nothing, for a file left out).
    const std::string& blob = files[i].blob;
    std::shared_ptr<const std::optional<ScanMemo::DocText>> known;
    if (memo && !blob.empty()) {
      std::lock_guard lock(memo->mutex);
      known = memo->doc_texts.find(blob);
    }
    if (!known) {
      auto text = tree.read(files[i]);
      std::optional<ScanMemo::DocText> doc;
      if (text && !source::content_problem(*text, bounds)) {
        auto index = analyze::index_doc_text(*text, false);
        doc = ScanMemo::DocText{std::move(*text), std::move(index)};
      }
      known = std::make_shared<const std::optional<ScanMemo::DocText>>(std::move(doc));
      if (memo && !blob.empty()) {
        std::lock_guard lock(memo->mutex);
        memo->doc_texts.put(blob, known);
      }
    }
    if (!*known) return;
    total += (*known)->text.size();
    // The text and its index, owned by the memo's entry as well.
    out[i] = {source::path_in_repo(prefix, files[i].path), std::shared_ptr<const std::string>(known, &(*known)->text),
              std::shared_ptr<const analyze::DocTextIndex>(known, &(*known)->index)};
  });
  std::erase_if(out, [](const DocFile& d) { return d.path.empty(); });
  return out;
}

std::size_t add_introduced(const source::SourceTree& tree, const std::vector<source::Entry>& entries,
                           const std::vector<std::string>& paths, std::vector<model::ErrorRecord>& records,
                           FactsCache* cache, int jobs) {
  // The records of each file, by its index in `entries`.
  std::map<std::string_view, std::size_t> file_of;
  for (std::size_t i = 0; i < paths.size(); ++i) file_of.emplace(paths[i], i);
  std::map<std::size_t, std::vector<std::size_t>> by_file;
  for (std::size_t r = 0; r < records.size(); ++r)
    if (auto it = file_of.find(records[r].file_path); it != file_of.end()) by_file[it->second].push_back(r);
  std::vector<std::pair<std::size_t, std::vector<std::size_t>>> work(by_file.begin(), by_file.end());
  // Each file's origins: from the cache, or blamed here and then cached.
  std::vector<std::vector<source::LineOrigin>> origins(work.size());
  std::vector<std::pair<std::string, std::string>> fresh(work.size());
  std::atomic<std::size_t> blamed{0};
  parallel_for(work.size(), jobs, [&](std::size_t w) {
    const source::Entry& e = entries[work[w].first];
    std::vector<int> lines;
    for (std::size_t r : work[w].second) lines.push_back(records[r].line_number);
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    std::string key;
    if (cache) {
      std::string id = tree.content_id(e);
      if (!id.empty()) {
        key = "blame:" + id + ':';
        for (int l : lines) key += std::to_string(l) + ',';
        if (auto text = cache->get(key)) {
          auto j = nlohmann::json::parse(*text, nullptr, false);
          if (j.is_array()) {
            try {
              for (const auto& o : j)
                origins[w].push_back({o.at(0).get<int>(), o.at(1).get<std::string>(), o.at(2).get<std::string>(),
                                      o.at(3).get<std::string>()});
              return;
            } catch (const nlohmann::json::exception&) {
              origins[w].clear();
            }
          }
        }
      }
    }
    origins[w] = tree.blame(e, lines);
    ++blamed;
    if (!key.empty()) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& o : origins[w]) j.push_back({o.line, o.sha, o.summary, o.date});
      fresh[w] = {std::move(key), j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
    }
  });
  for (std::size_t w = 0; w < work.size(); ++w)
    for (std::size_t r : work[w].second)
      for (const auto& o : origins[w])
        if (o.line == records[r].line_number) {
          records[r].evidence.introduced = model::Introduced{o.sha, o.summary, o.date};
          break;
        }
  if (cache) {
    std::erase_if(fresh, [](const auto& kv) { return kv.first.empty(); });
    cache->put_all(fresh);
  }
  return blamed.load();
}

EvidenceCounts add_evidence(const EvidenceInput& in, std::vector<model::ThrowSite>& sites,
                            std::vector<model::ErrorRecord>& records) {
  EvidenceCounts counts;
  const auto& entries = in.entries;
  const auto& paths = in.paths;
  const auto& is_test = in.is_test;
  const auto& held = in.held;
  const auto& facts_keys = in.facts_keys;
  ScanMemo* memo = in.memo;
  const int jobs = in.jobs;
  auto whole = [&](std::size_t i) -> const model::FileFacts& { return *in.facts[i]; };
  std::vector<analyze::FileFactsAt> at;
  at.reserve(entries.size());
  // Pass 5 reads no sites of these (they are in `sites` by now).
  for (std::size_t i = 0; i < entries.size(); ++i) at.push_back({&paths[i], &whole(i)});
  phase("5a call graph");
  // Each code file's part of the graph: with the memo, once per content
  // and module; only the edges are resolved again each revision.
  std::vector<std::shared_ptr<const analyze::CallGraphModule>> graph_modules(entries.size());
  parallel_for(entries.size(), jobs, [&](std::size_t i) {
    if (is_test[i] || !paths[i].ends_with(".py")) return;
    if (!memo || !held[i] || facts_keys[i].empty()) {
      // The facts stay this pass's: not owned.
      graph_modules[i] = analyze::call_graph_module(
          paths[i], std::shared_ptr<const model::FileFacts>(std::shared_ptr<void>(), &whole(i)), in.import_roots);
      return;
    }
    std::string key = facts_keys[i] + '\n' + paths[i] + '\n' + analyze::module_name(paths[i], in.import_roots);
    {
      std::lock_guard lock(memo->mutex);
      graph_modules[i] = memo->graph_modules.find(key);
    }
    if (graph_modules[i]) return;
    graph_modules[i] = analyze::call_graph_module(paths[i], held[i], in.import_roots);
    if (graph_modules[i]) {
      std::lock_guard lock(memo->mutex);
      memo->graph_modules.put(std::move(key), graph_modules[i]);
    }
  });
  if (memo) memo->graph_modules.next_revision();
  std::erase(graph_modules, nullptr);
  const analyze::CallGraph graph(std::move(graph_modules));
  // JavaScript and TypeScript have a graph of their own: modules are
  // files, imports specifiers.
  std::vector<analyze::FileFactsAt> js_files;
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (!is_test[i] && analyze::is_javascript_path(paths[i])) js_files.push_back(at[i]);
  const analyze::JsCallGraph js_graph(js_files, read_packages(in.tree, in.package_entries, in.prefix));
  phase("5b entry points");
  analyze::link_entry_points(graph, sites, records);
  analyze::link_javascript_entry_points(js_graph, sites, records);
  phase("5c tests");
  analyze::ObservedLinks observed;
  if (in.observed) {
    const analyze::ObservedPaths observed_paths(in.root, in.prefix, paths);
    observed = analyze::observed_tests(*in.observed, observed_paths, records, &counts.observed);
  }
  analyze::link_tests(at, sites, records, in.classes, graph, 3, in.observed ? &observed : nullptr);
  analyze::link_javascript_tests(at, sites, records, in.classes, &js_graph);
  phase("5d docs");
  // The docs that quote each record's message or name its class with its
  // function (evidence.docs): doc files, and docstrings of code files.
  auto doc_files = read_doc_files(in.tree, in.doc_entries, in.prefix, jobs, memo);
  if (memo) memo->doc_texts.next_revision();
  counts.doc_files = doc_files.size();
  // Each code file's docstrings indexed (analyze::index_doc_text): with
  // the memo, once per content.
  std::vector<std::shared_ptr<const std::vector<analyze::DocTextIndex>>> docstring_indexes(entries.size());
  parallel_for(entries.size(), jobs, [&](std::size_t i) {
    if (is_test[i] || whole(i).docstrings.empty()) return;
    const bool keep = memo && !facts_keys[i].empty();
    if (keep) {
      std::lock_guard lock(memo->mutex);
      docstring_indexes[i] = memo->docstring_indexes.find(facts_keys[i]);
    }
    if (docstring_indexes[i]) return;
    std::vector<analyze::DocTextIndex> indexes;
    for (const auto& d : whole(i).docstrings) indexes.push_back(analyze::index_doc_text(d.text, true));
    docstring_indexes[i] = std::make_shared<const std::vector<analyze::DocTextIndex>>(std::move(indexes));
    if (keep) {
      std::lock_guard lock(memo->mutex);
      memo->docstring_indexes.put(facts_keys[i], docstring_indexes[i]);
    }
  });
  if (memo) memo->docstring_indexes.next_revision();
  std::vector<analyze::DocSource> docs;
  for (const auto& d : doc_files) docs.push_back({&d.path, 1, {}, *d.text, false, d.index.get()});
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (docstring_indexes[i])
      for (std::size_t k = 0; k < whole(i).docstrings.size(); ++k) {
        const auto& d = whole(i).docstrings[k];
        docs.push_back({&paths[i], d.line, d.name, d.text, true, &(*docstring_indexes[i])[k]});
      }
  analyze::link_docs(docs, sites, records);
  // The commit that introduced each raise line (evidence.introduced):
  // only a git revision has history.
  phase("5e blame, freeing pass 5");
  if (in.blame) counts.blamed = add_introduced(in.tree, entries, paths, records, in.facts_cache, jobs);
  return counts;
}

}  // namespace errdex::cli
