#include "match/pattern_text.h"

#include <algorithm>

#include "util/text.h"

namespace errdex::match {
namespace {

// The character an escape stands for, or 0 when it is a class (\d, \s, ...).
char unescape(char e) {
  switch (e) {
    case 'a': return '\a';
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case 'f': return '\f';
    case 'v': return '\v';
    case 'd': case 'D': case 's': case 'S': case 'w': case 'W': case 'b': case 'B': case 'A': case 'z':
    case 'p': case 'P': case 'Q': case 'E': case 'C': case 'x': case '0': case '1': case '2': case '3':
    case '4': case '5': case '6': case '7': case '8': case '9':
      return 0;
    default: return e;
  }
}

using util::hex_value;

}  // namespace

PatternText read_pattern(std::string_view p) {
  PatternText out;
  // Literal runs between non-literal pieces; a run's ends touch either the
  // pattern's ends (reliable word boundary) or a group (not reliable).
  std::string run;
  bool run_open_left = false;  // the run starts right after a group
  int depth = 0;
  bool in_class = false;

  auto flush = [&](bool open_right) {
    std::size_t n = run.size();
    std::size_t i = 0;
    while (i < n) {
      if (!is_word_char(static_cast<unsigned char>(run[i]))) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < n && is_word_char(static_cast<unsigned char>(run[j]))) ++j;
      bool left_ok = i > 0 || !run_open_left;
      bool right_ok = j < n || !open_right;
      if (left_ok && right_ok) out.words.emplace_back(run.substr(i, j - i));
      i = j;
    }
    out.constant_chars += run.size();
    if (!run.empty()) out.runs.push_back(run);
    run.clear();
  };

  for (std::size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (in_class) {
      if (c == '\\') ++i;
      else if (c == ']') in_class = false;
      continue;
    }
    if (depth > 0) {
      if (c == '\\') ++i;
      else if (c == '[') in_class = true;
      else if (c == '(') ++depth;
      else if (c == ')') {
        --depth;
        if (depth == 0) run_open_left = true;
      }
      continue;
    }
    // A quantifier after a literal makes that literal optional or repeated:
    // drop it from the run and treat the spot as a group.
    auto quantified = [&](std::size_t next) {
      return next < p.size() && (p[next] == '*' || p[next] == '?' || p[next] == '+' || p[next] == '{');
    };
    if (c == '\\') {
      if (i + 1 >= p.size()) {
        out.unreliable = true;
        break;
      }
      char e = p[++i];
      char lit = 0;
      if (e == 'x') {
        if (i + 2 < p.size() && hex_value(p[i + 1]) >= 0 && hex_value(p[i + 2]) >= 0) {
          lit = static_cast<char>(hex_value(p[i + 1]) * 16 + hex_value(p[i + 2]));
          i += 2;
        }
      } else {
        lit = unescape(e);
      }
      if (lit == 0 || quantified(i + 1)) {
        flush(true);
        run_open_left = true;
        if (quantified(i + 1)) ++i;
        continue;
      }
      run += lit;
      continue;
    }
    switch (c) {
      case '(':
        flush(true);
        depth = 1;
        continue;
      case '[':
        flush(true);
        in_class = true;
        run_open_left = true;
        continue;
      case '|':
        out.unreliable = true;
        out.words.clear();
        out.runs.clear();
        return out;
      case '.': case '^': case '$':
        flush(true);
        run_open_left = true;
        continue;
      case '*': case '+': case '?': case '{': case ')':
        out.unreliable = true;  // a quantifier with nothing before it we understood
        flush(true);
        run_open_left = true;
        continue;
      default:
        if (quantified(i + 1)) {
          flush(true);
          run_open_left = true;
          ++i;
          continue;
        }
        run += c;
    }
  }
  flush(false);
  if (depth != 0 || in_class) out.unreliable = true;
  return out;
}

void split_words(std::string_view text, std::vector<std::string_view>& out) {
  std::size_t i = 0, n = text.size();
  while (i < n) {
    if (!is_word_char(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < n && is_word_char(static_cast<unsigned char>(text[j]))) ++j;
    out.push_back(text.substr(i, j - i));
    i = j;
  }
}

namespace {

// "x!r" -> "x", "width:>10" -> "width"; brackets and quotes protect
// slices and dict keys ("d['a:b']", "x[1:2]").
std::string_view strip_conversion(std::string_view name) {
  int depth = 0;
  char quote = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    else if (depth == 0 && c == ':') return name.substr(0, i);
    else if (depth == 0 && c == '!' && i + 1 < name.size() && (name[i + 1] == 'r' || name[i + 1] == 's' || name[i + 1] == 'a') &&
             (i + 2 == name.size() || name[i + 2] == ':'))
      return name.substr(0, i);
  }
  return name;
}

}  // namespace

void interpolation_names(std::string_view t, std::vector<std::string_view>& out) {
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '{') {
      if (depth++ == 0) start = i + 1;
    } else if (t[i] == '}' && depth > 0) {
      if (--depth == 0) out.push_back(strip_conversion(t.substr(start, i - start)));
    }
  }
}

std::vector<std::string> interpolation_names(std::string_view t) {
  std::vector<std::string_view> views;
  interpolation_names(t, views);
  return {views.begin(), views.end()};
}

std::string statement_literals(std::string_view window, int window_start, int line) {
  std::string out;
  if (line < window_start) return out;
  // Line starts of the window.
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i < window.size(); ++i)
    if (window[i] == '\n') starts.push_back(i + 1);
  std::size_t at = static_cast<std::size_t>(line - window_start);
  if (at >= starts.size() || starts[at] >= window.size()) return out;
  auto indent_of = [&](std::size_t l) {
    std::size_t i = starts[l], n = 0;
    while (i < window.size() && (window[i] == ' ' || window[i] == '\t')) ++i, ++n;
    return n;
  };
  auto line_text = [&](std::size_t l) {
    std::size_t end = l + 1 < starts.size() ? starts[l + 1] : window.size();
    return window.substr(starts[l], end - starts[l]);
  };
  // A message is often put together just above the raise, in the same
  // block (`msg = _('invalid option string %r')`): take up to 6 lines back,
  // stopping at another raise or a line of an enclosing block.
  std::size_t from = at, own_indent = indent_of(at);
  while (from > 0 && at - from < 6) {
    std::size_t prev = from - 1;
    std::string_view t = line_text(prev);
    if (t.find_first_not_of(" \t\r\n") == std::string_view::npos) break;
    if (indent_of(prev) < own_indent || t.find("raise ") != std::string_view::npos ||
        t.find("return") != std::string_view::npos)
      break;
    from = prev;
  }
  int depth = 0;
  std::size_t lines_after = 0;
  char quote = 0;
  for (std::size_t i = starts[from]; i < window.size(); ++i) {
    char c = window[i];
    bool in_statement = i >= starts[at];
    if (quote) {
      if (c == '\\' && i + 1 < window.size()) {
        ++i;
        continue;
      }
      if (c == quote) {
        quote = 0;
        out += ' ';
      } else if (c == '{' && i + 1 < window.size() && window[i + 1] == '{') {
        out += '{';
        ++i;
      } else if (c == '{') {
        // An interpolation (f-string, .format) is not constant text.
        while (i + 1 < window.size() && window[i + 1] != '}' && window[i + 1] != quote && window[i + 1] != '\n') ++i;
        if (i + 1 < window.size() && window[i + 1] == '}') ++i;
        out += ' ';
      } else if (c == '\n') {
        quote = 0;  // an unterminated literal ends with its line
        if (in_statement && (depth <= 0 || ++lines_after > 12)) break;
      } else {
        out += c;
      }
      continue;
    }
    if (c == '#') {
      while (i + 1 < window.size() && window[i + 1] != '\n') ++i;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') depth = depth > 0 ? depth - 1 : 0;
    else if (c == '\n') {
      if (!in_statement) depth = 0;  // lines above are read one by one
      else if (depth <= 0 || ++lines_after > 12) break;
    }
  }
  return out;
}

Assignment find_assignment(std::string_view window, int window_start, int line, std::string_view name) {
  Assignment a;
  if (name.empty() || line <= window_start) return a;
  const std::vector<std::string_view> lines = util::split_lines(window);
  for (int l = line - 1; l >= window_start; --l) {
    std::size_t at = static_cast<std::size_t>(l - window_start);
    if (at >= lines.size()) continue;
    std::string_view t = lines[at];
    std::size_t i = t.find_first_not_of(" \t");
    if (i == std::string_view::npos || t.substr(i, name.size()) != name) continue;
    i += name.size();
    while (i < t.size() && t[i] == ' ') ++i;
    if (i >= t.size() || t[i] != '=' || (i + 1 < t.size() && t[i + 1] == '=')) continue;
    ++i;
    while (i < t.size() && t[i] == ' ') ++i;
    std::size_t j = i;
    while (j < t.size() && (is_word_char(static_cast<unsigned char>(t[j])) || t[j] == '.')) ++j;
    if (j == i || j >= t.size() || t[j] != '(') return a;
    std::string_view callee = t.substr(i, j - i);
    auto dot = callee.rfind('.');
    a.callee = std::string(dot == std::string_view::npos ? callee : callee.substr(dot + 1));
    a.line = l;
    return a;
  }
  return a;
}

std::vector<std::string_view> caught_classes(std::string_view message_template, std::string_view window,
                                             int window_start, int line) {
  std::vector<std::string_view> out;
  if (message_template.size() < 3 || message_template.front() != '{' || message_template.back() != '}') return out;
  std::string_view inner = message_template.substr(1, message_template.size() - 2);
  if (inner.find_first_of("{}") != std::string_view::npos) return out;
  // The caught exception's name: `err`, `str(err)`, `err.args[0]`.
  std::string_view name = inner;
  if (name.starts_with("str(") && name.ends_with(")")) name = name.substr(4, name.size() - 5);
  else if (name.ends_with(".args[0]")) name.remove_suffix(8);
  if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) { return is_word_char(static_cast<unsigned char>(c)); }))
    return out;
  if (line <= window_start) return out;
  const std::vector<std::string_view> lines = util::split_lines(window);
  const std::size_t raise_at = static_cast<std::size_t>(line - window_start);
  if (raise_at >= lines.size()) return out;
  auto indent_of = [](std::string_view t) { return t.find_first_not_of(" \t"); };
  std::size_t within = indent_of(lines[raise_at]);
  if (within == std::string_view::npos) return out;
  // Upward, each line indented less than everything below it so far opens
  // a block the raise is in: the first `except` of them is its handler.
  for (std::size_t at = raise_at; at-- > 0;) {
    std::string_view t = lines[at];
    const std::size_t i = indent_of(t);
    if (i == std::string_view::npos || i >= within || t[i] == '#') continue;
    within = i;
    t.remove_prefix(i);
    if (!t.starts_with("except ") && !t.starts_with("except(")) {
      if (t.starts_with("def ") || t.starts_with("async def ") || t.starts_with("class ")) return out;
      continue;
    }
    t.remove_prefix(6);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\r')) t.remove_suffix(1);
    if (!t.ends_with(":")) return out;
    t.remove_suffix(1);
    const std::string as = " as " + std::string(name);
    if (!t.ends_with(as)) return out;
    t.remove_suffix(as.size());
    // `(A, b.B)` or `A`: each name's last part.
    std::size_t k = 0;
    while (k < t.size()) {
      while (k < t.size() && !is_word_char(static_cast<unsigned char>(t[k]))) ++k;
      std::size_t b = k;
      while (k < t.size() && (is_word_char(static_cast<unsigned char>(t[k])) || t[k] == '.')) ++k;
      std::string_view dotted = t.substr(b, k - b);
      if (dotted.empty()) break;
      auto dot = dotted.rfind('.');
      out.push_back(dot == std::string_view::npos ? dotted : dotted.substr(dot + 1));
    }
    return out;
  }
  return out;
}

}  // namespace errdex::match
