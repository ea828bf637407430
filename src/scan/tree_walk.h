#pragma once
// Internal to the scan stage: what every tree-sitter frontend needs, so
// each language folder holds only its own grammar's logic. Not a public
// header (it names tree-sitter types): only scan/<language>/ includes it.
#include <tree_sitter/api.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/throw_site.h"

namespace errdex::scan {

// A tree-sitter parser for one language, made once per thread (creating a
// parser per file costs more than parsing a small file):
// `thread_local TsParser p(tree_sitter_python());`.
class TsParser {
 public:
  explicit TsParser(const TSLanguage* language) : m_parser(ts_parser_new()) { ts_parser_set_language(m_parser, language); }
  ~TsParser() { ts_parser_delete(m_parser); }
  TsParser(const TsParser&) = delete;
  TsParser& operator=(const TsParser&) = delete;
  TSParser* get() { return m_parser; }

 private:
  TSParser* m_parser;
};

// A node's kind in a grammar's table (indexed by symbol id): `other` for a
// null node or a symbol past the table.
template <class Kind>
Kind node_kind(const std::vector<Kind>& kinds, TSNode n, Kind other) {
  if (ts_node_is_null(n)) return other;
  TSSymbol s = ts_node_symbol(n);
  return s < kinds.size() ? kinds[s] : other;
}

// A grammar's node kinds by symbol id, from the (name, kind) pairs `names`;
// `other` for every other symbol (and the grammar's anonymous ones).
template <class Kind, std::size_t N>
std::vector<Kind> kind_table(const TSLanguage* lang, const std::pair<const char*, Kind> (&names)[N], Kind other) {
  const std::uint32_t count = ts_language_symbol_count(lang);
  std::vector<Kind> kinds(count, other);
  for (std::uint32_t s = 0; s < count; ++s) {
    if (ts_language_symbol_type(lang, static_cast<TSSymbol>(s)) != TSSymbolTypeRegular) continue;
    const char* name = ts_language_symbol_name(lang, static_cast<TSSymbol>(s));
    if (!name) continue;
    for (const auto& [n, k] : names)
      if (std::string_view(n) == name) kinds[s] = k;
  }
  return kinds;
}

// A node's source text: empty for a null node or one outside `src` (a tree
// parsed from other text).
inline std::string_view node_text(std::string_view src, TSNode n) {
  if (ts_node_is_null(n)) return {};
  std::uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (b > src.size() || e > src.size() || e < b) return {};
  return src.substr(b, e - b);
}

// A node's named children, in order, read with one cursor: asking
// ts_node_named_child(n, i) for each i starts from the first child every
// time, n² over a long list (a file's top level, or an error node that
// holds 60,000 statements).
inline std::vector<TSNode> named_children(TSNode n) {
  std::vector<TSNode> out;
  if (ts_node_is_null(n)) return out;
  TSTreeCursor cur = ts_tree_cursor_new(n);
  for (bool more = ts_tree_cursor_goto_first_child(&cur); more; more = ts_tree_cursor_goto_next_sibling(&cur))
    if (TSNode c = ts_tree_cursor_current_node(&cur); ts_node_is_named(c)) out.push_back(c);
  ts_tree_cursor_delete(&cur);
  return out;
}

// Pre-order walk without recursion (nesting depth is input-controlled):
// `visit(node, depth, cursor)` returns whether to enter the node's
// children. A null root is not walked.
template <class Visit>
void walk(TSNode root, Visit&& visit) {
  if (ts_node_is_null(root)) return;
  TSTreeCursor cur = ts_tree_cursor_new(root);
  std::uint32_t depth = 0;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (visit(n, depth, &cur) && ts_tree_cursor_goto_first_child(&cur)) {
      ++depth;
      continue;
    }
    while (depth > 0 && !ts_tree_cursor_goto_next_sibling(&cur)) {
      ts_tree_cursor_goto_parent(&cur);
      --depth;
    }
    if (depth == 0) break;
  }
  ts_tree_cursor_delete(&cur);
}

// An interpolation of expression `text`, shown as `display` when that
// differs, with a printf conversion `conv` (0: none).
inline model::TemplatePart interp(std::string text, std::string display = {}, char conv = 0) {
  model::TemplatePart p;
  p.literal = false;
  p.text = std::move(text);
  if (display != p.text) p.display = std::move(display);
  p.printf_conv = conv;
  return p;
}

// Literal text appended, merged with a trailing literal part.
inline void append_literal(std::vector<model::TemplatePart>& parts, std::string_view text) {
  if (text.empty()) return;
  if (parts.empty() || !parts.back().literal) parts.push_back(model::TemplatePart{});
  parts.back().text += text;
}

inline void append_parts(std::vector<model::TemplatePart>& parts, std::vector<model::TemplatePart> more) {
  for (auto& p : more) {
    if (p.literal)
      append_literal(parts, p.text);
    else
      parts.push_back(std::move(p));
  }
}

// `message` with its part `index` (a parameter) replaced by what a caller
// gives for it (`given`): acorn's `{message} ({loc.line}:{loc.column})`
// given `Unexpected token` reads `Unexpected token ({loc.line}:…)`. A
// message of that part alone is `given` itself.
inline model::MessageTemplate with_part_given(const model::MessageTemplate& message, std::size_t index,
                                              const model::MessageTemplate& given) {
  if (message.parts.size() == 1) return given;
  model::MessageTemplate out;
  out.style = "fstring";
  out.from_literals = true;
  for (std::size_t i = 0; i < message.parts.size(); ++i) {
    if (i == index) append_parts(out.parts, given.parts);
    else append_parts(out.parts, {message.parts[i]});
  }
  return out;
}

// Whether two templates read alike: the same literal text and the same
// interpolated expressions, in order.
inline bool same_parts(const model::MessageTemplate& a, const model::MessageTemplate& b) {
  return a.parts.size() == b.parts.size() &&
         std::equal(a.parts.begin(), a.parts.end(), b.parts.begin(),
                    [](const model::TemplatePart& x, const model::TemplatePart& y) { return x.literal == y.literal && x.text == y.text; });
}

// The index of `t`'s one part interpolating `name`, or its size when none
// or several do.
inline std::size_t part_named(const model::MessageTemplate& t, std::string_view name) {
  std::size_t found = t.parts.size();
  for (std::size_t i = 0; i < t.parts.size(); ++i) {
    if (t.parts[i].literal || t.parts[i].text != name) continue;
    if (found != t.parts.size()) return t.parts.size();
    found = i;
  }
  return found;
}

// What a caller gives for the site's parameter `param`, in each form of the
// message that shows it (the message, then the alternatives a condition
// chose: acorn's ` in {this.sourceFile}` appended or not), as alternatives
// up to `cap` of them.
inline void add_given(model::ThrowSite& site, std::string_view param, const model::MessageTemplate& given,
                      std::size_t cap) {
  std::vector<model::MessageTemplate> made;
  auto form = [&](const model::MessageTemplate& t) {
    if (const std::size_t i = part_named(t, param); i < t.parts.size()) made.push_back(with_part_given(t, i, given));
  };
  form(site.message);
  for (std::size_t k = 0, n = site.alternatives.size(); k < n; ++k) form(site.alternatives[k]);
  for (model::MessageTemplate& m : made) {
    if (site.alternatives.size() >= cap) return;
    if (same_parts(m, site.message) || std::any_of(site.alternatives.begin(), site.alternatives.end(),
                                                   [&](const model::MessageTemplate& a) { return same_parts(a, m); }))
      continue;
    site.alternatives.push_back(std::move(m));
  }
}

}  // namespace errdex::scan
