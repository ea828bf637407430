#include "match/path_suffix.h"

#include <algorithm>
#include <cctype>

namespace errdex::match {

void path_components(std::string_view path, std::vector<std::string_view>& out) {
  out.clear();
  // One pass over the characters (find_first_of searches its set anew at
  // each one).
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != '/' && path[i] != '\\') continue;
    std::string_view part = path.substr(begin, i - begin);
    if (!part.empty() && part != ".") out.push_back(part);
    begin = i + 1;
  }
}

std::vector<std::string_view> path_components(std::string_view path) {
  std::vector<std::string_view> out;
  path_components(path, out);
  return out;
}

std::size_t common_suffix(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  std::size_t k = 0;
  while (k < a.size() && k < b.size() && a[a.size() - 1 - k] == b[b.size() - 1 - k]) ++k;
  return k;
}

int suffix_agreement(const std::vector<std::string_view>& frame, const std::vector<std::string_view>& record) {
  const std::size_t k = common_suffix(frame, record);
  if (k == 0) return 0;
  if (k == record.size() || k >= 2) return static_cast<int>(k);
  return 0;
}

namespace {

// "python3", "python3.11", "python3.13t".
bool is_python_dir(std::string_view c) {
  if (c.substr(0, 6) != "python" || c.size() == 6) return false;
  c.remove_prefix(6);
  if (c.back() == 't') c.remove_suffix(1);
  bool digit = false;
  for (char ch : c) {
    if (ch >= '0' && ch <= '9') digit = true;
    else if (ch != '.') return false;
  }
  return digit;
}

}  // namespace

bool is_absolute_path(std::string_view path) {
  if (path.starts_with('/') || path.starts_with('\\')) return true;
  return path.size() >= 3 && std::isalpha(static_cast<unsigned char>(path[0])) && path[1] == ':' &&
         (path[2] == '\\' || path[2] == '/');
}

int module_start(const std::vector<std::string_view>& frame, bool windows) {
  // From the file outwards: the marker nearest the file wins, so a
  // virtualenv's `lib/python3.11/site-packages/pkg/x.py` reads `pkg/x.py`.
  for (std::size_t i = frame.size(); i-- > 1;) {
    std::string_view c = frame[i - 1];
    bool marker = c == "site-packages" || c == "dist-packages" || c.ends_with(".egg") || c.ends_with(".pyz") ||
                  c.ends_with(".zip") || (windows && c == "Lib") ||
                  (is_python_dir(c) && i >= 2 && (frame[i - 2] == "lib" || frame[i - 2] == "lib64"));
    if (marker) return static_cast<int>(i);
  }
  return -1;
}

namespace {

// "3.11" (and what follows it: ".7", "t") as 3011; 0 unless it starts with
// a major and a minor version.
std::uint32_t major_minor(std::string_view v) {
  std::uint32_t major = 0, minor = 0;
  std::size_t i = 0;
  for (; i < v.size() && i < 3 && v[i] >= '0' && v[i] <= '9'; ++i) major = major * 10 + static_cast<std::uint32_t>(v[i] - '0');
  if (i == 0 || i >= v.size() || v[i] != '.') return 0;
  const std::size_t at = ++i;
  for (; i < v.size() && i - at < 3 && v[i] >= '0' && v[i] <= '9'; ++i) minor = minor * 10 + static_cast<std::uint32_t>(v[i] - '0');
  if (i == at || (i < v.size() && v[i] != '.' && v[i] != 't')) return 0;
  return major * 1000 + minor;
}

}  // namespace

std::uint32_t python_version_of_path(const std::vector<std::string_view>& frame) {
  for (std::size_t i = frame.size(); i-- > 1;) {
    std::string_view c = frame[i];
    if ((frame[i - 1] == "lib" || frame[i - 1] == "lib64") && is_python_dir(c)) {
      if (std::uint32_t v = major_minor(c.substr(6))) return v;
    }
    // `C:\Python311\Lib\x.py`: one digit of major, the rest minor.
    if (i + 1 < frame.size() && frame[i + 1] == "Lib" && c.size() >= 8 && (c[0] == 'P' || c[0] == 'p') &&
        c.substr(1, 5) == "ython" && std::all_of(c.begin() + 6, c.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
      std::uint32_t minor = 0;
      for (char ch : c.substr(7)) minor = minor * 10 + static_cast<std::uint32_t>(ch - '0');
      if (c.size() <= 10) return static_cast<std::uint32_t>(c[6] - '0') * 1000 + minor;
    }
  }
  return 0;
}

std::uint32_t python_version_of_ref(std::string_view ref) {
  if (ref.starts_with('v')) ref.remove_prefix(1);
  return major_minor(ref);
}

std::optional<std::string> frozen_module_file(std::string_view file) {
  constexpr std::string_view k_open = "<frozen ";
  // Sentry's abs_path joins it to the working folder: `/srv/<frozen os>`.
  if (auto slash = file.find_last_of("/\\"); slash != std::string_view::npos && file.find(k_open) == slash + 1)
    file.remove_prefix(slash + 1);
  if (!file.starts_with(k_open) || !file.ends_with('>') || file.size() == k_open.size() + 1) return std::nullopt;
  const std::string_view name = file.substr(k_open.size(), file.size() - k_open.size() - 1);
  std::string out = "lib/python3/";
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') return std::nullopt;
    out += c == '.' ? '/' : c;
  }
  return out + ".py";
}

std::uint64_t module_lengths(const std::vector<std::string_view>& record, const std::vector<std::string>& roots) {
  std::uint64_t mask = 0;
  const std::size_t n = record.size();
  for (const std::string& root : roots) {
    auto parts = path_components(root);
    if (parts.size() >= n || n - parts.size() > 63) continue;
    if (std::equal(parts.begin(), parts.end(), record.begin())) mask |= std::uint64_t{1} << (n - parts.size());
  }
  return mask;
}

bool npm_package_path(const std::vector<std::string_view>& frame, std::string& package, std::size_t& file_start) {
  for (std::size_t i = frame.size(); i-- > 0;) {
    if (frame[i] != "node_modules") continue;
    std::size_t p = i + 1;
    if (p < frame.size() && frame[p].starts_with('@')) ++p;
    if (p + 1 >= frame.size()) return false;  // no file after the package
    // As its repository names it: a scoped `@scope/pkg` is `@scope__pkg`
    // (a repository is owner/name: npm/@scope__pkg).
    package.clear();
    for (std::size_t k = i + 1; k <= p; ++k) {
      if (k > i + 1) package += "__";
      package.append(frame[k]);
    }
    file_start = p + 1;
    return true;
  }
  // A CDN's URL: `https:`, the host, (`npm` on jsDelivr), `pkg@version`.
  if (frame.size() >= 4 && frame[0].ends_with(":")) {
    std::size_t p = frame[1] == "unpkg.com" ? 2 : frame[1] == "cdn.jsdelivr.net" && frame[2] == "npm" ? 3 : 0;
    if (p == 0) return false;
    std::size_t q = frame[p].starts_with('@') ? p + 1 : p;
    if (q + 1 >= frame.size()) return false;
    std::string_view name = frame[q].substr(0, frame[q].find('@'));
    if (name.empty()) return false;
    package.clear();
    if (q > p) package.append(frame[p]).append("__");
    package.append(name);
    file_start = q + 1;
    return true;
  }
  return false;
}

bool compiled_frame(const std::vector<std::string_view>& frame, CompiledFrame& out) {
  out.sources.clear();
  if (frame.size() < 2) return false;
  std::string_view base = frame.back();
  auto dot = base.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return false;
  std::string_view stem = base.substr(0, dot), ext = base.substr(dot);
  if (ext == ".js" || ext == ".jsx") {
    out.sources = {std::string(stem) + ".ts", std::string(stem) + ".tsx"};
  } else if (ext == ".mjs") {
    out.sources = {std::string(stem) + ".mts", std::string(stem) + ".ts"};
  } else if (ext == ".cjs") {
    out.sources = {std::string(stem) + ".cts", std::string(stem) + ".ts"};
  } else {
    return false;
  }
  static constexpr std::string_view k_output[] = {"dist", "lib", "build", "out", "built", "_dist"};
  static constexpr std::string_view k_format[] = {"esm", "cjs", "es", "mjs", "commonjs", "module", "umd", "node", "browser",
                                                  "es2015", "es2020", "esnext", "src"};
  for (std::size_t i = frame.size() - 1; i-- > 0;) {
    if (std::find(std::begin(k_output), std::end(k_output), frame[i]) == std::end(k_output)) continue;
    std::size_t inside = i + 1;
    while (inside + 1 < frame.size() &&
           std::find(std::begin(k_format), std::end(k_format), frame[inside]) != std::end(k_format))
      ++inside;
    out.inside = inside;
    return true;
  }
  out.sources.clear();
  return false;
}

bool compiled_from(const std::vector<std::string_view>& frame, const CompiledFrame& c,
                   const std::vector<std::string_view>& record) {
  const std::size_t n = frame.size() - c.inside;  // components inside the output folder
  if (record.size() < n || n == 0) return false;
  if (std::find(c.sources.begin(), c.sources.end(), record.back()) == c.sources.end()) return false;
  for (std::size_t k = 1; k < n; ++k)
    if (frame[frame.size() - 1 - k] != record[record.size() - 1 - k]) return false;
  if (record.size() == n) return true;
  static constexpr std::string_view k_source[] = {"src", "source", "ts", "lib"};
  std::string_view above = record[record.size() - 1 - n];
  return std::find(std::begin(k_source), std::end(k_source), above) != std::end(k_source);
}

}  // namespace errdex::match
