// A frame line in each layout a traceback is printed in: Python's
// `File "x.py", line 3, in f` and the source line under it, pytest's
// `x.py:3: in f`, IPython's and Jupyter's (`File x.py:3, in f(...)`, a cell,
// IPython 7's `x.py in f(...)` with its `---->` mark), rich's `x.py:3 in f`.
#include <algorithm>
#include <string>
#include <string_view>

#include "match/traceback_parts.h"

namespace errdex::match::traceback_detail {

bool raises_object(std::string_view source) {
  std::size_t at = 0;
  while (at < source.size() && is_space(source[at])) ++at;
  if (source.substr(at, 5) != "raise") return false;  // most lines, at once
  at += 5;
  const std::size_t word_end = at;
  while (at < source.size() && is_space(source[at])) ++at;
  // `raise ValueError(...)`, the usual raise, ends here too.
  if (at == word_end || at == source.size() || !((source[at] >= 'a' && source[at] <= 'z') || source[at] == '_')) return false;
  std::string_view t = trim(source.substr(at));
  if (auto hash = t.find('#'); hash != std::string_view::npos) t = trim(t.substr(0, hash));
  if (auto from = t.find(" from "); from != std::string_view::npos) t = trim(t.substr(0, from));
  constexpr std::string_view k_with = ".with_traceback(";
  if (auto with = t.find(k_with); with != std::string_view::npos && t.back() == ')') t = t.substr(0, with);
  return std::all_of(t.begin(), t.end(), [](char c) { return is_ident(c) || c == '.' || c == '[' || c == ']' || c == '\'' || c == '"'; });
}

bool rest_is_source(std::string_view line) {
  return (line.starts_with("    ") || line.starts_with("\t")) && !trim(line).empty();
}

int read_line_number(std::string_view line, std::size_t& i, std::size_t& digits) {
  long n = 0;
  digits = 0;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') {
    if (digits < 9) n = n * 10 + (line[i] - '0');
    ++i;
    ++digits;
  }
  return digits > 9 ? 0 : static_cast<int>(n);
}

bool parse_frame(std::string_view line, Frame& f) {
  auto at = line.find("File \"");
  if (at == std::string_view::npos) return false;
  std::size_t start = at + 6;
  auto mid = line.find("\", line ", start);
  if (mid == std::string_view::npos) return false;
  std::size_t i = mid + 8;
  std::size_t digits = 0;
  int n = read_line_number(line, i, digits);
  if (digits == 0) return false;
  f.file = std::string(line.substr(start, mid - start));
  f.line = n;
  f.function.clear();
  std::string_view rest = line.substr(i);
  if (rest.substr(0, 5) == ", in ") f.function = std::string(trim(rest.substr(5)));
  return true;
}

bool parse_pytest_frame(std::string_view line, Frame& f) {
  std::size_t file_end;
  if (line.starts_with("<frozen ")) {
    file_end = line.find(">:");
    if (file_end == std::string_view::npos) return false;
    ++file_end;
  } else {
    auto colon = line.find(".py:");
    if (colon == std::string_view::npos || colon == 0) return false;
    for (std::size_t k = 0; k < colon; ++k)
      if (is_space(line[k])) return false;
    file_end = colon + 3;
  }
  std::size_t i = file_end + 1;
  std::size_t digits = 0;
  int n = read_line_number(line, i, digits);
  if (digits == 0 || i >= line.size() || line[i] != ':') return false;
  f.file = std::string(line.substr(0, file_end));
  f.line = n;
  std::string_view rest = trim(line.substr(i + 1));
  f.function = rest.substr(0, 3) == "in " ? std::string(rest.substr(3)) : "";
  f.raised_here = f.function.empty() && !rest.empty();
  if (f.raised_here) f.raised_as = std::string(rest);
  return true;
}

bool parse_path_frame(std::string_view rest, Frame& f) {
  for (std::size_t colon = rest.find(':'); colon != std::string_view::npos; colon = rest.find(':', colon + 1)) {
    std::size_t end = colon + 1, digits = 0;
    int n = read_line_number(rest, end, digits);
    if (digits == 0 || colon == 0) continue;
    std::string_view after = rest.substr(end);
    std::string_view function;
    if (after.starts_with(", in ")) function = after.substr(5);
    else if (after.starts_with(" in ")) function = after.substr(4);
    else if (!trim(after).empty()) continue;
    f.file = std::string(rest.substr(0, colon));
    f.line = n;
    // `loads(s, cls, ...)`: the name, as Python prints it.
    function = trim(function);
    f.function = std::string(function.substr(0, function.find('(')));
    return true;
  }
  return false;
}

bool parse_ipython_frame(std::string_view line, Frame& f) {
  if (line.starts_with("File ")) return parse_path_frame(line.substr(5), f);
  // A cell: its name as printed stands for the file.
  for (std::string_view cell : {std::string_view("Cell In"), std::string_view("Input In")}) {
    if (!line.starts_with(cell)) continue;
    auto close = line.find(']', cell.size());
    if (close == std::string_view::npos) return false;
    std::string_view rest = line.substr(close + 1);
    std::size_t at = 0;
    if (rest.starts_with(", line ")) at = 7;
    else if (auto k = rest.find("<cell line: "); k != std::string_view::npos) at = k + 12;
    else return false;
    std::size_t digits = 0;
    int n = read_line_number(rest, at, digits);
    if (digits == 0) return false;
    f.file = std::string(line.substr(0, close + 1));
    f.line = n;
    f.function.clear();
    return true;
  }
  return false;
}

bool parse_ipython7_frame(std::string_view line, Frame& f) {
  if (line.empty() || is_space(line[0])) return false;
  auto in = line.find(" in ");
  if (in == std::string_view::npos || in == 0) return false;
  std::string_view file = line.substr(0, in);
  bool path_like = file.front() == '/' || file.front() == '~' || file.front() == '<' || file.front() == '.' ||
                   (file.size() > 2 && file[1] == ':' && (file[2] == '\\' || file[2] == '/'));
  if (!path_like || (file.find(' ') != std::string_view::npos && file.front() != '<')) return false;
  std::string_view function = trim(line.substr(in + 4));
  if (function.empty() || !(is_ident_start(function[0]) || function[0] == '<')) return false;
  f.file = std::string(file);
  f.line = 0;
  f.function = std::string(function.substr(0, function.find('(')));
  return true;
}

int ipython_arrow(std::string_view line, std::string_view& source) {
  std::size_t i = 0;
  while (i < line.size() && line[i] == '-') ++i;
  if (i == 0 || i >= line.size() || line[i] != '>') return -1;
  ++i;
  while (i < line.size() && line[i] == ' ') ++i;
  std::size_t digits = 0;
  int n = read_line_number(line, i, digits);
  source = line.substr(i);
  return digits == 0 ? -1 : n;
}

bool ipython_excerpt(std::string_view line) {
  std::string_view t = trim(line);
  if (t == "(...)") return true;
  std::size_t digits = 0;
  while (digits < t.size() && t[digits] >= '0' && t[digits] <= '9') ++digits;
  return digits > 0 && (digits == t.size() || t[digits] == ' ');
}

bool line_frame(std::string_view line, const ClassAt& c, Frame& f) {
  const std::size_t at = static_cast<std::size_t>(c.name.data() - line.data());
  if (at < 6 || line.substr(at - 2, 2) != ": ") return false;
  return parse_pytest_frame(line.substr(0, at), f) && f.function.empty();
}

}  // namespace errdex::match::traceback_detail
