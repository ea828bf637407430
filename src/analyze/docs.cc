#include "analyze/docs.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "util/text.h"

namespace errdex::analyze {
namespace {

// A quoted literal shorter than this, or of fewer words, is too common to
// say which error a text means.
constexpr std::size_t k_min_literal = 20;
constexpr int k_min_words = 3;
// Records one literal or one (class, function) pair may stand for before it
// is too vague to link outside their own files.
constexpr std::size_t k_max_shared = 3;
// Places one literal is verified at.
constexpr std::size_t k_max_hits = 32;
// Bytes hashed at each word start of the index.
constexpr std::size_t k_key = 8;
// A paragraph of a doc file longer than this many lines is cut there.
constexpr int k_max_paragraph_lines = 24;

// util::is_word_char by table: the corpus asks it of every byte of every
// doc, each revision.
class WordChars {
 public:
  WordChars() {
    for (int c = 0; c < 256; ++c) m_word[c] = util::is_word_char(static_cast<char>(c));
  }
  bool operator()(char c) const { return m_word[static_cast<unsigned char>(c)]; }

 private:
  bool m_word[256];
};
const WordChars is_word;

std::uint64_t key_at(std::string_view s, std::size_t i) {
  std::uint64_t k = 0;
  std::memcpy(&k, s.data() + i, k_key);
  return k;
}

std::string_view last_component(std::string_view s) {
  auto dot = s.rfind('.');
  return dot == std::string_view::npos ? s : s.substr(dot + 1);
}

// The longest run of fixed text in a site's message, folded.
std::string message_literal(const model::ThrowSite& s) {
  std::string best, cur;
  for (const auto& p : s.message.parts) {
    if (p.literal) {
      cur += p.text;
      continue;
    }
    if (cur.size() > best.size()) best = cur;
    cur.clear();
  }
  if (cur.size() > best.size()) best = cur;
  best = util::collapse_ws(best);
  int words = 0;
  for (std::size_t i = 0; i < best.size(); ++i) words += is_word(best[i]) && (i == 0 || !is_word(best[i - 1]));
  if (best.size() < k_min_literal || words < k_min_words) return {};
  return best;
}

// The name a caller uses for a site's function: the class's for a
// constructor.
std::string_view called_name(const model::ThrowSite& s) {
  if (s.function == "__init__" || s.function == "__new__") return s.class_name;
  return s.function;
}

std::string_view module_stem(std::string_view path) {
  auto slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (auto dot = name.find('.'); dot != std::string_view::npos) name = name.substr(0, dot);
  if (name == "__init__" && slash != std::string_view::npos) return module_stem(path.substr(0, slash));
  return name;
}

// The docs' texts folded (DocTextIndex::folded), indexed by the bytes at
// each word start. The texts are the caller's, not copied: a scan of many
// revisions keeps them by content, and copying them all into one string
// each revision cost most of the index.
class Corpus {
 public:
  // `texts[d]` indexes docs[d]'s text; `keys`: the keys (key_of) of the
  // literals that will be looked up.
  Corpus(const std::vector<const DocTextIndex*>& texts, const std::vector<std::uint64_t>& keys)
      : m_texts(texts), m_maybe(k_filter_bits / 64) {
    for (std::uint64_t k : keys) {
      m_index[k];
      m_maybe[filter_bit(k) / 64] |= std::uint64_t{1} << (filter_bit(k) % 64);
    }
    // Only the word starts some literal's key is looked up at are indexed,
    // each key's in text order; the filter passes over most others. A
    // literal holds its key and more, so a key that would run past its
    // text's end is no literal's.
    for (std::size_t d = 0; d < texts.size(); ++d) {
      const std::string_view text = texts[d]->folded;
      for (std::uint32_t w : texts[d]->word_starts) {
        if (w + k_key > text.size()) break;
        const std::uint64_t k = key_at(text, w);
        if (!(m_maybe[filter_bit(k) / 64] >> (filter_bit(k) % 64) & 1)) continue;
        if (auto it = m_index.find(k); it != m_index.end()) it->second.push_back({static_cast<std::uint32_t>(d), w});
      }
    }
  }

  // Where a literal's key is taken: its second word start (the first may
  // be cut from a longer word in the docs), as (offset, key).
  static std::optional<std::pair<std::size_t, std::uint64_t>> key_of(std::string_view lit) {
    std::size_t k = 1;
    while (k + k_key <= lit.size() && !(is_word(lit[k]) && !is_word(lit[k - 1]))) ++k;
    if (k + k_key > lit.size()) return std::nullopt;
    return std::pair(k, key_at(lit, k));
  }

  // Each (doc, line) where `lit` stands, at most k_max_hits, in the docs'
  // order and then the text's.
  std::vector<std::pair<std::size_t, int>> find(std::string_view lit, const std::vector<DocSource>& docs) const {
    std::vector<std::pair<std::size_t, int>> out;
    auto key = key_of(lit);
    if (!key) return out;
    const std::size_t k = key->first;
    auto found = m_index.find(key->second);
    if (found == m_index.end()) return out;
    for (auto it = found->second.begin(); it != found->second.end() && out.size() < k_max_hits; ++it) {
      const DocTextIndex& t = *m_texts[it->doc];
      if (it->at < k || std::string_view(t.folded).substr(it->at - k, lit.size()) != lit) continue;
      const std::size_t at = it->at - k;
      const auto lines_before = std::lower_bound(t.newlines.begin(), t.newlines.end(), at) - t.newlines.begin();
      out.emplace_back(it->doc, docs[it->doc].line + static_cast<int>(lines_before));
    }
    return out;
  }

 private:
  struct Place {
    std::uint32_t doc = 0, at = 0;  // a word start of m_texts[doc]->folded
  };
  const std::vector<const DocTextIndex*>& m_texts;
  std::unordered_map<std::uint64_t, std::vector<Place>> m_index;  // key → word starts, in the docs' order
  // A bit per hash of each key in m_index: a clear bit says a word start's
  // key is none of them without a lookup.
  static constexpr std::size_t k_filter_bits = 1 << 16;
  static std::size_t filter_bit(std::uint64_t k) { return (k * 0x9e3779b97f4a7c15ull) >> 48; }
  std::vector<std::uint64_t> m_maybe;
};

struct Candidate {
  int rank = 0;
  const std::string* path = nullptr;
  int line = 0;
};

// Rule 4: paragraphs of doc files that name a record's function as code
// and its class.
void link_paragraphs(const std::vector<DocSource>& docs, const std::vector<const DocTextIndex*>& texts,
                     const std::vector<model::ThrowSite>& sites, const std::vector<model::ErrorRecord>& records,
                     std::vector<std::vector<Candidate>>& out) {
  // Records by (function, class); a function name shorter than 4
  // characters (`get`, `run`) says nothing.
  std::map<std::pair<std::string_view, std::string_view>, std::vector<std::size_t>> by_pair;
  std::unordered_set<std::string_view> functions;
  for (std::size_t r = 0; r < records.size(); ++r) {
    std::string_view fn = called_name(sites[r]), cls = last_component(records[r].error_class);
    if (fn.size() < 4 || cls.empty() || fn.starts_with("__")) continue;
    by_pair[{fn, cls}].push_back(r);
    functions.insert(fn);
  }
  if (functions.empty()) return;
  for (std::size_t d = 0; d < docs.size(); ++d) {
    if (docs[d].docstring) continue;
    const DocTextIndex& t = *texts[d];
    for (const auto& cw : t.code_words) {
      std::string_view w = docs[d].text.substr(cw.start, cw.size);
      if (!functions.contains(w)) continue;
      const auto& p = t.paragraphs[cw.paragraph];
      std::string_view para = docs[d].text.substr(p.start, p.end - p.start);
      const int mention = docs[d].line + cw.line;
      for (auto it = by_pair.lower_bound({w, {}}); it != by_pair.end() && it->first.first == w; ++it) {
        if (!util::contains_word(para, it->first.second)) continue;
        for (std::size_t r : it->second) {
          if (it->second.size() > k_max_shared && !util::contains_word(para, module_stem(records[r].file_path))) continue;
          out[r].push_back({4, docs[d].path, mention});
        }
      }
    }
  }
}

}  // namespace

DocTextIndex index_doc_text(std::string_view text, bool docstring) {
  DocTextIndex out;
  out.folded.resize(text.size());
  char* const begin = out.folded.data();
  char* at = begin;
  for (char c : text) {
    if (c == '\n') out.newlines.push_back(static_cast<std::uint32_t>(at - begin));
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      if (at != begin && at[-1] != ' ' && at[-1] != '\0') *at++ = ' ';
    } else {
      *at++ = c;
    }
  }
  out.folded.resize(at - begin);
  const std::string_view f = out.folded;
  for (std::size_t i = 0; i < f.size(); ++i)
    if (is_word(f[i]) && (i == 0 || !is_word(f[i - 1]))) out.word_starts.push_back(static_cast<std::uint32_t>(i));
  if (docstring) return out;
  std::size_t at_line = 0;
  int line = 0;
  while (at_line < text.size()) {
    // One paragraph: up to a blank line.
    std::size_t start = at_line;
    int start_line = line, lines = 0;
    while (at_line < text.size() && lines < k_max_paragraph_lines) {
      std::size_t nl = text.find('\n', at_line);
      if (nl == std::string_view::npos) nl = text.size();
      bool blank = text.substr(at_line, nl - at_line).find_first_not_of(" \t\r") == std::string_view::npos;
      at_line = nl + 1;
      ++line;
      ++lines;
      if (blank) break;
    }
    std::string_view para = text.substr(start, std::min(at_line, text.size()) - start);
    const auto index = static_cast<std::uint32_t>(out.paragraphs.size());
    out.paragraphs.push_back({static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(start + para.size())});
    // The words written as code, with their lines.
    int newlines_before = 0;
    std::size_t counted = 0;
    for (std::size_t i = 0; i < para.size();) {
      if (!is_word(para[i]) || (i > 0 && is_word(para[i - 1]))) {
        ++i;
        continue;
      }
      std::size_t e = i;
      while (e < para.size() && is_word(para[e])) ++e;
      bool as_code = (i > 0 && (para[i - 1] == '`' || para[i - 1] == '.')) ||
                     (e < para.size() && (para[e] == '(' || para[e] == '`'));
      if (as_code) {
        newlines_before += static_cast<int>(std::count(para.begin() + counted, para.begin() + i, '\n'));
        counted = i;
        out.code_words.push_back({index, static_cast<std::uint32_t>(start + i), static_cast<std::uint32_t>(e - i),
                                  start_line + newlines_before});
      }
      i = e;
    }
  }
  return out;
}

void link_docs(const std::vector<DocSource>& docs, const std::vector<model::ThrowSite>& sites,
               std::vector<model::ErrorRecord>& records, std::size_t max_docs) {
  if (docs.empty() || records.empty()) return;
  const std::size_t n = std::min(sites.size(), records.size());
  std::vector<std::vector<Candidate>> found(records.size());
  // Each text's index: the caller's, or worked out here.
  std::vector<DocTextIndex> own_indexes;
  own_indexes.reserve(std::count_if(docs.begin(), docs.end(), [](const DocSource& d) { return !d.index; }));
  std::vector<const DocTextIndex*> texts;
  texts.reserve(docs.size());
  for (const DocSource& d : docs)
    texts.push_back(d.index ? d.index : &own_indexes.emplace_back(index_doc_text(d.text, d.docstring)));

  // Rule 1: quotes of the message's fixed text.
  {
    std::unordered_map<std::string, std::vector<std::size_t>> by_literal;
    for (std::size_t r = 0; r < n; ++r)
      if (std::string lit = message_literal(sites[r]); !lit.empty()) by_literal[std::move(lit)].push_back(r);
    std::vector<std::uint64_t> keys;
    for (const auto& [lit, rs] : by_literal)
      if (auto key = Corpus::key_of(lit)) keys.push_back(key->second);
    Corpus corpus(texts, keys);
    for (const auto& [lit, rs] : by_literal) {
      auto hits = corpus.find(lit, docs);
      for (auto [d, line] : hits)
        for (std::size_t r : rs) {
          bool own = *docs[d].path == records[r].file_path;
          if (rs.size() > k_max_shared && !own) continue;
          found[r].push_back({own ? 0 : 1, docs[d].path, line});
        }
    }
  }

  // Rules 2 and 3: docstrings of the raising function and of entry points
  // that name the class.
  std::unordered_map<std::string_view, std::vector<std::size_t>> docstrings_of;  // by owner
  for (std::size_t d = 0; d < docs.size(); ++d)
    if (docs[d].docstring && !docs[d].owner.empty()) docstrings_of[last_component(docs[d].owner)].push_back(d);
  for (std::size_t r = 0; r < n; ++r) {
    std::string_view cls = last_component(records[r].error_class);
    if (cls.empty()) continue;
    // The raising function's own docstring lies between its `def` and the
    // raise; a constructor's class docstring is the last of that name above.
    const model::ThrowSite& s = sites[r];
    const bool ctor = called_name(s) != s.function;
    std::size_t own = docs.size();
    if (auto it = docstrings_of.find(called_name(s)); it != docstrings_of.end())
      for (std::size_t d : it->second) {
        if (*docs[d].path != records[r].file_path) continue;
        if (ctor ? docs[d].line < s.function_line : docs[d].line >= s.function_line && docs[d].line <= s.line) own = d;
      }
    if (own < docs.size() && util::contains_word(docs[own].text, cls)) found[r].push_back({2, docs[own].path, docs[own].line});
    for (const auto& ep : records[r].evidence.entry_points) {
      std::string_view name = ep.name, owner = last_component(name);
      auto it = docstrings_of.find(owner);
      if (it == docstrings_of.end()) continue;
      for (std::size_t d : it->second)
        if (util::contains_word(name, module_stem(*docs[d].path)) && util::contains_word(docs[d].text, cls))
          found[r].push_back({3, docs[d].path, docs[d].line});
    }
  }

  link_paragraphs(docs, texts, sites, records, found);

  for (std::size_t r = 0; r < records.size(); ++r) {
    auto& c = found[r];
    if (c.empty()) continue;
    std::stable_sort(c.begin(), c.end(), [&](const Candidate& a, const Candidate& b) {
      if (a.rank != b.rank) return a.rank < b.rank;
      if (*a.path != *b.path) return *a.path < *b.path;
      return a.line < b.line;
    });
    auto& out = records[r].evidence.docs;
    for (const Candidate& k : c) {
      if (out.size() >= max_docs) break;
      // One link per file: the closest mention stands for the others.
      if (std::any_of(out.begin(), out.end(), [&](const model::DocEvidence& e) { return e.file_path == *k.path; }))
        continue;
      out.push_back({*k.path, k.line});
    }
  }
}

}  // namespace errdex::analyze
