#include "analyze/observed.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

namespace errdex::analyze {

namespace {

using nlohmann::json;

std::string string_at(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

int int_at(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_number_integer() ? it->get<int>() : 0;
}

std::optional<Observation> observation_of(std::string_view line) {
  json o = json::parse(line, nullptr, false);
  if (o.is_discarded() || !o.is_object()) return std::nullopt;
  Observation out;
  out.error_class = string_at(o, "class");
  if (auto it = o.find("bases"); it != o.end() && it->is_array())
    for (const auto& b : *it)
      if (b.is_string()) out.bases.push_back(b.get<std::string>());
  if (auto it = o.find("raised"); it != o.end() && it->is_array())
    for (const auto& f : *it)
      if (f.is_array() && f.size() == 2 && f[0].is_string() && f[1].is_number_integer() && f[1].get<int>() > 0)
        out.raised.emplace_back(f[0].get<std::string>(), f[1].get<int>());
  auto test = o.find("test");
  if (test == o.end() || !test->is_object()) return std::nullopt;
  out.test_file = string_at(*test, "file");
  out.test_line = int_at(*test, "line");
  out.test_name = string_at(*test, "name");
  out.code = string_at(*test, "code");
  if (out.raised.empty() || out.error_class.empty() || out.test_file.empty() || out.test_line <= 0 ||
      out.test_name.empty())
    return std::nullopt;
  return out;
}

// The path's last components, longest first ("a/b/c.py", "b/c.py", "c.py").
template <typename F>
void for_each_suffix(std::string_view path, F&& f) {
  std::size_t from = 0;
  while (from < path.size()) {
    if (path[from] != '/') {
      if (!f(path.substr(from))) return;
      from = path.find('/', from);
      if (from == std::string_view::npos) return;
    }
    ++from;
  }
}

std::string_view last_name(std::string_view dotted) {
  auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

bool plain_dotted_name(std::string_view s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return c == '.' || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  });
}

// A record of class `record_class` is the error observed: the same class,
// or one of its bases (a record names the class it raises as written; an
// alias or a re-export keeps the last name). A class the code computes
// (`self.failure_exception`) cannot be told: the place decides.
bool class_fits(std::string_view record_class, const Observation& o) {
  if (record_class.empty() || !plain_dotted_name(record_class)) return true;
  const std::string_view name = last_name(record_class);
  if (name == last_name(o.error_class)) return true;
  return std::any_of(o.bases.begin(), o.bases.end(), [&](const std::string& b) { return last_name(b) == name; });
}

}  // namespace

Observations parse_observations(std::string_view text) {
  Observations out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.empty()) continue;
    if (auto o = observation_of(line))
      out.items.push_back(std::move(*o));
    else
      ++out.bad_lines;
  }
  return out;
}

Expected<Observations> read_observations(const std::string& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) return Error{file + " is a folder, not an observations file"};
  std::ifstream in(file, std::ios::binary);
  if (!in) return Error{"cannot read observations file " + file};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Error{"cannot read observations file " + file};
  return parse_observations(text.str());
}

Expected<Observations> read_observations(const std::vector<std::string>& files) {
  Observations out;
  for (const auto& file : files) {
    auto read = read_observations(file);
    if (!read) return read;
    out.bad_lines += read->bad_lines;
    for (auto& o : read->items) out.items.push_back(std::move(o));
  }
  return out;
}

ObservedPaths::ObservedPaths(std::string root, std::string prefix, const std::vector<std::string>& paths)
    : m_root(std::move(root)), m_prefix(std::move(prefix)) {
  while (m_root.size() > 1 && m_root.back() == '/') m_root.pop_back();
  while (!m_prefix.empty() && m_prefix.back() == '/') m_prefix.pop_back();
  for (const auto& p : paths) {
    m_paths.emplace(p, p);
    for_each_suffix(p, [&](std::string_view s) {
      auto [it, added] = m_suffixes.emplace(std::string(s), p);
      if (!added && it->second != p) it->second.clear();
      return true;
    });
  }
}

std::optional<std::string> ObservedPaths::resolve(std::string_view printed) const {
  // A module the interpreter runs frozen (`<frozen importlib._bootstrap>`,
  // `<frozen os>`) is its source file's.
  if (printed.starts_with("<frozen ") && printed.ends_with(">")) {
    std::string module(printed.substr(8, printed.size() - 9));
    if (module.empty() || !plain_dotted_name(module)) return std::nullopt;
    std::replace(module.begin(), module.end(), '.', '/');
    return resolve(module + ".py");
  }
  if (!m_root.empty() && printed.size() > m_root.size() + 1 && printed.starts_with(m_root) &&
      printed[m_root.size()] == '/') {
    std::string rel(printed.substr(m_root.size() + 1));
    if (!m_prefix.empty()) rel = m_prefix + "/" + rel;
    if (auto it = m_paths.find(rel); it != m_paths.end()) return it->second;
    return std::nullopt;
  }
  std::optional<std::string> out;
  for_each_suffix(printed, [&](std::string_view s) {
    auto it = m_suffixes.find(std::string(s));
    if (it == m_suffixes.end()) return true;  // a shorter ending may be a file's
    if (!it->second.empty()) out = it->second;
    return false;  // the longest ending decides, one file or several
  });
  return out;
}

bool ObservedLinks::contradicts(const std::string& path, int line, std::size_t record) const {
  auto it = by_expectation.find(path + ':' + std::to_string(line));
  return it != by_expectation.end() && std::find(it->second.begin(), it->second.end(), record) == it->second.end();
}

ObservedLinks observed_tests(const Observations& observations, const ObservedPaths& paths,
                             const std::vector<model::ErrorRecord>& records, ObservedCounts* counts,
                             std::size_t max_tests) {
  std::unordered_map<std::string, std::vector<std::size_t>> at;  // "path:line" → records
  for (std::size_t i = 0; i < records.size(); ++i)
    at[records[i].file_path + ':' + std::to_string(records[i].line_number)].push_back(i);
  ObservedLinks links;
  auto& out = links.tests;
  out.resize(records.size());
  ObservedCounts n;
  n.observations = observations.items.size();
  std::unordered_map<std::string, std::optional<std::string>> resolved;
  auto resolve = [&](const std::string& printed) -> const std::optional<std::string>& {
    auto it = resolved.find(printed);
    if (it == resolved.end()) it = resolved.emplace(printed, paths.resolve(printed)).first;
    return it->second;
  };
  for (const auto& o : observations.items) {
    const auto& test_path = resolve(o.test_file);
    if (!test_path) continue;
    std::vector<std::size_t> linked;
    for (const auto& [file, line] : o.raised) {
      const auto& path = resolve(file);
      if (!path) continue;
      auto it = at.find(*path + ':' + std::to_string(line));
      if (it == at.end()) continue;
      for (std::size_t r : it->second)
        if (class_fits(records[r].error_class, o)) linked.push_back(r);
      if (!linked.empty()) break;
    }
    n.linked += !linked.empty();
    auto& seen = links.by_expectation[*test_path + ':' + std::to_string(o.test_line)];
    for (std::size_t r : linked) {
      out[r].push_back({*test_path, o.test_line, o.test_name, o.code});
      if (std::find(seen.begin(), seen.end(), r) == seen.end()) seen.push_back(r);
    }
  }
  // One entry per test line (a test of a mixin runs as each class that
  // uses it): the first by name, whatever order the runs wrote in.
  for (auto& tests : out) {
    if (tests.empty()) continue;
    ++n.records;
    std::sort(tests.begin(), tests.end(), [](const model::TestEvidence& a, const model::TestEvidence& b) {
      return std::tie(a.file_path, a.line_number, a.name) < std::tie(b.file_path, b.line_number, b.name);
    });
    tests.erase(std::unique(tests.begin(), tests.end(),
                            [](const model::TestEvidence& a, const model::TestEvidence& b) {
                              return a.file_path == b.file_path && a.line_number == b.line_number;
                            }),
                tests.end());
    if (tests.size() > max_tests) tests.resize(max_tests);
  }
  if (counts) *counts = n;
  return links;
}

}  // namespace errdex::analyze
