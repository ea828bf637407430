// A traceback a log kept: inside a string, its escapes to be read back
// (JSON and logfmt lines, a repr), or as JSON data (structlog's
// dict_tracebacks, a Sentry event, AWS Lambda's error result, a Jupyter
// notebook's error output).
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "match/traceback_parts.h"
#include "util/text.h"

namespace errdex::match::traceback_detail {

bool escaped_traceback(std::string_view text, std::string& out) {
  const std::size_t h = text.find(k_header);
  if (h == std::string_view::npos) return false;
  const std::size_t after = h + k_header.size();
  auto unescaped = [&](std::size_t i) {  // text[i] follows an even run of backslashes
    std::size_t k = i;
    while (k > 0 && text[k - 1] == '\\') --k;
    return (i - k) % 2 == 0;
  };
  const std::size_t line_start = h == 0 ? 0 : text.rfind('\n', h - 1) + 1;  // npos + 1 == 0
  std::size_t open = std::string_view::npos;
  for (std::size_t i = h; i > line_start; --i) {
    const char c = text[i - 1];
    // An apostrophe inside a word (`can't`) opens nothing.
    if ((c == '"' || c == '\'') && unescaped(i - 1) && (i - 1 == line_start || !is_ident(text[i - 2]))) {
      open = i - 1;
      break;
    }
  }
  const bool escaped_newline = after < text.size() && text[after] == '\\';
  const bool quoted_value = open != std::string_view::npos && open + 1 == h &&
                            (after == text.size() || text[after] == '\n' || text[after] == '\r');
  if (!escaped_newline && !quoted_value) return false;
  const char quote = open == std::string_view::npos ? '\0' : text[open];
  // Where the string from `from` closes (its quote), or npos: to the end.
  auto string_end = [&](std::size_t from) {
    for (std::size_t k = from; quote != '\0' && k < text.size(); ++k) {
      if (text[k] == '\\') ++k;
      else if (text[k] == quote) return k;
    }
    return std::string_view::npos;
  };
  const std::size_t from = open == std::string_view::npos ? h : open + 1;
  const std::size_t end = string_end(from);
  const std::string_view body = text.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from);
  if (!escaped_newline) {
    // A value over several lines (logfmt) escapes its quotes and nothing
    // else: `\n` and `\\` in a source line of the traceback are as written.
    for (std::size_t i = 0; i < body.size(); ++i) {
      if (body[i] == '\\' && i + 1 < body.size() && body[i + 1] == quote) ++i;
      out += body[i];
    }
    return true;
  }
  append_unescaped(body, out);
  if (end == std::string_view::npos) return true;
  // A log of one JSON object per line of text (Docker's json-file driver,
  // log shippers): each later line that opens as this one does, up to the
  // string, adds its string's text.
  const std::string_view lead = text.substr(line_start, from - line_start);
  for (std::size_t at = text.find('\n', end); at != std::string_view::npos;) {
    ++at;
    const std::size_t next = text.find('\n', at);
    const std::size_t line_end = next == std::string_view::npos ? text.size() : next;
    if (text.substr(at, line_end - at).starts_with(lead)) {
      if (!out.empty() && out.back() != '\n') out += '\n';
      const std::size_t e = std::min(string_end(at + lead.size()), line_end);
      append_unescaped(text.substr(at + lead.size(), e - at - lead.size()), out);
    }
    at = next;
  }
  return true;
}

namespace {

// JSON longer than k_max_json, or nesting deeper than k_max_json_depth, is
// not read as such (an error tracker's event is far smaller and flatter),
// so no input makes the document's memory grow past a few times its size.
constexpr std::size_t k_max_json = 4u << 20;
constexpr int k_max_json_depth = 64;

// Whether JSON text nests no deeper than k_max_json_depth (strings skipped).
bool shallow_json(std::string_view json) {
  int depth = 0;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '"') {
      for (++i; i < json.size() && json[i] != '"'; ++i)
        if (json[i] == '\\') ++i;
    } else if (c == '[' || c == '{') {
      if (++depth > k_max_json_depth) return false;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return true;
}

// How deep parse_traceback is inside a notebook output's traceback (its
// lines are parsed again, and they may hold JSON of their own).
thread_local int t_structured_depth = 0;

}  // namespace

bool may_be_structured(std::string_view text) {
  for (std::string_view key : {"\"exc_type\"", "\"stacktrace\"", "\"errorType\"", "\"ename\""})
    if (text.find(key) != std::string_view::npos) return true;
  return false;
}

bool structured_exceptions(std::string_view text, std::vector<ExceptionBlock>& out) {
  using Json = nlohmann::json;
  const std::size_t open = text.find('{'), close = text.rfind('}');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return false;
  const std::string_view json = text.substr(open, close - open + 1);
  if (json.size() > k_max_json || !shallow_json(json)) return false;
  const Json doc = Json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return false;
  auto string_at = [](const Json& o, const char* key) -> std::string {
    auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  auto frames_of = [&](const Json* list, const char* file_key, const char* alt_file_key, const char* function_key) {
    std::vector<Frame> frames;
    if (list == nullptr || !list->is_array()) return frames;
    for (const Json& f : *list) {
      if (!f.is_object()) continue;
      Frame frame;
      frame.file = string_at(f, file_key);
      if (frame.file.empty() && alt_file_key) frame.file = string_at(f, alt_file_key);
      if (auto it = f.find("lineno"); it != f.end() && it->is_number_integer()) {
        const auto n = it->get<std::int64_t>();
        frame.line = n > 0 && n < (1 << 30) ? static_cast<int>(n) : 0;
      }
      frame.function = string_at(f, function_key);
      if (!frame.file.empty()) frames.push_back(std::move(frame));
    }
    return frames;
  };
  auto member = [](const Json& o, const char* key) -> const Json* {
    auto it = o.find(key);
    return it == o.end() ? nullptr : &*it;
  };
  // Depth first, with a stack of its own: any nesting is read in bounded stack.
  std::vector<const Json*> stack{&doc};
  while (!stack.empty()) {
    const Json& o = *stack.back();
    stack.pop_back();
    if (o.is_object()) {
      if (const Json* e = member(o, "exception")) {
        std::vector<ExceptionBlock> blocks;
        if (e->is_array()) {  // structlog
          for (const Json& x : *e) {
            if (!x.is_object() || !member(x, "exc_type")) continue;
            ExceptionBlock b{string_at(x, "exc_type"), string_at(x, "exc_value"),
                             frames_of(member(x, "frames"), "filename", nullptr, "name")};
            finish(b);
            blocks.insert(blocks.begin(), std::move(b));
          }
        } else if (const Json* values = e->is_object() ? member(*e, "values") : nullptr;
                   values && values->is_array()) {  // Sentry
          for (const Json& x : *values) {
            if (!x.is_object() || !member(x, "type")) continue;
            std::string module = string_at(x, "module");
            std::string type = string_at(x, "type");
            if (!module.empty() && module != "builtins" && type.find('.') == std::string::npos)
              type = module + "." + type;
            const Json* st = member(x, "stacktrace");
            const Json* frames = st && st->is_object() ? member(*st, "frames") : nullptr;
            ExceptionBlock b{std::move(type), string_at(x, "value"), frames_of(frames, "abs_path", "filename", "function")};
            finish(b);
            blocks.push_back(std::move(b));
          }
        }
        if (!blocks.empty()) {
          out = std::move(blocks);
          return true;
        }
      }
      // A Jupyter notebook's error output (nbformat): `{"output_type":
      // "error", "ename", "evalue", "traceback": [...]}`, the traceback's
      // lines as IPython formats them, in colour: its frames are read there.
      if (const Json* ename = member(o, "ename"); ename && ename->is_string() && member(o, "evalue")) {
        ExceptionBlock b{ename->get<std::string>(), string_at(o, "evalue"), {}};
        if (const Json* lines = member(o, "traceback"); lines && lines->is_array() && t_structured_depth < 2) {
          std::string joined;
          for (const Json& line : *lines)
            if (line.is_string()) joined.append(line.get_ref<const std::string&>()).push_back('\n');
          struct Depth {
            Depth() { ++t_structured_depth; }
            ~Depth() { --t_structured_depth; }
          } depth;
          Traceback inner = parse_traceback(joined);
          b.frames = std::move(inner.exceptions.back().frames);
        }
        finish(b);
        out.assign(1, std::move(b));
        return true;
      }
      // AWS Lambda's error result: its stackTrace holds Python's frames as
      // traceback.format_list prints them.
      if (const Json* type = member(o, "errorType"); type && type->is_string() && member(o, "errorMessage")) {
        ExceptionBlock b{type->get<std::string>(), string_at(o, "errorMessage"), {}};
        if (const Json* st = member(o, "stackTrace"); st && st->is_array())
          for (const Json& entry : *st) {
            if (!entry.is_string()) continue;
            const std::string& lines = entry.get_ref<const std::string&>();
            for (std::string_view line : util::split_lines(lines))
              if (Frame f; parse_frame(line, f)) b.frames.push_back(std::move(f));
          }
        finish(b);
        out.assign(1, std::move(b));
        return true;
      }
      for (const auto& [key, value] : o.items())
        if (value.is_structured()) stack.push_back(&value);
    } else if (o.is_array()) {
      for (const Json& value : o)
        if (value.is_structured()) stack.push_back(&value);
    }
  }
  return false;
}

}  // namespace errdex::match::traceback_detail
