#include "scan/python/earlier_trees.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace errdex::scan {

struct EarlierTrees::Impl {
  struct Kept {
    std::string source;  // the text `tree` was parsed from
    TSTree* tree = nullptr;
  };
  explicit Impl(std::size_t b) : budget(b) {}
  mutable std::mutex mutex;
  // "<path>\0<pass>" -> the last tree.
  std::unordered_map<std::string, Kept> kept;
  std::size_t bytes = 0;  // of the kept sources
  const std::size_t budget;
  std::atomic<std::size_t> reused{0}, fresh{0};
  std::atomic<bool> reuse_scans{true};
  // "<path>\0<pass>" -> what the frontend kept of the last scan.
  std::unordered_map<std::string, std::shared_ptr<const EarlierScan>> scans;

  ~Impl() {
    for (auto& [key, k] : kept) ts_tree_delete(k.tree);
  }
  Kept take(const std::string& key) {
    std::lock_guard lock(mutex);
    auto it = kept.find(key);
    if (it == kept.end()) return {};
    Kept k = std::move(it->second);
    bytes -= k.source.size();
    kept.erase(it);
    return k;
  }
  // Keeps `tree`, parsed from `source`, under `key` (within the budget).
  void put(std::string key, std::string_view source, TSTree* tree) {
    std::lock_guard lock(mutex);
    auto it = kept.find(key);
    if (it != kept.end()) {
      bytes -= it->second.source.size();
      ts_tree_delete(it->second.tree);
      kept.erase(it);
    }
    if (bytes + source.size() > budget) return;
    bytes += source.size();
    kept.emplace(std::move(key), Kept{std::string(source), ts_tree_copy(tree)});
  }
};

EarlierTrees::EarlierTrees(std::size_t budget) : m(std::make_unique<Impl>(budget)) {}
EarlierTrees::~EarlierTrees() = default;

void EarlierTrees::keep_only(const std::vector<std::string>& paths) {
  const std::unordered_set<std::string_view> keep(paths.begin(), paths.end());
  std::lock_guard lock(m->mutex);
  std::erase_if(m->kept, [&](auto& kv) {
    std::string_view path(kv.first.data(), kv.first.find('\0'));
    if (keep.count(path)) return false;
    m->bytes -= kv.second.source.size();
    ts_tree_delete(kv.second.tree);
    return true;
  });
  std::erase_if(m->scans, [&](auto& kv) { return !keep.count(std::string_view(kv.first.data(), kv.first.find('\0'))); });
}

void EarlierTrees::reuse_scans(bool on) { m->reuse_scans = on; }

std::size_t EarlierTrees::size() const {
  std::lock_guard lock(m->mutex);
  return m->kept.size();
}
std::size_t EarlierTrees::reused() const { return m->reused.load(); }
std::size_t EarlierTrees::fresh() const { return m->fresh.load(); }

namespace {

thread_local ParsingFile* t_parsing = nullptr;

// Byte offset where each line starts, and the text's end last.
std::vector<std::uint32_t> line_starts(std::string_view s) {
  std::vector<std::uint32_t> starts{0};
  for (std::size_t i = s.find('\n'); i != std::string_view::npos; i = s.find('\n', i + 1))
    if (i + 1 < s.size()) starts.push_back(static_cast<std::uint32_t>(i + 1));
  if (s.empty()) starts.clear();
  starts.push_back(static_cast<std::uint32_t>(s.size()));
  return starts;
}

std::string_view line(std::string_view s, const std::vector<std::uint32_t>& starts, std::size_t i) {
  return s.substr(starts[i], starts[i + 1] - starts[i]);
}

// Where line `i` starts, as a point (the text's end when i is past the
// last line).
TSPoint point_of_line(std::string_view s, const std::vector<std::uint32_t>& starts, std::size_t i) {
  const std::size_t lines = starts.size() - 1;
  if (i < lines || s.empty() || s.back() == '\n') return {static_cast<std::uint32_t>(i), 0};
  return {static_cast<std::uint32_t>(lines - 1), static_cast<std::uint32_t>(s.size() - starts[lines - 1])};
}

// Myers' greedy shortest edit script over lines [0, n) of a and [0, m) of
// b (equal(x, y): line x of a equals line y of b), as the pairs of equal
// lines it keeps, ascending. Empty optional past `max_d` changes.
template <class Equal>
bool myers(std::size_t n, std::size_t m, std::size_t max_d, Equal&& equal,
           std::vector<std::pair<std::size_t, std::size_t>>& kept) {
  const std::ptrdiff_t max = static_cast<std::ptrdiff_t>(std::min(n + m, max_d));
  const std::ptrdiff_t off = max + 1;
  std::vector<std::ptrdiff_t> v(static_cast<std::size_t>(2 * max + 3), 0);
  std::vector<std::vector<std::ptrdiff_t>> trace;
  const auto N = static_cast<std::ptrdiff_t>(n), M = static_cast<std::ptrdiff_t>(m);
  bool done = false;
  for (std::ptrdiff_t d = 0; d <= max && !done; ++d) {
    trace.push_back(v);
    for (std::ptrdiff_t k = -d; k <= d; k += 2) {
      std::ptrdiff_t x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
      std::ptrdiff_t y = x - k;
      while (x < N && y < M && equal(static_cast<std::size_t>(x), static_cast<std::size_t>(y))) ++x, ++y;
      v[off + k] = x;
      if (x >= N && y >= M) {
        done = true;
        break;
      }
    }
  }
  if (!done) return false;
  std::ptrdiff_t x = N, y = M;
  for (std::ptrdiff_t d = static_cast<std::ptrdiff_t>(trace.size()) - 1; d >= 0; --d) {
    const auto& w = trace[static_cast<std::size_t>(d)];
    const std::ptrdiff_t k = x - y;
    const std::ptrdiff_t prev_k = (k == -d || (k != d && w[off + k - 1] < w[off + k + 1])) ? k + 1 : k - 1;
    const std::ptrdiff_t prev_x = d == 0 ? 0 : w[off + prev_k];
    const std::ptrdiff_t prev_y = d == 0 ? 0 : prev_x - prev_k;
    while (x > prev_x && y > prev_y) {
      --x, --y;
      kept.emplace_back(static_cast<std::size_t>(x), static_cast<std::size_t>(y));
    }
    x = prev_x, y = prev_y;
  }
  std::reverse(kept.begin(), kept.end());
  return true;
}

std::uint64_t line_hash(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// The edits of `edits` applied to `tree`, last first, so that each one's
// start is where it was in `before`.
void edit_tree(TSTree* tree, std::string_view before, std::string_view after, const std::vector<LineEdit>& edits) {
  const auto a = line_starts(before), b = line_starts(after);
  for (auto e = edits.rbegin(); e != edits.rend(); ++e) {
    TSInputEdit in{};
    in.start_byte = a[e->old_begin];
    in.old_end_byte = a[e->old_end];
    in.new_end_byte = in.start_byte + (b[e->new_end] - b[e->new_begin]);
    in.start_point = point_of_line(before, a, e->old_begin);
    in.old_end_point = point_of_line(before, a, e->old_end);
    // The new lines end where they end in `after`, moved up or down by the
    // lines the edits before this one added or removed.
    TSPoint end = point_of_line(after, b, e->new_end);
    in.new_end_point = {static_cast<std::uint32_t>(end.row - e->new_begin + e->old_begin), end.column};
    ts_tree_edit(tree, &in);
  }
}

}  // namespace

std::vector<LineEdit> line_edits(std::string_view before, std::string_view after, std::size_t max_changes) {
  const auto a = line_starts(before), b = line_starts(after);
  const std::size_t n = a.size() - 1, m = b.size() - 1;
  std::size_t head = 0;
  while (head < n && head < m && line(before, a, head) == line(after, b, head)) ++head;
  if (head == n && head == m) return {};
  std::size_t tail = 0;
  while (tail < n - head && tail < m - head && line(before, a, n - 1 - tail) == line(after, b, m - 1 - tail)) ++tail;
  const std::size_t n_mid = n - head - tail, m_mid = m - head - tail;
  std::vector<std::uint64_t> ha(n_mid), hb(m_mid);
  for (std::size_t i = 0; i < n_mid; ++i) ha[i] = line_hash(line(before, a, head + i));
  for (std::size_t j = 0; j < m_mid; ++j) hb[j] = line_hash(line(after, b, head + j));
  auto equal = [&](std::size_t x, std::size_t y) {
    return ha[x] == hb[y] && line(before, a, head + x) == line(after, b, head + y);
  };
  std::vector<std::pair<std::size_t, std::size_t>> kept;
  if (!myers(n_mid, m_mid, max_changes, equal, kept)) kept.clear();
  // The gaps between the kept lines are the edits.
  std::vector<LineEdit> edits;
  std::size_t x = 0, y = 0;
  kept.emplace_back(n_mid, m_mid);
  for (const auto& [kx, ky] : kept) {
    if (kx > x || ky > y) edits.push_back({head + x, head + kx, head + y, head + ky});
    x = kx + 1, y = ky + 1;
  }
  return edits;
}

ParsingFile::ParsingFile(EarlierTrees* t, std::string p) : trees(t), path(std::move(p)) { t_parsing = this; }
ParsingFile::~ParsingFile() { t_parsing = nullptr; }

namespace {
std::string scan_key(const ParsingFile& file, std::string_view pass) {
  std::string key = file.path;
  key += '\0';
  key += pass;
  return key;
}
}  // namespace

const ParsingFile* parsing_file() { return t_parsing; }

bool keeps_scans() { return t_parsing && t_parsing->trees && t_parsing->trees->m->reuse_scans; }

std::shared_ptr<const EarlierScan> earlier_scan(std::string_view pass) {
  if (!keeps_scans()) return nullptr;
  EarlierTrees::Impl& trees = *t_parsing->trees->m;
  std::lock_guard lock(trees.mutex);
  auto it = trees.scans.find(scan_key(*t_parsing, pass));
  return it == trees.scans.end() ? nullptr : it->second;
}

void keep_scan(std::string_view pass, std::shared_ptr<const EarlierScan> scan) {
  if (!keeps_scans()) return;
  EarlierTrees::Impl& trees = *t_parsing->trees->m;
  std::string key = scan_key(*t_parsing, pass);
  std::lock_guard lock(trees.mutex);
  trees.scans[std::move(key)] = std::move(scan);
}

TSTree* parse_reusing(TSParser* parser, std::string_view pass, std::string_view source) {
  const auto size = static_cast<std::uint32_t>(source.size());
  ParsingFile* file = t_parsing;
  if (!file || !file->trees) return ts_parser_parse_string(parser, nullptr, source.data(), size);
  EarlierTrees::Impl& trees = *file->trees->m;
  std::string key = file->path;
  key += '\0';
  key += pass;
  EarlierTrees::Impl::Kept old = trees.take(key);
  TSTree* tree = nullptr;
  if (old.tree && ts_tree_language(old.tree) == ts_parser_language(parser) &&
      !ts_node_has_error(ts_tree_root_node(old.tree))) {
    if (old.source == source) {
      tree = ts_tree_copy(old.tree);
    } else {
      edit_tree(old.tree, old.source, source, line_edits(old.source, source));
      tree = ts_parser_parse_string(parser, old.tree, source.data(), size);
      // Recovery from a syntax error may take another path from an
      // edited tree than from scratch: such a tree is parsed again.
      if (tree && ts_node_has_error(ts_tree_root_node(tree))) {
        ts_tree_delete(tree);
        tree = nullptr;
      }
      if (tree) ++trees.reused;
    }
  }
  if (old.tree) ts_tree_delete(old.tree);
  if (!tree) {
    ts_parser_reset(parser);
    tree = ts_parser_parse_string(parser, nullptr, source.data(), size);
    ++trees.fresh;
  }
  if (tree) trees.put(std::move(key), source, tree);
  return tree;
}

}  // namespace errdex::scan
