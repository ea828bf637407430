#include "cli/scan_evidence.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <nlohmann/json.hpp>

#include "cli/parallel.h"
#include "source/import_roots.h"

namespace errdex::cli {
namespace {

// A doc file larger than this is a generated dump or data, not prose.
constexpr std::uint64_t k_max_doc_file = 1 << 20;
// All doc files together.
constexpr std::size_t k_max_doc_total = 64u << 20;

std::string joined(const std::string& prefix, const std::string& rel) {
  std::string p = prefix;
  while (!p.empty() && p.back() == '/') p.pop_back();
  while (!p.empty() && p.front() == '/') p.erase(p.begin());
  return p.empty() ? rel : p + "/" + rel;
}

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
    if (!source::is_test_path(joined(prefix, e.path))) docs.push_back(std::move(e));
    return true;
  });
  return docs;
}

std::vector<source::Entry> take_package_files(std::vector<source::Entry>& entries, const std::string& prefix) {
  std::vector<source::Entry> out;
  std::erase_if(entries, [&](source::Entry& e) {
    if (e.path != "package.json" && !e.path.ends_with("/package.json")) return false;
    if (!source::is_test_path(joined(prefix, e.path))) out.push_back(std::move(e));
    return true;
  });
  return out;
}

std::vector<analyze::JsPackage> read_packages(const source::SourceTree& tree, const std::vector<source::Entry>& files,
                                              const std::string& prefix) {
  std::vector<analyze::JsPackage> out;
  for (const auto& f : files) {
    std::string path = joined(prefix, f.path);
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
    out[i] = {joined(prefix, files[i].path), std::shared_ptr<const std::string>(known, &(*known)->text),
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

}  // namespace errdex::cli
