#include "scan/python/outline.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scan/python/text.h"

namespace errdex::scan {
namespace {

// One logical line: a statement head or a whole simple statement, possibly
// spanning physical lines (brackets, triple-quoted strings, backslashes).
struct Logical {
  std::uint32_t first_line = 0;  // 0-based physical lines, inclusive
  std::uint32_t last_line = 0;
  std::uint32_t begin = 0;  // byte range in the source
  std::uint32_t end = 0;
  std::uint32_t indent = 0;  // columns, tabs to multiples of 8
  std::uint32_t text = 0;    // byte offset of the first non-blank character
};

bool is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

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

struct PythonLines::Impl {
  std::string_view source;
  std::vector<Logical> ls;
  std::vector<std::uint32_t> line_starts;
  bool ok = false;  // split whole: not too large, no string or bracket left open
};

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

bool starts_with_word(std::string_view s, std::uint32_t at, std::string_view word) {
  if (s.compare(at, word.size(), word) != 0) return false;
  std::size_t after = at + word.size();
  return after >= s.size() || !is_ident(s[after]);
}

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

bool is_keyword(std::string_view w) {
  static constexpr std::string_view k[] = {"and", "assert", "await", "elif", "except", "for", "if", "in", "is",
                                           "lambda", "not", "or", "print", "return", "while", "with", "yield",
                                           "del", "raise", "super", "isinstance", "len", "str", "int", "list",
                                           "dict", "tuple", "set", "type", "getattr", "setattr", "hasattr"};
  for (auto x : k)
    if (w == x) return true;
  return false;
}

// The callee of a call whose last name starts at `w` and ends at `e`, as
// written with its receiver: "parse", "self.parse", "json.loads",
// "super.__init__" for `super().__init__`, "?.read" when the receiver is
// an expression (`f().read`, `"x".join`).
std::string dotted_callee(std::string_view s, std::uint32_t begin, std::uint32_t w, std::uint32_t e) {
  std::uint32_t b = w;
  std::string_view head;
  while (b > begin + 1 && s[b - 1] == '.') {
    std::uint32_t a = b - 1;
    while (a > begin && is_ident(s[a - 1])) --a;
    if (a == b - 1) {
      head = b - 1 >= begin + 7 && s.substr(b - 8, 7) == "super()" ? "super." : "?.";
      break;
    }
    b = a;
  }
  std::string out(head);
  out.append(s.substr(b, e - b));
  return out;
}

// Names called in [begin, end) of `s` (`x.name(`, `name (`), strings and
// comments skipped; added to `out` once each, at most `cap`; with
// `targets`, the callees as written (dotted_callee) likewise.
void called_names(std::string_view s, std::uint32_t begin, std::uint32_t end, std::vector<std::string>& out,
                  std::size_t cap, std::vector<std::string>* targets = nullptr) {
  std::uint32_t i = begin;
  while (i < end && (out.size() < cap || (targets && targets->size() < 2 * cap))) {
    char c = s[i];
    if (c == '#') {
      while (i < end && s[i] != '\n') ++i;
      continue;
    }
    if (c == '"' || c == '\'') {
      bool triple = i + 2 < end && s[i + 1] == c && s[i + 2] == c;
      i += triple ? 3 : 1;
      while (i < end) {
        if (s[i] == '\\') {
          i += 2;
          continue;
        }
        if (s[i] == c && (!triple || (i + 2 < end && s[i + 1] == c && s[i + 2] == c))) {
          i += triple ? 3 : 1;
          break;
        }
        if (!triple && s[i] == '\n') break;
        ++i;
      }
      continue;
    }
    if (!is_ident(c) || (c >= '0' && c <= '9')) {
      ++i;
      continue;
    }
    std::uint32_t w = i;
    while (i < end && is_ident(s[i])) ++i;
    // A string prefix (`f"`, `rb'`) is no name.
    if (i < end && (s[i] == '"' || s[i] == '\'') && i - w <= 2) continue;
    std::uint32_t k = i;
    while (k < end && (s[k] == ' ' || s[k] == '\t')) ++k;
    if (k >= end || s[k] != '(') continue;
    std::string_view name = s.substr(w, i - w);
    if (w > 0 && s[w - 1] != '.' && w >= 4 && s.substr(w - 4, 4) == "def ") continue;
    const bool plain = w == begin || s[w - 1] != '.';
    if (plain && is_keyword(name)) continue;
    if (targets && targets->size() < 2 * cap) {
      std::string t = dotted_callee(s, begin, w, i);
      if (std::find(targets->begin(), targets->end(), t) == targets->end()) targets->push_back(std::move(t));
    }
    if (is_keyword(name)) continue;
    if (out.size() < cap && std::find(out.begin(), out.end(), name) == out.end()) out.emplace_back(name);
  }
}

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

namespace {

void skip_blanks(std::string_view s, std::uint32_t& i, std::uint32_t end) {
  while (i < end && (s[i] == ' ' || s[i] == '\t' || s[i] == '\\' || s[i] == '\n' || s[i] == '\r')) ++i;
}

// A dotted name at `i` (`a.b.c`), advancing past it; "" when none.
std::string_view dotted_at(std::string_view s, std::uint32_t& i, std::uint32_t end) {
  std::uint32_t b = i;
  while (i < end && (is_ident(s[i]) || (s[i] == '.' && i > b && i + 1 < end && is_ident(s[i + 1])))) ++i;
  if (b < end && s[b] >= '0' && s[b] <= '9') return {};
  return s.substr(b, i - b);
}

// `NAME = callee(...)` or `self.NAME = callee(...)`: {NAME, callee}.
std::optional<std::pair<std::string, std::string>> call_assignment(std::string_view s, const Logical& l) {
  std::uint32_t i = l.text;
  std::string_view lhs = dotted_at(s, i, l.end);
  if (lhs.empty()) return std::nullopt;
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (i + 1 >= l.end || s[i] != '=' || s[i + 1] == '=') return std::nullopt;
  ++i;
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  std::string_view rhs = dotted_at(s, i, l.end);
  if (rhs.empty()) return std::nullopt;
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (i >= l.end || s[i] != '(') return std::nullopt;
  return std::pair(std::string(lhs), std::string(rhs));
}

// The parts of [b, e) between top-level commas, brackets and comments
// left out.
std::vector<std::string_view> comma_parts(std::string_view s, std::uint32_t b, std::uint32_t e) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::uint32_t start = b;
  auto flush = [&](std::uint32_t at) {
    std::string_view part = s.substr(start, at - start);
    while (!part.empty() && std::string_view(" \t\r\n\\(").find(part.front()) != std::string_view::npos)
      part.remove_prefix(1);
    while (!part.empty() && std::string_view(" \t\r\n\\)").find(part.back()) != std::string_view::npos)
      part.remove_suffix(1);
    if (!part.empty()) out.push_back(part);
  };
  for (std::uint32_t i = b; i < e; ++i) {
    char c = s[i];
    if (c == '#') {
      flush(i);
      while (i < e && s[i] != '\n') ++i;
      start = i;
      continue;
    }
    if (c == '(' || c == '[') ++depth;
    else if ((c == ')' || c == ']') && depth > 0) --depth;
    else if (c == ',' && depth <= 1) {
      flush(i);
      start = i + 1;
    }
  }
  flush(e);
  return out;
}

// The end of the bracket opened at `open` (past its `)`), or `end` when
// it does not close before; strings skipped.
std::uint32_t bracket_end(std::string_view s, std::uint32_t open, std::uint32_t end) {
  int depth = 0;
  for (std::uint32_t i = open; i < end; ++i) {
    const char c = s[i];
    if (c == '\'' || c == '"') {
      const char q = c;
      const bool triple = i + 2 < end && s[i + 1] == q && s[i + 2] == q;
      for (i += triple ? 3 : 1; i < end; ++i) {
        if (s[i] == '\\') {
          ++i;
        } else if (s[i] == q && (!triple || (i + 2 < end && s[i + 1] == q && s[i + 2] == q))) {
          i += triple ? 2 : 0;
          break;
        }
      }
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
      return i + 1;
    }
  }
  return end;
}

// Whether only blanks and a comment are left in [i, end).
bool nothing_after(std::string_view s, std::uint32_t i, std::uint32_t end) {
  while (i < end && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n' || s[i] == '\\')) ++i;
  return i >= end || s[i] == '#';
}

// What a `return` statement gives, for FunctionCalls::returns: the callee
// of `return callee(...)` (nothing after the call), a name's callee from
// `assigned` (`t = Thing(); ...; return t`), "" for a bare `return` or
// `return None` (they say nothing against the others), "?" for anything
// else; nullopt when the line is no `return`.
std::optional<std::string> return_value(std::string_view s, const Logical& l,
                                        const std::vector<std::pair<std::string, std::string>>& assigned) {
  if (!starts_with_word(s, l.text, "return")) return std::nullopt;
  std::uint32_t i = l.text + 6;
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (nothing_after(s, i, l.end)) return std::string();
  std::string_view name = dotted_at(s, i, l.end);
  if (name.empty()) return std::string("?");
  std::uint32_t open = i;
  while (open < l.end && (s[open] == ' ' || s[open] == '\t')) ++open;
  if (nothing_after(s, open, l.end)) {
    if (name == "None") return std::string();
    // The last binding before the `return` (the light pass reads in order).
    for (auto it = assigned.rbegin(); it != assigned.rend(); ++it)
      if (it->first == name) return it->second;
    return std::string("?");
  }
  if (s[open] != '(' || !nothing_after(s, bracket_end(s, open, l.end), l.end)) return std::string("?");
  return std::string(name);
}

// A class body's `NAME = property(fget, fset, fdel)` (or `fget=`,
// `fset=`, `fdel=`): NAME and, per accessor kind, the function's name.
struct PropertyCall {
  std::string_view attribute;
  std::vector<std::pair<std::string_view, std::string_view>> accessors;  // {kind, function}
};
std::optional<PropertyCall> property_call(std::string_view s, const Logical& l) {
  std::uint32_t i = l.text;
  std::string_view lhs = dotted_at(s, i, l.end);
  if (lhs.empty() || lhs.find('.') != std::string_view::npos) return std::nullopt;
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (i + 1 >= l.end || s[i] != '=' || s[i + 1] == '=') return std::nullopt;
  ++i;
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (dotted_at(s, i, l.end) != "property") return std::nullopt;
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (i >= l.end || s[i] != '(') return std::nullopt;
  const std::uint32_t close = bracket_end(s, i, l.end);
  if (!nothing_after(s, close, l.end)) return std::nullopt;
  static constexpr std::string_view kinds[] = {"getter", "setter", "deleter"};
  static constexpr std::string_view keywords[] = {"fget", "fset", "fdel"};
  PropertyCall out{lhs, {}};
  std::size_t position = 0;
  for (std::string_view part : comma_parts(s, i + 1, close - 1)) {
    std::string_view value = part;
    std::size_t kind = position++;
    if (auto eq = part.find('='); eq != std::string_view::npos) {
      std::string_view key = part.substr(0, eq);
      while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.remove_suffix(1);
      kind = static_cast<std::size_t>(std::find(std::begin(keywords), std::end(keywords), key) - std::begin(keywords));
      value = part.substr(eq + 1);
      while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    }
    if (kind >= 3 || value.empty() || value == "None") continue;
    std::uint32_t at = 0;
    if (dotted_at(value, at, static_cast<std::uint32_t>(value.size())).size() != value.size() ||
        value.find('.') != std::string_view::npos)
      continue;
    out.accessors.emplace_back(kinds[kind], value);
  }
  if (out.accessors.empty()) return std::nullopt;
  return out;
}

// `a.b as z` → {"a.b", "z"}; empty first when it is no dotted name.
std::pair<std::string_view, std::string_view> name_as(std::string_view part) {
  std::string_view name = part, alias;
  if (auto at = part.find(" as "); at != std::string_view::npos) {
    name = part.substr(0, at);
    alias = part.substr(at + 4);
    while (!alias.empty() && (alias.front() == ' ' || alias.front() == '\t')) alias.remove_prefix(1);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
  }
  for (char c : name)
    if (!is_ident(c) && c != '.' && c != '*') return {};
  for (char c : alias)
    if (!is_ident(c)) return {};
  return {name, alias};
}

// An `import` or `from ... import` statement's names.
bool read_import(std::string_view s, const Logical& l, std::vector<model::ImportFact>& out) {
  std::uint32_t i = l.text;
  if (starts_with_word(s, i, "import")) {
    for (auto part : comma_parts(s, i + 6, l.end)) {
      auto [name, alias] = name_as(part);
      if (!name.empty() && name != "*") out.push_back({std::string(name), "", std::string(alias), 0});
    }
    return true;
  }
  if (!starts_with_word(s, i, "from")) return false;
  i += 4;
  skip_blanks(s, i, l.end);
  int level = 0;
  while (i < l.end && s[i] == '.') ++level, ++i;
  skip_blanks(s, i, l.end);
  std::string_view module = starts_with_word(s, i, "import") ? std::string_view() : dotted_at(s, i, l.end);
  skip_blanks(s, i, l.end);
  if (!starts_with_word(s, i, "import")) return true;
  for (auto part : comma_parts(s, i + 6, l.end)) {
    auto [name, alias] = name_as(part);
    if (!name.empty() && name.find('.') == std::string_view::npos)
      out.push_back({std::string(module), std::string(name), std::string(alias), level});
  }
  return true;
}

// The string literals of [b, e) appended to `out`; false when anything
// but literals, brackets, commas and `+` stands there.
bool only_literals(std::string_view s, std::uint32_t b, std::uint32_t e, std::vector<std::string>& out) {
  for (std::uint32_t i = b; i < e;) {
    char c = s[i];
    if (c == '"' || c == '\'') {
      std::uint32_t j = i + 1;
      while (j < e && s[j] != c && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
      if (j >= e || s[j] != c) return false;
      out.emplace_back(s.substr(i + 1, j - i - 1));
      i = j + 1;
      continue;
    }
    if (c == '#') {
      while (i < e && s[i] != '\n') ++i;
      continue;
    }
    if (std::string_view(" \t\r\n\\[](),+").find(c) == std::string_view::npos) return false;
    ++i;
  }
  return true;
}

// `__all__ = [...]`, `__all__ += [...]`, `__all__.extend([...])`.
void read_exports(std::string_view s, const Logical& l, model::FileFacts& facts, bool& unknown) {
  std::uint32_t i = l.text + 7;  // past `__all__`
  while (i < l.end && (s[i] == ' ' || s[i] == '\t')) ++i;
  bool assign = false;
  if (s.substr(i, 2) == "+=") {
    i += 2;
  } else if (s.substr(i, 8) == ".extend(" || s.substr(i, 8) == ".append(") {
    i += 7;
  } else if (i < l.end && s[i] == '=' && s.substr(i, 2) != "==") {
    assign = true;
    ++i;
  } else {
    return;
  }
  std::vector<std::string> names;
  if (!only_literals(s, i, l.end, names)) {
    unknown = true;
    return;
  }
  if (assign) {
    facts.exports.clear();
    facts.has_exports = true;
  }
  facts.exports.insert(facts.exports.end(), names.begin(), names.end());
}

}  // namespace

void read_imports(std::string_view source, std::vector<model::ImportFact>& out) {
  // No logical lines: a line that starts with `import` or `from` (running
  // on past a `(` to its `)`, or past a trailing backslash) is all an
  // import needs, and a test file has many lines of other kinds.
  const std::uint32_t n = static_cast<std::uint32_t>(std::min<std::size_t>(source.size(), UINT32_MAX / 2));
  for (std::uint32_t at = 0; at < n;) {
    std::uint32_t i = at;
    while (i < n && (source[i] == ' ' || source[i] == '\t')) ++i;
    std::uint32_t end = i;
    while (end < n && source[end] != '\n') ++end;
    if (starts_with_word(source, i, "import") || starts_with_word(source, i, "from")) {
      std::string_view line = source.substr(i, end - i);
      if (line.find('(') != std::string_view::npos && line.find(')') == std::string_view::npos) {
        while (end < n && source[end] != ')') ++end;
      } else {
        while (end > i && end < n && source[end - 1] == '\\') {
          ++end;
          while (end < n && source[end] != '\n') ++end;
        }
      }
      Logical l;
      l.text = i;
      l.end = end;
      read_import(source, l, out);
    }
    at = end + 1;
  }
}

namespace {

// What a decorator (its text after `@`) makes of the function below it
// when it is a property's accessor: "getter", "setter", "deleter", else "".
std::string_view property_kind(std::string_view d) {
  while (!d.empty() && (d.back() == ' ' || d.back() == '\t' || d.back() == '\r' || d.back() == '\n')) d.remove_suffix(1);
  if (auto hash = d.find('#'); hash != std::string_view::npos) {
    d = d.substr(0, hash);
    while (!d.empty() && (d.back() == ' ' || d.back() == '\t')) d.remove_suffix(1);
  }
  if (d.find_first_of("( ") != std::string_view::npos) return {};
  const auto dot = d.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? d : d.substr(dot + 1);
  if (dot == std::string_view::npos) return d == "property" || d == "cached_property" ? "getter" : "";
  if (d == "functools.cached_property") return "getter";
  if (last == "getter" || last == "setter" || last == "deleter") return last;
  return {};
}

}  // namespace

void read_calls(std::string_view source, model::FileFacts& facts) { read_calls(PythonLines(source), facts); }

void read_calls(const PythonLines& lines, model::FileFacts& facts) {
  // A function calls this many names at most, as far as the index knows.
  constexpr std::size_t k_max_calls = 64;
  // Assignments of a call's result kept per function.
  constexpr std::size_t k_max_assigned = 32;
  auto& out = facts.functions;
  const auto& [source, ls, line_starts, ok] = *lines.m;
  if (!ok) return;
  struct Open {
    std::uint32_t indent;
    std::size_t index;  // into out, or SIZE_MAX for a class
    std::string qualname;
  };
  std::vector<Open> open;
  bool exports_unknown = false;
  // The property kind the decorators above the next `def` give it, and
  // whether another decorator (not `staticmethod`, `classmethod`) may
  // replace what its name stands for (`@_SpecialForm`): its returns say
  // nothing then.
  std::string_view property;
  bool wrapped = false;
  for (const Logical& l : ls) {
    while (!open.empty() && open.back().indent >= l.indent) open.pop_back();
    std::uint32_t at = l.text;
    const bool decorator = at < l.end && source[at] == '@';
    if (decorator) {
      const std::string_view d = source.substr(at + 1, l.end - at - 1);
      if (auto kind = property_kind(d); !kind.empty()) property = kind;
      else if (!d.starts_with("staticmethod") && !d.starts_with("classmethod")) wrapped = true;
    } else if (!starts_with_word(source, at, "def") && !starts_with_word(source, at, "async")) {
      property = {};
      wrapped = false;
    }
    if (starts_with_word(source, at, "async")) {
      at += 5;
      while (at < l.end && (source[at] == ' ' || source[at] == '\t')) ++at;
    }
    const bool is_def = starts_with_word(source, at, "def");
    if (is_def || starts_with_word(source, at, "class")) {
      std::uint32_t n = at + (is_def ? 3 : 5);
      while (n < l.end && (source[n] == ' ' || source[n] == '\t')) ++n;
      std::uint32_t e = n;
      while (e < l.end && is_ident(source[e])) ++e;
      if (e == n) {
        open.push_back({l.indent, SIZE_MAX, open.empty() ? std::string() : open.back().qualname});
        continue;
      }
      std::string qualname = open.empty() ? std::string() : open.back().qualname + '.';
      qualname.append(source.substr(n, e - n));
      const bool nested = std::any_of(open.begin(), open.end(), [](const Open& o) { return o.index != SIZE_MAX; });
      if (is_def) {
        model::FunctionCalls fn;
        fn.name = std::string(source.substr(n, e - n));
        fn.qualname = qualname;
        fn.line = static_cast<int>(l.first_line) + 1;
        fn.nested = nested;
        fn.property = property;
        if (wrapped) fn.returns = "?";  // cleared at the end
        property = {};
        wrapped = false;
        out.push_back(std::move(fn));
        open.push_back({l.indent, out.size() - 1, std::move(qualname)});
        // A one-line body (`def f(): return g()`) is on the same logical line.
        std::uint32_t colon = e;
        int depth = 0;
        while (colon < l.end && !(depth == 0 && source[colon] == ':')) {
          depth += source[colon] == '(' ? 1 : source[colon] == ')' ? -1 : 0;
          ++colon;
        }
        if (colon < l.end) called_names(source, colon, l.end, out.back().calls, k_max_calls, &out.back().targets);
      } else {
        model::ClassBases c{qualname, {}};
        std::uint32_t p = e;
        while (p < l.end && (source[p] == ' ' || source[p] == '\t')) ++p;
        if (p < l.end && source[p] == '(') {
          std::uint32_t close = p;
          int depth = 0;
          for (; close < l.end; ++close) {
            depth += source[close] == '(' ? 1 : source[close] == ')' ? -1 : 0;
            if (depth == 0) break;
          }
          for (auto part : comma_parts(source, p + 1, close))
            if (auto [name, alias] = name_as(part); !name.empty() && alias.empty() && name != "*")
              c.bases.emplace_back(name);
        }
        facts.class_bases.push_back(std::move(c));
        open.push_back({l.indent, SIZE_MAX, std::move(qualname)});
      }
      continue;
    }
    if (read_import(source, l, facts.imports)) continue;
    if (open.empty() && starts_with_word(source, l.text, "__all__")) {
      read_exports(source, l, facts, exports_unknown);
      continue;
    }
    auto assigned = call_assignment(source, l);
    if (open.empty()) {
      if (assigned) facts.assigned.push_back(std::move(*assigned));
      continue;
    }
    // A class body's `x = property(getx, setx)`: its functions (defined
    // above it) are that attribute's accessors.
    if (open.back().index == SIZE_MAX)
      if (auto p = property_call(source, l))
        for (const auto& [kind, name] : p->accessors) {
          const std::string q = open.back().qualname + '.' + std::string(name);
          for (auto& fn : out)
            if (fn.qualname == q && !fn.nested && fn.property.empty()) {
              fn.property = kind;
              fn.attribute = p->attribute;
              break;
            }
        }
    // A nested function's calls are its enclosing functions' too: a
    // closure runs on their behalf.
    model::FunctionCalls* innermost = nullptr;
    for (const Open& o : open)
      if (o.index != SIZE_MAX) {
        innermost = &out[o.index];
        called_names(source, l.text, l.end, innermost->calls, k_max_calls, &innermost->targets);
      }
    if (innermost && assigned && innermost->assigned.size() < k_max_assigned)
      innermost->assigned.push_back(std::move(*assigned));
    // What the innermost function returns; "?" marks disagreement until
    // the end. The one-line body of a `def` is not read for it.
    if (innermost && open.back().index != SIZE_MAX && innermost == &out[open.back().index])
      if (auto r = return_value(source, l, innermost->assigned); r && !r->empty() && innermost->returns != "?") {
        if (innermost->returns.empty()) innermost->returns = std::move(*r);
        else if (innermost->returns != *r) innermost->returns = "?";
      }
  }
  for (auto& fn : out)
    if (fn.returns == "?") fn.returns.clear();
  if (exports_unknown) {
    facts.has_exports = false;
    facts.exports.clear();
  }
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
