// A file's top-level statements taken from the scan of its earlier
// content (issue 28, incremental scans): DefinitionMemo's keys, and the
// sites and classes of a statement moved to its new lines.
//
// Why the key is exact: a statement's walk reads its own subtree, and the
// rest of the file only through lookups by name (class_named,
// function_named, calls_named, a module-level assignment, and the
// outline's blanked-code checks over the whole file's text), each of which
// records its name (depends_on). What such a lookup can reach lies in the
// root's statements holding the name (a class, a def, a call or an
// assignment of it; then anything inside them), compared here by text and
// by where they stand against the statement (the first of a name, an
// assignment before or after it); a check over the whole file's text finds
// the name on a line and reads on to the next line that starts at column
// 0, which the chunks holding the name cover. The outline's decisions come
// in through the texts (the statements as parsed are the outline's) and
// through the pass (whole file, outline that blanked nothing, outline).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "scan/python/file_scanner.h"

namespace errdex::scan::python::detail {
namespace {

struct Hasher {
  std::uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  // Eight bytes a step, each lane its own multiplier.
  void add(std::string_view s) {
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
      std::uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      mix(w);
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, s.data() + i, s.size() - i);
    mix(tail);
    add_number(s.size());
  }
  void mix(std::uint64_t w) {
    a = (a ^ w) * 0x100000001b3ull;
    a ^= a >> 32;
    b = (b + w) * 0x9e3779b97f4a7c15ull;
    b ^= b >> 29;
  }
  void add_number(std::uint64_t n) {
    a = (a ^ n) * 0x100000001b3ull;
    b = (b ^ (n + 0x51ed27ull)) * 0x9e3779b97f4a7c15ull;
    b ^= b >> 31;
  }
  void add(const DefinitionMemo::Key& k) {
    add_number(k.a);
    add_number(k.b);
  }
  DefinitionMemo::Key key() const { return {a, b}; }
};

DefinitionMemo::Key hash_of(std::string_view s) {
  Hasher h;
  h.add(s);
  return h.key();
}

// Where each top-level chunk of `src` starts: the start, and every line
// that is not empty and starts with neither blank nor `#` (as
// class_defines_methods reads a class's end).
std::vector<std::uint32_t> chunk_starts(std::string_view src) {
  std::vector<std::uint32_t> starts{0};
  for (std::size_t i = src.find('\n'); i != std::string_view::npos && i + 1 < src.size(); i = src.find('\n', i + 1)) {
    const char c = src[i + 1];
    if (c != ' ' && c != '\t' && c != '#' && c != '\n') starts.push_back(static_cast<std::uint32_t>(i + 1));
  }
  return starts;
}

template <class F>
void shift_lines(model::ThrowSite& s, F&& moved) {
  moved(s.line);
  moved(s.end_line);
  moved(s.function_line);
  for (model::Guard& g : s.guards) moved(g.line);
}

}  // namespace

FileScanner::Level& FileScanner::level(TSNode body) {
  auto [it, added] = m_levels.try_emplace(body.id);
  Level& l = it->second;
  if (added) {
    for (std::uint32_t i = 0, count = ts_node_child_count(body); i < count; ++i) {
      TSNode st = ts_node_child(body, i);
      l.starts.push_back(ts_node_start_byte(st));
      l.ends.push_back(ts_node_end_byte(st));
    }
    l.hashes.assign(l.starts.size(), {});
  }
  return l;
}

DefinitionMemo::Key FileScanner::dependency_key(const std::vector<std::string>& words) {
  Hasher h;
  h.add(m_original.empty() ? "whole" : m_original.size() == m_src.size() ? "outline, none blanked" : "outline");
  h.add_number(m_chain.size());
  // The classes around the unit: what fill_context reads of them (name,
  // bases, docstring), with their decorators.
  for (std::size_t k = 1; k < m_chain.size(); ++k) {
    TSNode outer = ts_node_child(m_chain[k - 1].body, m_chain[k - 1].index);
    const TSNode body = m_chain[k].body;
    h.add(span(start_byte(outer), start_byte(body)));
    h.add(docstring(body));
  }
  if (!m_original.empty() && m_chunk_starts.empty()) {
    m_chunk_starts = chunk_starts(m_original);
    m_chunk_hashes.assign(m_chunk_starts.size(), {});
  }
  for (const std::string& word : words) {
    h.add(word);
    if (word.starts_with(k_class_dependency)) {
      h.add(class_texts(std::string_view(word).substr(k_class_dependency.size())));
      continue;
    }
    const std::string_view w = word;
    for (const Place& place : m_chain) {
      Level& l = level(place.body);
      auto [it, added] = l.words.try_emplace(word);
      std::vector<std::uint32_t>& holding = it->second;
      if (added && !w.empty()) {
        const std::size_t from = start_byte(place.body), to = end_byte(place.body);
        for (std::size_t at = m_src.find(w, from); at != std::string_view::npos && at < to; at = m_src.find(w, at + 1)) {
          auto s = std::upper_bound(l.starts.begin(), l.starts.end(), at);
          if (s == l.starts.begin()) continue;
          const auto i = static_cast<std::uint32_t>(s - l.starts.begin() - 1);
          if (at >= l.ends[i] || (!holding.empty() && holding.back() == i)) continue;
          holding.push_back(i);
        }
      }
      bool placed = false;
      for (std::uint32_t i : holding) {
        if (!placed && i >= place.index) {
          h.add("<the unit's place>");
          placed = true;
          if (i == place.index) continue;
        }
        DefinitionMemo::Key& k = l.hashes[i];
        if (k == DefinitionMemo::Key{}) k = hash_of(span(l.starts[i], l.ends[i]));
        h.add(k);
      }
      if (!placed) h.add("<the unit's place>");
    }
    auto [it, added] = m_word_chunks.try_emplace(word);
    if (added) {
      Hasher chunks;
      std::size_t last = m_chunk_starts.size();
      for (std::size_t at = w.empty() ? std::string_view::npos : m_original.find(w); at != std::string_view::npos;
           at = m_original.find(w, at + 1)) {
        const auto c = static_cast<std::size_t>(
            std::upper_bound(m_chunk_starts.begin(), m_chunk_starts.end(), at) - m_chunk_starts.begin() - 1);
        if (c == last) continue;
        last = c;
        DefinitionMemo::Key& k = m_chunk_hashes[c];
        if (k == DefinitionMemo::Key{}) {
          const std::size_t end = c + 1 < m_chunk_starts.size() ? m_chunk_starts[c + 1] : m_original.size();
          k = hash_of(m_original.substr(m_chunk_starts[c], end - m_chunk_starts[c]));
        }
        chunks.add(k);
      }
      it->second = chunks.key();
    }
    h.add(it->second);
  }
  return h.key();
}

DefinitionMemo::Key FileScanner::class_texts(std::string_view name) {
  if (!m_class_texts_read) {
    // As class_named indexes them: the root's named statements, a
    // decorated one by its definition.
    m_class_texts_read = true;
    std::unordered_map<std::string, Hasher> texts;
    for (TSNode st : named_children(m_root)) {
      TSNode node = kind(st) == Kind::DecoratedDef ? child(st, m_g.f_definition) : st;
      if (kind(node) == Kind::ClassDef) texts[std::string(text(child(node, m_g.f_name)))].add(text(st));
    }
    for (auto& [n, h] : texts) m_class_texts.emplace(n, h.key());
  }
  auto it = m_class_texts.find(std::string(name));
  return it == m_class_texts.end() ? DefinitionMemo::Key{} : it->second;
}

bool FileScanner::replay(TSNode st) {
  const std::string_view t = text(st);
  const int line = line_of(st);
  auto [b, e] = m_earlier->by_text.equal_range(t);
  for (; b != e; ++b) {
    const std::shared_ptr<const DefinitionMemo::Found>& found = m_earlier->entries[b->second].found;
    if (!(dependency_key(found->words) == found->key)) continue;
    auto placed = [line](int& l) {
      if (l > 0) l += line - 1;
    };
    for (ThrowSite s : found->sites) {
      shift_lines(s, placed);
      m_facts.sites.push_back(std::move(s));
    }
    for (ClassDef c : found->classes) {
      placed(c.line);
      m_facts.classes.push_back(std::move(c));
    }
    if (m_next) m_next->entries.push_back({start_byte(st), end_byte(st), line, found});
    ++m_reused;
    return true;
  }
  return false;
}

void FileScanner::remember(TSNode st, std::vector<std::string> words, std::size_t sites, std::size_t classes) {
  if (!m_next) return;
  const TSNode body = m_chain.back().body;
  const std::uint32_t i = m_chain.back().index;
  const TSPoint start = ts_node_start_point(st), end = ts_node_end_point(st);
  if (i > 0) {
    const TSPoint before = ts_node_end_point(ts_node_child(body, i - 1));
    if (before.row == start.row && before.column > 0) return;
  }
  if (i + 1 < ts_node_child_count(body) && end.column > 0 && ts_node_start_point(ts_node_child(body, i + 1)).row == end.row)
    return;
  const int first = static_cast<int>(start.row) + 1;
  const int last = static_cast<int>(end.row) + (end.column > 0 ? 1 : 0);
  bool inside = true;
  auto check = [&](int& l) { inside = inside && (l == 0 || (l >= first && l <= last)); };
  for (std::size_t s = sites; s < m_facts.sites.size(); ++s) shift_lines(m_facts.sites[s], check);
  for (std::size_t c = classes; c < m_facts.classes.size(); ++c) check(m_facts.classes[c].line);
  if (!inside) return;
  auto found = std::make_shared<DefinitionMemo::Found>();
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  found->key = dependency_key(words);
  found->words = std::move(words);
  auto counted = [first](int& l) {
    if (l > 0) l -= first - 1;
  };
  found->sites.assign(m_facts.sites.begin() + static_cast<std::ptrdiff_t>(sites), m_facts.sites.end());
  for (ThrowSite& s : found->sites) shift_lines(s, counted);
  found->classes.assign(m_facts.classes.begin() + static_cast<std::ptrdiff_t>(classes), m_facts.classes.end());
  for (ClassDef& c : found->classes) counted(c.line);
  m_next->entries.push_back({start_byte(st), end_byte(st), first, std::move(found)});
}

}  // namespace errdex::scan::python::detail
