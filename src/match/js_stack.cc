#include "match/js_stack.h"

#include <algorithm>
#include <string>
#include <vector>

namespace errdex::match {
namespace {

// Lines before the first frame searched for the exception line (a long
// multi-line message is read from here on).
constexpr std::size_t k_max_message_lines = 200;

// Vitest's frame marker, U+276F.
constexpr std::string_view k_vitest_marker = "\xE2\x9D\xAF ";
// AggregateErrors inside AggregateErrors read at most this deep.
constexpr int k_max_aggregate_depth = 8;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool all_digits(std::string_view s) {
  return !s.empty() && s.size() <= 9 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A line of the code frame Jest and Vitest print under an error (`> 3 |
// code`, `  2| code`, `    |    ^`): the test's source, not the message.
bool code_frame_line(std::string_view raw) {
  std::string_view l = trim(raw);
  if (l.starts_with(">")) l = trim(l.substr(1));
  std::size_t i = 0;
  while (i < l.size() && l[i] >= '0' && l[i] <= '9') ++i;
  while (i < l.size() && l[i] == ' ') ++i;
  return i < l.size() && l[i] == '|';
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    std::string_view l = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back(l);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return lines;
}

// `file:line:col` (the column optional) into `f`; false when the text does
// not end that way.
bool read_location(std::string_view loc, Frame& f, bool column_required) {
  auto c2 = loc.rfind(':');
  if (c2 == std::string_view::npos || !all_digits(loc.substr(c2 + 1))) return false;
  std::string_view line = loc.substr(c2 + 1), file = loc.substr(0, c2);
  if (auto c1 = file.rfind(':'); c1 != std::string_view::npos && all_digits(file.substr(c1 + 1))) {
    line = file.substr(c1 + 1);
    file = file.substr(0, c1);
  } else if (column_required) {
    return false;
  }
  if (file.empty()) return false;
  // A browser's URL: `?v=3f2a` (a dev server's cache key) and `#…` are
  // not part of the file.
  if (file.find("://") != std::string_view::npos) file = file.substr(0, file.find_first_of("?#"));
  if (file.starts_with("file://")) {
    file.remove_prefix(7);
    // file:///C:/x on Windows: the drive, not a root folder.
    if (file.size() > 3 && file[0] == '/' && file[2] == ':') file.remove_prefix(1);
  }
  f.file = std::string(file);
  f.line = std::stoi(std::string(line));
  return true;
}

// One frame line of V8 (`at fn (loc)`, `at loc`) or of Firefox and Safari
// (`fn@loc`).
enum class FrameLine { none, v8, firefox };

FrameLine parse_frame_line(std::string_view raw, Frame& f) {
  std::string_view l = trim(raw);
  if (l.ends_with("{")) l = trim(l.substr(0, l.size() - 1));  // util.inspect's `{ code: … }` follows
  if (l.ends_with(",")) l.remove_suffix(1);  // the last frame of an item of AggregateError's `[errors]: [`
  if (l.starts_with(k_vitest_marker)) {
    // Vitest: `❯ fn file:line:col` or `❯ file:line:col`.
    l = trim(l.substr(k_vitest_marker.size()));
    auto space = l.rfind(' ');
    std::string_view loc = space == std::string_view::npos ? l : l.substr(space + 1);
    f.function = space == std::string_view::npos ? std::string() : std::string(trim(l.substr(0, space)));
    return read_location(loc, f, true) ? FrameLine::v8 : FrameLine::none;
  }
  if (l.starts_with("at ")) {
    l.remove_prefix(3);
    std::string_view fn, loc = l;
    if (l.ends_with(")")) {
      auto open = l.rfind(" (");
      if (open == std::string_view::npos) return FrameLine::none;
      fn = l.substr(0, open);
      loc = l.substr(open + 2, l.size() - open - 3);
    }
    if (fn.starts_with("async ")) fn.remove_prefix(6);
    f.function = std::string(fn);
    return read_location(loc, f, true) ? FrameLine::v8 : FrameLine::none;
  }
  auto at = l.find('@');
  if (at == std::string_view::npos || l.find(' ') < at) return FrameLine::none;
  std::string_view loc = l.substr(at + 1);
  // A URL or a path: `user@host:22` is neither.
  if (loc.find(' ') != std::string_view::npos || loc.find('/') == std::string_view::npos) return FrameLine::none;
  f.function = std::string(l.substr(0, at));
  return read_location(loc, f, false) ? FrameLine::firefox : FrameLine::none;
}

// Node's own code and code with no file: never a site of a scanned package.
bool user_frame(const Frame& f) {
  std::string_view p = f.file;
  return !(p.starts_with("node:") || p.starts_with("internal/") || p == "native" || p.find("<anonymous>") != std::string_view::npos ||
           p.starts_with("eval at "));
}

bool error_like(std::string_view name) {
  return name.ends_with("Error") || name.ends_with("Exception") || name.ends_with("Warning") || name == "Error";
}

// `TypeError: msg`, `TypeError [ERR_X]: msg`, `Uncaught RangeError: msg`,
// `Error` alone: the class and where the message starts. `strict` asks for
// a name that reads as an error class.
bool exception_line(std::string_view line, bool strict, std::string& cls, std::string_view& message) {
  std::string_view l = trim(line);
  // Chrome's console: `VM12:3 Uncaught (in promise) TypeError: …`, the
  // link to where it was logged first.
  if (auto u = l.find(" Uncaught "); u != std::string_view::npos) {
    std::string_view link = l.substr(0, u);
    auto colon = link.rfind(':');
    if (link.find(' ') == std::string_view::npos && colon != std::string_view::npos && all_digits(link.substr(colon + 1)))
      l.remove_prefix(u + 1);
  }
  if (l.starts_with("Uncaught ")) l.remove_prefix(9);
  if (l.starts_with("(in promise) ")) l.remove_prefix(13);
  // util.inspect prints an error with no frames in brackets: `[Error: x]`,
  // `[AggregateError: x] {`.
  if (l.starts_with("[")) {
    if (l.ends_with(",")) l.remove_suffix(1);  // an item of `[errors]: [`
    if (l.ends_with("{")) l = trim(l.substr(0, l.size() - 1));
    if (!l.ends_with("]")) return false;
    l = l.substr(1, l.size() - 2);
  }
  std::size_t i = 0;
  auto ident = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.'; };
  while (i < l.size() && ident(l[i])) ++i;
  std::string_view name = l.substr(0, i);
  if (name.empty() || !((name[0] >= 'A' && name[0] <= 'Z') || name[0] == '_' || name[0] == '$')) return false;
  std::size_t j = i;
  if (l.substr(j).starts_with(" [")) {  // Node's code: `TypeError [ERR_INVALID_ARG_TYPE]: …`
    auto close = l.find(']', j);
    if (close == std::string_view::npos) return false;
    j = close + 1;
  }
  if (j == l.size()) {
    if (!error_like(name)) return false;
    message = {};
  } else if (l.substr(j).starts_with(": ") || l.substr(j) == ":") {
    message = l.substr(std::min(l.size(), j + 2));
  } else {
    return false;
  }
  if (strict && !error_like(name)) return false;
  cls = std::string(name);
  return true;
}

// The `file:line` of Node's header into `f`: the script V8 ran, an
// absolute path (`/srv/app/x.js`, `C:\\app\\x.js`), a URL (`file:///…`,
// `node:internal/…`) or a name without spaces (`[eval]`). A message line
// ending in `line:1, col:1` (liquidjs quotes the template's place so) is
// none: its "file" holds spaces and is no path.
bool header_location(std::string_view line, Frame& f) {
  Frame h;
  if (!read_location(trim(line), h, false)) return false;
  const std::string_view p = h.file;
  const bool absolute = p.starts_with("/") || p.starts_with("\\") ||
                        (p.size() > 2 && ((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) && p[1] == ':' &&
                         (p[2] == '\\' || p[2] == '/'));
  const auto colon = p.find(':');
  const bool url = colon != std::string_view::npos && colon > 1 && p.substr(0, colon).find_first_of(" /\\") == std::string_view::npos;
  if (!absolute && !url && p.find_first_of(" \t") != std::string_view::npos) return false;
  f = std::move(h);
  return true;
}

// Node's caret line under the source line of its header (`    ^`).
bool caret_line(std::string_view line) {
  const std::string_view t = trim(line);
  return !t.empty() && t.find_first_not_of('^') == std::string_view::npos;
}

// Node's header above an uncaught error: `file:line`, the source line and a
// caret line, above line `end` (the exception's). Node prints the error's
// stack under it, and a stack may start with lines of its own above the
// exception line (liquidjs puts the message and the template's place
// first, a caret of its own among them): the header is the nearest caret
// line under a source line under a `file:line`, with no frame between.
bool uncaught_header(const std::vector<std::string_view>& lines, std::size_t end, Frame& f) {
  const std::size_t lo = end > k_max_message_lines ? end - k_max_message_lines : 0;
  for (std::size_t k = end; k > lo && k >= 3; --k) {
    Frame h;
    if (caret_line(lines[k - 1]) && header_location(lines[k - 3], h) && user_frame(h)) {
      h.source = std::string(trim(lines[k - 2]));
      f = std::move(h);
      return true;
    }
    if (parse_frame_line(lines[k - 1], h) != FrameLine::none) return false;
  }
  return false;
}

// The exception whose frames start at line `first`: its line is the
// earliest line before them that reads as one.
ExceptionBlock exception_before(const std::vector<std::string_view>& lines, std::size_t first, std::size_t floor,
                                std::size_t& exception_at) {
  ExceptionBlock b;
  std::size_t lo = first > floor + k_max_message_lines ? first - k_max_message_lines : floor;
  // Back to Node's caret line or another stack's frame: a message may hold
  // blank lines (js-yaml's snippet of the input), and carets of its own
  // (yaml's), which are no header's: a header's caret is under a source
  // line under `file:line`.
  std::size_t start = first;
  Frame probe;
  while (start > lo) {
    if ((caret_line(lines[start - 1]) && start >= 3 && header_location(lines[start - 3], probe)) ||
        parse_frame_line(trim(lines[start - 1]), probe) != FrameLine::none)
      break;
    --start;
  }
  std::string cls;
  std::string_view msg;
  exception_at = first;
  for (bool strict : {true, false}) {
    for (std::size_t k = start; k < first && exception_at == first; ++k)
      if (exception_line(lines[k], strict, cls, msg)) exception_at = k;
    if (exception_at != first) break;
  }
  if (exception_at == first) return b;
  b.error_class = cls;
  b.message = std::string(msg);
  for (std::size_t k = exception_at + 1; k < first; ++k) {
    if (code_frame_line(lines[k])) continue;
    b.message += '\n';
    b.message.append(lines[k]);
  }
  while (!b.message.empty() && is_space(b.message.back())) b.message.pop_back();
  return b;
}

// Frames from line `k` on, innermost first as printed, into `frames`; the
// index of the first line after them.
std::size_t read_frames(const std::vector<std::string_view>& lines, std::size_t k, std::vector<Frame>& frames) {
  for (; k < lines.size(); ++k) {
    Frame f;
    if (parse_frame_line(lines[k], f) == FrameLine::none) {
      std::string_view t = trim(lines[k]);
      // `at Promise.all (index 0)` and `... 4 lines matching cause stack trace ...`
      if (t.starts_with("at ") || (t.starts_with("... ") && t.ends_with("..."))) continue;
      // Vitest prints the test's code frame after the frame in it.
      if (code_frame_line(t) && k + 1 < lines.size() && (code_frame_line(lines[k + 1]) || parse_frame_line(lines[k + 1], f) != FrameLine::none))
        continue;
      break;
    }
    if (user_frame(f)) frames.push_back(std::move(f));
  }
  return k;
}

void finish(ExceptionBlock& b, std::vector<Frame> innermost_first) {
  // An error class's constructor (`new ValidationError`) runs before the
  // code that made it: the site is the frame after it.
  while (innermost_first.size() > 1) {
    std::string_view fn = innermost_first.front().function;
    if (!fn.starts_with("new ")) break;
    std::string_view cls = fn.substr(4);
    if (cls != b.error_class && !error_like(cls)) break;
    innermost_first.erase(innermost_first.begin());
  }
  b.frames.assign(std::make_move_iterator(innermost_first.rbegin()), std::make_move_iterator(innermost_first.rend()));
}

}  // namespace

constexpr std::string_view k_trace_uncaught = "(Use `node --trace-uncaught";

bool looks_like_js_stack(std::string_view text) {
  if (text.find("Traceback (most recent call last)") != std::string_view::npos ||
      text.find("File \"") != std::string_view::npos)
    return false;
  // Node's words under a value thrown that is no Error (`throw "x"`).
  if (text.find(k_trace_uncaught) != std::string_view::npos) return true;
  std::size_t pos = 0;
  int seen = 0;
  while (pos < text.size() && seen < 10000) {
    std::size_t nl = text.find('\n', pos);
    std::string_view l = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    Frame f;
    if (parse_frame_line(l, f) != FrameLine::none) return true;
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
    ++seen;
  }
  return false;
}

namespace {

std::size_t indentation(std::string_view l) {
  std::size_t i = 0;
  while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
  return i;
}

void parse_stack(std::string_view text, std::vector<ExceptionBlock>& out, int depth);

// An AggregateError as util.inspect prints it: the error (its frames, or
// `[AggregateError: msg] {` alone), then `[errors]: [` at line `g` and
// each error it holds, one indentation in, separated by `,`. The errors
// are the exceptions after it, the last explained, as a Python group's.
void parse_aggregate(std::string_view text, const std::vector<std::string_view>& lines, std::size_t g,
                     std::vector<ExceptionBlock>& out, int depth) {
  auto offset = [&](std::size_t k) { return k < lines.size() ? static_cast<std::size_t>(lines[k].data() - text.data()) : text.size(); };
  std::string_view head = text.substr(0, offset(g));
  if (looks_like_js_stack(head)) {
    parse_stack(head, out, depth + 1);
  } else {
    // After Node's header (its caret line), the first line naming an error.
    std::size_t from = 0;
    for (std::size_t k = 0; k < g; ++k)
      if (caret_line(lines[k])) from = k + 1;
    ExceptionBlock b;
    std::string cls;
    std::string_view msg;
    for (std::size_t k = from; k < g && b.error_class.empty(); ++k)
      if (exception_line(lines[k], false, cls, msg)) {
        b.error_class = cls;
        b.message = std::string(trim(msg));
      }
    if (b.error_class.empty()) b.message = std::string(trim(head));
    out.push_back(std::move(b));
  }
  const std::size_t outer = indentation(lines[g]);
  std::size_t end = g + 1;
  while (end < lines.size() && !(trim(lines[end]).starts_with("]") && indentation(lines[end]) <= outer)) ++end;
  std::size_t item = g + 1;
  while (item < end && trim(lines[item]).empty()) ++item;
  if (item == end) return;
  const std::size_t inner = indentation(lines[item]);
  while (item < end) {
    std::size_t next = item + 1;
    while (next < end && !(indentation(lines[next]) == inner && !trim(lines[next]).empty() && !trim(lines[next]).starts_with("at ")))
      ++next;
    std::string_view one = text.substr(offset(item), offset(next) - offset(item));
    // A string or another value rejected is no error: only those naming one.
    std::string cls;
    std::string_view msg;
    if (exception_line(lines[item], false, cls, msg)) parse_stack(one, out, depth + 1);
    item = next;
  }
}

void parse_stack(std::string_view text, std::vector<ExceptionBlock>& out, int depth) {
  auto lines = split_lines(text);
  if (depth < k_max_aggregate_depth)
    for (std::size_t g = 0; g < lines.size(); ++g)
      if (trim(lines[g]) == "[errors]: [") return parse_aggregate(text, lines, g, out, depth);
  std::size_t first = 0;
  Frame probe;
  while (first < lines.size() && parse_frame_line(lines[first], probe) == FrameLine::none) ++first;
  std::vector<ExceptionBlock> printed;  // as printed: the thrown error, then its causes
  if (first < lines.size()) {
    std::size_t exception_at = first;
    ExceptionBlock b = exception_before(lines, first, 0, exception_at);
    std::vector<Frame> frames;
    // Node's header names the throw statement, which may be another line
    // than where the error was made (`const e = new Error(…); … throw e`).
    if (Frame header; uncaught_header(lines, exception_at, header)) frames.push_back(std::move(header));
    std::size_t k = read_frames(lines, first, frames);
    if (frames.size() >= 2 && frames[0].file == frames[1].file && frames[0].line == frames[1].line)
      frames.erase(frames.begin() + 1);
    finish(b, std::move(frames));
    printed.push_back(std::move(b));
    // util.inspect's `[cause]: Error: inner` and its frames, indented; a
    // cause's cause the same way, further in.
    for (int depth = 0; depth < 64; ++depth) {
      while (k < lines.size() && trim(lines[k]).find("[cause]: ") == std::string_view::npos) ++k;
      if (k >= lines.size()) break;
      std::string_view t = trim(lines[k]);
      std::string_view rest = t.substr(t.find("[cause]: ") + 9);
      ExceptionBlock cause;
      std::string cls;
      std::string_view msg;
      if (exception_line(rest, false, cls, msg)) {
        cause.error_class = cls;
        cause.message = std::string(trim(msg));
      } else {
        cause.message = std::string(rest);
      }
      std::vector<Frame> cause_frames;
      k = read_frames(lines, k + 1, cause_frames);
      finish(cause, std::move(cause_frames));
      printed.push_back(std::move(cause));
    }
  }
  if (printed.empty()) {
    // A value thrown that is no Error (`throw "URI too long"`): Node prints
    // its header, the value as it is, and a hint; no class, no frames.
    for (std::size_t h = 3; h < lines.size(); ++h) {
      if (!trim(lines[h]).starts_with(k_trace_uncaught)) continue;
      std::size_t c = h;
      while (c > 0 && !caret_line(lines[c - 1])) --c;
      Frame header;
      if (c == 0 || !uncaught_header(lines, c, header)) break;
      ExceptionBlock b;
      for (std::size_t k = c; k < h; ++k) {
        if (!b.message.empty()) b.message += '\n';
        b.message.append(lines[k]);
      }
      b.message = std::string(trim(b.message));
      std::vector<Frame> frames;
      frames.push_back(std::move(header));
      finish(b, std::move(frames));
      printed.push_back(std::move(b));
      break;
    }
  }
  if (printed.empty()) {
    // No frames (an item of `[errors]: [` printed as `[Error: x]`).
    ExceptionBlock b;
    std::string cls;
    std::string_view msg;
    if (std::string_view t = trim(text); exception_line(t.substr(0, t.find('\n')), false, cls, msg)) {
      b.error_class = cls;
      b.message = std::string(trim(msg));
    } else {
      b.message = std::string(t);
    }
    printed.push_back(std::move(b));
  }
  out.insert(out.end(), std::make_move_iterator(printed.rbegin()), std::make_move_iterator(printed.rend()));
}

}  // namespace

void parse_js_stack(std::string_view text, Traceback& out) {
  out.exceptions.clear();
  parse_stack(text, out.exceptions, 0);
}


}  // namespace errdex::match
