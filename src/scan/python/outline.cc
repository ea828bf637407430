#include "scan/python/outline.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scan/python/logical_lines.h"
#include "scan/python/text.h"

namespace errdex::scan {

using detail::is_ident;
using detail::Logical;
using detail::starts_with_word;

namespace {

// Splits `s` into logical lines, skipping blank and comment-only lines.
// False when the source ends inside a string or bracket.
bool logical_lines(std::string_view s, std::vector<Logical>& out, std::vector<std::uint32_t>& line_starts) {
  const std::uint32_t n = static_cast<std::uint32_t>(s.size());
  std::uint32_t i = 0, line = 0;
  line_starts.push_back(0);
  auto newline = [&](std::uint32_t at) {
    ++line;
    line_starts.push_back(at + 1);
  };
  while (i < n) {
    // At the start of a physical line that starts a logical one.
    std::uint32_t line_begin = i, indent = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\f')) {
      indent = s[i] == '\t' ? (indent / 8 + 1) * 8 : indent + 1;
      ++i;
    }
    if (i >= n) break;
    if (s[i] == '\n' || s[i] == '\r' || s[i] == '#') {  // blank or comment-only
      while (i < n && s[i] != '\n') ++i;
      if (i < n) newline(i++);
      continue;
    }
    Logical l;
    l.first_line = line;
    l.begin = line_begin;
    l.text = i;
    l.indent = indent;
    int depth = 0;
    for (;;) {
      if (i >= n) break;
      char c = s[i];
      if (c == '#') {
        while (i < n && s[i] != '\n') ++i;
        continue;
      }
      if (c == '\\') {  // continuation (or a stray backslash)
        if (i + 1 < n && s[i + 1] == '\n') newline(i + 1);
        i += 2;
        continue;
      }
      if (c == '"' || c == '\'') {
        // Prefixes (r, b, f, u and pairs) only matter for raw strings, and
        // for tokenising even a raw string's backslash protects the quote.
        bool triple = i + 2 < n && s[i + 1] == c && s[i + 2] == c;
        i += triple ? 3 : 1;
        for (;;) {
          if (i >= n) return false;
          char d = s[i];
          if (d == '\\') {
            if (i + 1 < n && s[i + 1] == '\n') newline(i + 1);
            i += 2;
            continue;
          }
          if (d == '\n') {
            if (!triple) break;  // unterminated single-quoted string: the line ends it
            newline(i);
          }
          if (d == c && (!triple || (i + 2 < n && s[i + 1] == c && s[i + 2] == c))) {
            i += triple ? 3 : 1;
            break;
          }
          ++i;
        }
        continue;
      }
      if (c == '(' || c == '[' || c == '{') ++depth;
      else if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      if (c == '\n') {
        if (depth == 0) break;
        newline(i);
      }
      ++i;
    }
    if (depth != 0) return false;
    if (i > n) i = n;  // a backslash as the last byte skipped past the end
    l.last_line = line;
    l.end = i;
    out.push_back(l);
    if (i < n) newline(i++);
  }
  return true;
}

}  // namespace

PythonLines::PythonLines(std::string_view source) : m(std::make_unique<Impl>()) {
  m->source = source;
  if (source.size() >= UINT32_MAX / 2) return;
  m->ls.reserve(source.size() / 40);
  m->ok = logical_lines(source, m->ls, m->line_starts);
}

PythonLines::~PythonLines() = default;

void for_each_logical_line(const PythonLines& lines, const std::function<void(std::uint32_t, std::string_view)>& f) {
  const auto& [source, ls, line_starts, ok] = *lines.m;
  if (!ok) return;
  for (const Logical& l : ls) f(l.indent, source.substr(l.text, l.end - l.text));
}

std::string_view PythonLines::source() const { return m->source; }

namespace {

// A clause that continues the compound statement before it.
bool is_continuation_clause(std::string_view s, const Logical& l) {
  return starts_with_word(s, l.text, "elif") || starts_with_word(s, l.text, "else") ||
         starts_with_word(s, l.text, "except") || starts_with_word(s, l.text, "finally");
}

bool is_string_start(std::string_view s, std::uint32_t at) {
  for (int k = 0; k < 3 && at + k < s.size(); ++k) {
    char c = s[at + k];
    if (c == '"' || c == '\'') return true;
    if (!(c == 'r' || c == 'R' || c == 'b' || c == 'B' || c == 'u' || c == 'U' || c == 'f' || c == 'F')) return false;
  }
  return false;
}

class Outliner {
 public:
  Outliner(std::string_view s, const std::vector<Logical>& ls, std::size_t lines, const std::vector<std::string>& also,
           bool only_also = false)
      : m_s(s), m_ls(ls), m_also(also), m_only_also(only_also), m_keep(lines, 0), m_pass_at(lines, -1) {
    find_words();
  }

  // Statements of one block: logical lines [a, b) whose first has the
  // block's indentation.
  void block(std::size_t a, std::size_t b) {
    std::size_t i = a;
    while (i < b) {
      const std::uint32_t indent = m_ls[i].indent;
      std::size_t head = i;
      while (head < b && m_s[m_ls[head].text] == '@') ++head;  // decorators
      if (head >= b) head = b - 1;  // decorators with nothing after them
      std::size_t end = head + 1;
      for (;;) {
        while (end < b && m_ls[end].indent > indent) ++end;
        if (end < b && m_ls[end].indent == indent && is_continuation_clause(m_s, m_ls[end])) {
          ++end;
          continue;
        }
        break;
      }
      statement(i, head, end);
      i = end;
    }
  }

  void keep(std::size_t a, std::size_t b) {
    for (std::size_t k = a; k < b; ++k)
      for (std::uint32_t l = m_ls[k].first_line; l <= m_ls[k].last_line; ++l) {
        m_kept_lines += !m_keep[l];
        m_keep[l] = 1;
      }
  }

  std::string render(std::size_t& kept_bytes, const std::vector<std::uint32_t>& line_starts) const {
    std::string out;
    out.reserve(m_s.size() / 4);
    for (std::size_t l = 0; l < m_keep.size(); ++l) {
      std::uint32_t b = line_starts[l];
      std::uint32_t e = l + 1 < line_starts.size() ? line_starts[l + 1] : static_cast<std::uint32_t>(m_s.size());
      if (m_keep[l]) {
        out.append(m_s.substr(b, e - b));
        kept_bytes += e - b;
      } else if (m_pass_at[l] >= 0) {
        // The line's own indentation, then `pass`, so tabs stay tabs.
        out.append(m_s.substr(b, static_cast<std::size_t>(m_pass_at[l])));
        out.append("pass\n");
      } else if (e > b && m_s[e - 1] == '\n') {
        out.push_back('\n');
      }
    }
    return out;
  }

 private:
  // Logical lines [first, end): decorators [first, head), head, body.
  void statement(std::size_t first, std::size_t head, std::size_t end) {
    const Logical& h = m_ls[head];
    bool is_class = starts_with_word(m_s, h.text, "class");
    // Keeping only the `also` words, a function that holds one keeps its
    // header and those of its statements that hold one: a test's other
    // lines are not parsed.
    if (m_only_also && !is_class &&
        (starts_with_word(m_s, h.text, "def") || starts_with_word(m_s, h.text, "async")) &&
        holds(m_ls[first].begin, m_ls[end - 1].end))
      is_class = true;
    if (!is_class) {
      if (!holds(m_ls[first].begin, m_ls[end - 1].end) &&
          !(!m_only_also && is_string_assignment(h)))
        return;
      if (m_only_also && first == head && head + 1 < end && !clause_heads_hold_word(head, end)) {
        clauses(head, end);
        return;
      }
      keep(first, end);
      return;
    }
    keep(first, head + 1);
    if (head + 1 >= end) return;  // `class A: pass` on one line
    std::size_t body = head + 1;
    std::size_t kept_before = m_kept_lines;
    if (is_string_start(m_s, m_ls[body].text)) keep(body, body + 1);  // docstring
    block(body, end);
    if (m_kept_lines == kept_before)
      m_pass_at[m_ls[body].first_line] = static_cast<int>(m_ls[body].text - m_ls[body].begin);
  }

  // Where the words stand in the source as whole words: `raise`, `warn`,
  // `assert` (not `assertEqual`, `raises`, `warning`) and the `also` words,
  // or the `also` words alone with m_only_also. Found once: every
  // statement at every level then asks a sorted list, not the text.
  void find_words() {
    static const std::vector<std::string> k_throw_words = {"raise", "warn", "assert"};
    std::vector<std::string_view> names;  // identifiers: matched as whole tokens below
    auto add = [&](std::string_view w) {
      if (w.empty()) return;
      if (std::all_of(w.begin(), w.end(), is_ident)) {
        names.push_back(w);
        return;
      }
      for (std::size_t pos = m_s.find(w); pos != std::string_view::npos; pos = m_s.find(w, pos + 1))
        if ((pos == 0 || !is_ident(m_s[pos - 1])) && (pos + w.size() >= m_s.size() || !is_ident(m_s[pos + w.size()])))
          m_hits.push_back(static_cast<std::uint32_t>(pos));
    };
    if (!m_only_also)
      for (const auto& w : k_throw_words) add(w);
    for (const auto& w : m_also) add(w);
    if (!names.empty()) {
      // A cheap test before comparing: the names' first bytes and lengths.
      std::array<bool, 256> first{};
      std::size_t shortest = SIZE_MAX, longest = 0;
      for (auto w : names) {
        first[static_cast<unsigned char>(w[0])] = true;
        shortest = std::min(shortest, w.size());
        longest = std::max(longest, w.size());
      }
      static const std::array<bool, 256> ident = [] {
        std::array<bool, 256> t{};
        for (int c = 0; c < 256; ++c) t[c] = is_ident(static_cast<char>(c));
        return t;
      }();
      auto at = [&](std::size_t i) { return ident[static_cast<unsigned char>(m_s[i])]; };
      const std::size_t n = m_s.size();
      for (std::size_t i = 0; i < n;) {
        while (i < n && !at(i)) ++i;
        if (i >= n) break;
        std::size_t b = i;
        while (i < n && at(i)) ++i;
        const std::size_t len = i - b;
        if (!first[static_cast<unsigned char>(m_s[b])] || len < shortest || len > longest) continue;
        std::string_view token = m_s.substr(b, len);
        if (std::find(names.begin(), names.end(), token) != names.end()) m_hits.push_back(static_cast<std::uint32_t>(b));
      }
    }
    std::sort(m_hits.begin(), m_hits.end());
  }

  // Whether [begin, end), a run of whole logical lines, holds one of the
  // words.
  bool holds(std::uint32_t begin, std::uint32_t end) const {
    auto it = std::lower_bound(m_hits.begin(), m_hits.end(), begin);
    return it != m_hits.end() && *it < end;
  }

  // Whether a clause head of the compound statement [head, end) (`for`,
  // `if`, `with`, `try` and their `else`, `except`, ... at its
  // indentation) holds one of the `also` words.
  bool clause_heads_hold_word(std::size_t head, std::size_t end) const {
    for (std::size_t k = head; k < end; ++k)
      if (m_ls[k].indent == m_ls[head].indent &&
          holds(m_ls[k].begin, m_ls[k].end))
        return true;
    return false;
  }

  // Keeping only the `also` words, a compound statement whose clause
  // heads hold none: its heads are kept, and of its bodies the statements
  // that hold one (a `pass` where a body would otherwise be empty).
  void clauses(std::size_t head, std::size_t end) {
    const std::uint32_t indent = m_ls[head].indent;
    for (std::size_t c = head; c < end;) {
      std::size_t next = c + 1;
      while (next < end && m_ls[next].indent != indent) ++next;
      keep(c, c + 1);
      if (c + 1 < next) {
        std::size_t kept_before = m_kept_lines;
        block(c + 1, next);
        if (m_kept_lines == kept_before)
          m_pass_at[m_ls[c + 1].first_line] = static_cast<int>(m_ls[c + 1].text - m_ls[c + 1].begin);
      }
      c = next;
    }
  }

  // `NAME = "..."` (or f-string, or parenthesised strings): a message a
  // raise in the same scope may name (`raise ValueError(MESSAGE)`).
  bool is_string_assignment(const Logical& l) const {
    std::uint32_t i = l.text;
    while (i < l.end && is_ident(m_s[i])) ++i;
    if (i == l.text) return false;
    while (i < l.end && m_s[i] == ' ') ++i;
    if (i + 1 >= l.end || m_s[i] != '=' || m_s[i + 1] == '=') return false;
    ++i;
    while (i < l.end && (m_s[i] == ' ' || m_s[i] == '(' || m_s[i] == '\\' || m_s[i] == '\n')) ++i;
    return i < l.end && is_string_start(m_s, i);
  }

  std::string_view m_s;
  const std::vector<Logical>& m_ls;
  const std::vector<std::string>& m_also;
  bool m_only_also = false;
  std::vector<char> m_keep;
  std::vector<int> m_pass_at;  // per line: indentation bytes before a `pass`, or -1
  std::size_t m_kept_lines = 0;
  std::vector<std::uint32_t> m_hits;  // find_words: where a word starts, ascending
};

// What a `def`, `async def` or `class` logical line defines: the name's
// byte range; nullopt for any other line, or one without a name.
struct Definition {
  bool is_def = false;
  std::uint32_t name_begin = 0, name_end = 0;
};
std::optional<Definition> definition_at(std::string_view source, const Logical& l) {
  std::uint32_t at = l.text;
  if (starts_with_word(source, at, "async")) {
    at += 5;
    while (at < l.end && (source[at] == ' ' || source[at] == '\t')) ++at;
  }
  Definition d;
  d.is_def = starts_with_word(source, at, "def");
  if (!d.is_def && !starts_with_word(source, at, "class")) return std::nullopt;
  std::uint32_t n = at + (d.is_def ? 3 : 5);
  while (n < l.end && (source[n] == ' ' || source[n] == '\t')) ++n;
  std::uint32_t e = n;
  while (e < l.end && is_ident(source[e])) ++e;
  if (e == n) return std::nullopt;
  d.name_begin = n;
  d.name_end = e;
  return d;
}

// inspect.cleandoc: the first line's leading blanks, the other lines'
// common indentation (tabs expanded), trailing blanks of each line and
// blank lines at both ends removed; then cut at a line end to at most
// model::Docstring::k_max_docstring bytes (the first line alone at a
// character boundary).
std::string clean_docstring(std::string_view raw) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; at <= raw.size();) {
    std::size_t nl = raw.find('\n', at);
    if (nl == std::string_view::npos) nl = raw.size();
    std::string line;
    for (char c : raw.substr(at, nl - at)) {
      if (c == '\t') line.append(8 - line.size() % 8, ' ');
      else line += c;
    }
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '\f')) line.pop_back();
    lines.push_back(std::move(line));
    at = nl + 1;
  }
  std::size_t margin = SIZE_MAX;
  for (std::size_t i = 1; i < lines.size(); ++i)
    if (!lines[i].empty()) margin = std::min(margin, lines[i].find_first_not_of(' '));
  if (!lines.empty()) lines[0].erase(0, std::min(lines[0].size(), lines[0].find_first_not_of(' ')));
  for (std::size_t i = 1; i < lines.size(); ++i)
    if (!lines[i].empty()) lines[i].erase(0, margin);
  std::size_t first = 0, last = lines.size();
  while (first < last && lines[first].empty()) ++first;
  while (last > first && lines[last - 1].empty()) --last;
  constexpr std::size_t k_max = model::Docstring::k_max_docstring;
  std::string out;
  for (std::size_t i = first; i < last; ++i) {
    if (i > first && out.size() + 1 + lines[i].size() > k_max) break;
    if (i > first) out += '\n';
    out += lines[i];
  }
  if (out.size() > k_max) {
    std::size_t cut = k_max;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out.resize(cut);
  }
  return out;
}

// The text of a logical line that is one string literal and nothing else
// (adjacent literals joined, as Python does): a docstring when it comes
// first in a body; cleaned. nullopt for any other statement, and for bytes
// and f-strings, which are no docstrings.
std::optional<std::string> docstring_of(std::string_view s, const Logical& l) {
  std::string text;
  std::uint32_t k = l.text;
  bool any = false;
  while (k < l.end && s[k] != '#' && s[k] != '\n' && s[k] != '\r') {
    std::uint32_t prefix_end = k;
    while (prefix_end < l.end && prefix_end - k < 2 && (s[prefix_end] == 'r' || s[prefix_end] == 'R' ||
                                                        s[prefix_end] == 'u' || s[prefix_end] == 'U'))
      ++prefix_end;
    if (prefix_end >= l.end || (s[prefix_end] != '"' && s[prefix_end] != '\'')) return std::nullopt;
    python::StringPrefix prefix = python::parse_prefix(s.substr(k, prefix_end - k + 1));
    const char q = s[prefix_end];
    const bool triple = prefix_end + 2 < l.end && s[prefix_end + 1] == q && s[prefix_end + 2] == q;
    const std::uint32_t body = prefix_end + (triple ? 3 : 1);
    k = body;
    for (;;) {
      if (k >= l.end) return std::nullopt;
      if (s[k] == '\\') {
        k += 2;
        continue;
      }
      if (s[k] == q && (!triple || (k + 2 < l.end && s[k + 1] == q && s[k + 2] == q))) break;
      ++k;
    }
    std::vector<model::TemplatePart> parts;
    python::decode_literal(s.substr(body, k - body), prefix, parts);
    for (const auto& p : parts) text += p.text;
    any = true;
    k += triple ? 3 : 1;
    // Blanks, and a backslash continuing the line, before what follows.
    while (k < l.end && (s[k] == ' ' || s[k] == '\t' || (s[k] == '\\' && k + 1 < l.end && s[k + 1] == '\n') ||
                         (s[k] == '\n' && k > l.text && s[k - 1] == '\\')))
      ++k;
  }
  if (!any) return std::nullopt;
  return clean_docstring(text);
}

}  // namespace

std::optional<std::string> keep_only_words(std::string_view source, const std::vector<std::string>& words) {
  return keep_only_words(PythonLines(source), words);
}

std::optional<std::string> keep_only_words(const PythonLines& lines, const std::vector<std::string>& words) {
  const auto& [source, ls, line_starts, ok] = *lines.m;
  if (!ok || ls.empty() || ls.front().indent != 0) return std::nullopt;
  Outliner o(source, ls, line_starts.size(), words, true);
  o.block(0, ls.size());
  std::size_t kept = 0;
  return o.render(kept, line_starts);
}

std::optional<std::string> blank_unreachable(std::string_view source, const std::vector<std::string>& also_keep) {
  return blank_unreachable(PythonLines(source), also_keep);
}

std::optional<std::string> blank_unreachable(const PythonLines& lines, const std::vector<std::string>& also_keep) {
  const auto& [source, ls, line_starts, ok] = *lines.m;
  if (!ok || ls.empty()) return std::nullopt;
  // Indentation must start at the left margin for the blocks to make sense.
  if (ls.front().indent != 0) return std::nullopt;
  Outliner o(source, ls, line_starts.size(), also_keep);
  o.block(0, ls.size());
  std::size_t kept = 0;
  std::string out = o.render(kept, line_starts);
  // Parsing blank lines is nearly free, but copying and a second pass are
  // not: only worth it when most of the file goes.
  if (kept * 10 > source.size() * 7) return std::nullopt;
  return out;
}

std::vector<model::Docstring> read_docstrings(std::string_view source) { return read_docstrings(PythonLines(source)); }

std::vector<model::Docstring> read_docstrings(const PythonLines& lines) {
  std::vector<model::Docstring> out;
  const auto& [source, ls, line_starts, ok] = *lines.m;
  if (!ok || ls.empty()) return out;
  struct Open {
    std::uint32_t indent;
    std::string name;  // dotted
  };
  std::vector<Open> open;
  // The definition whose body starts at the next logical line: its first
  // statement, when a string, is its docstring. The module's is its first.
  struct Pending {
    const char* kind;
    std::string name;
    std::uint32_t indent;
  };
  std::optional<Pending> pending;
  if (ls.front().indent == 0) pending = Pending{"module", "", 0};
  for (const Logical& l : ls) {
    if (pending && (l.indent > pending->indent || pending->name.empty()))
      if (auto text = docstring_of(source, l))
        out.push_back({pending->kind, std::move(pending->name), static_cast<int>(l.first_line) + 1, std::move(*text)});
    pending.reset();
    while (!open.empty() && open.back().indent >= l.indent) open.pop_back();
    auto def = definition_at(source, l);
    if (!def) continue;
    const bool is_def = def->is_def;
    const std::uint32_t e = def->name_end;
    std::string name(source.substr(def->name_begin, e - def->name_begin));
    if (!open.empty()) name = open.back().name + "." + name;
    // A body on the header's line (`def f(): r"""doc"""`): its docstring
    // is the string after the colon.
    std::uint32_t colon = e;
    for (int depth = 0; colon < l.end && !(depth == 0 && source[colon] == ':'); ++colon)
      depth += source[colon] == '(' || source[colon] == '[' ? 1 : source[colon] == ')' || source[colon] == ']' ? -1 : 0;
    std::uint32_t body = colon + 1;
    while (body < l.end && (source[body] == ' ' || source[body] == '\t')) ++body;
    if (body < l.end && source[body] != '#' && source[body] != '\n' && source[body] != '\r') {
      Logical inline_body = l;
      inline_body.text = body;
      if (auto text = docstring_of(source, inline_body)) {
        int line = static_cast<int>(l.first_line) + 1 +
                   static_cast<int>(std::count(source.begin() + l.text, source.begin() + body, '\n'));
        out.push_back({is_def ? "function" : "class", name, line, std::move(*text)});
      }
      continue;  // nothing nests in a one-line body
    }
    pending = Pending{is_def ? "function" : "class", name, l.indent};
    open.push_back({l.indent, std::move(name)});
  }
  return out;
}

}  // namespace errdex::scan
