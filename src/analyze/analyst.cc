#include "analyze/analyst.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>

#include "analysis_version.h"  // generated: ERRDEX_ANALYSIS_VERSION
#include "analyze/category.h"
#include "analyze/javascript_prose.h"
#include "analyze/lints.h"
#include "analyze/static_prose.h"
#include "scan/conditional_text.h"
#include "scan/template.h"
#include "util/text.h"

namespace errdex::analyze {
namespace {

// The seed's window: 18 lines either side of the throwing line.
constexpr int k_window = 18;
// A line of the excerpt longer than this (minified or bundled code, a data
// table) is cut to this many bytes with "…" where it was cut: around the
// raise on the raising line, from its start on the others. A bundle's one
// line would otherwise put the whole file in every record it raises.
constexpr std::size_t k_max_excerpt_line = 1000;
// Records errdex writes: version 2's fields plus analysis and lints.
constexpr int k_schema_version = 3;

// `line`, or the k_max_excerpt_line bytes of it around `anchor` (where the
// raise starts; npos for the line's start), cut on UTF-8 character
// boundaries and marked with "…".
std::string excerpt_line(std::string_view line, std::size_t anchor) {
  if (line.size() <= k_max_excerpt_line) return std::string(line);
  std::size_t from = anchor == std::string_view::npos || anchor < k_max_excerpt_line / 4 ? 0 : anchor - k_max_excerpt_line / 4;
  from = std::min(from, line.size() - k_max_excerpt_line);
  std::size_t to = from + k_max_excerpt_line;
  auto continuation = [&](std::size_t i) { return i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80; };
  while (from > 0 && continuation(from)) --from;
  while (continuation(to)) --to;
  std::string out = from > 0 ? "…" : "";
  out.append(line.substr(from, to - from));
  if (to < line.size()) out += "…";
  return out;
}

bool is_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// `name=value` of a keyword argument, value trimmed; "" when `arg` is not one.
std::pair<std::string, std::string> keyword(const std::string& arg) {
  auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0 || (eq + 1 < arg.size() && arg[eq + 1] == '=')) return {};
  std::string name(util::trim(std::string_view(arg).substr(0, eq)));
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return {};
  return {name, std::string(util::trim(std::string_view(arg).substr(eq + 1)))};
}

// A plain string literal's content ('E42', "E42"), "" otherwise.
std::string string_literal(const std::string& v) {
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front() &&
      v.find('\\') == std::string::npos && v.find(v.front(), 1) == v.size() - 1)
    return v.substr(1, v.size() - 2);
  return {};
}

std::optional<int> status_number(const std::string& v) {
  if (is_digits(v) && v.size() == 3) {
    int n = std::stoi(v);
    if (n >= 100 && n <= 599) return n;
  }
  // http.HTTPStatus / starlette / DRF spellings.
  static const std::pair<const char*, int> k_names[] = {
      {"BAD_REQUEST", 400}, {"UNAUTHORIZED", 401}, {"FORBIDDEN", 403}, {"NOT_FOUND", 404},
      {"METHOD_NOT_ALLOWED", 405}, {"CONFLICT", 409}, {"GONE", 410}, {"UNPROCESSABLE_ENTITY", 422},
      {"TOO_MANY_REQUESTS", 429}, {"INTERNAL_SERVER_ERROR", 500}, {"NOT_IMPLEMENTED", 501},
      {"BAD_GATEWAY", 502}, {"SERVICE_UNAVAILABLE", 503}, {"GATEWAY_TIMEOUT", 504}};
  auto at = v.find("HTTP_");
  if (at != std::string::npos && at + 8 <= v.size() && is_digits(v.substr(at + 5, 3))) return status_number(v.substr(at + 5, 3));
  auto dot = v.rfind('.');
  if (dot != std::string::npos && v.find("HTTPStatus") != std::string::npos)
    for (const auto& [name, n] : k_names)
      if (v.compare(dot + 1, std::string::npos, name) == 0) return n;
  return std::nullopt;
}

std::string category_for(const model::ThrowSite& s, const ClassIndex::Resolution& res) {
  const std::string& b = res.builtin;
  bool generic = b.empty() || b == "Exception" || b == "BaseException" || b == "Warning" || b == "UserWarning";
  if (!generic && b != s.error_class) return category_of(b);
  return category_of(s.error_class);
}

}  // namespace

std::optional<std::string> error_code_of(const model::ThrowSite& s) {
  for (const auto& a : s.args) {
    auto [name, value] = keyword(a);
    if (name == "code" || name == "error_code" || name == "errcode" || name == "errno") {
      std::string lit = string_literal(value);
      if (!lit.empty() && lit.size() <= 64) return lit;
      if (is_digits(value) && value.size() <= 9) return value;
    }
    if (name.empty() && a.compare(0, 7, "errno.E") == 0 && a.size() <= 40 &&
        std::all_of(a.begin() + 6, a.end(), [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }))
      return a.substr(6);
  }
  // A code leading the message: "E0308: ...", "[E042] ...".
  if (!s.message.parts.empty() && s.message.parts.front().literal) {
    std::string_view t = s.message.parts.front().text;
    std::size_t i = t.size() > 0 && t[0] == '[' ? 1 : 0, j = i;
    while (j < t.size() && t[j] >= 'A' && t[j] <= 'Z') ++j;
    std::size_t letters = j - i;
    std::size_t k = j;
    while (k < t.size() && t[k] >= '0' && t[k] <= '9') ++k;
    bool closed = i == 0 ? (k < t.size() && t[k] == ':') : (k < t.size() && t[k] == ']');
    if (letters >= 1 && letters <= 4 && k - j >= 2 && k - j <= 5 && closed) return std::string(t.substr(i, k - i));
  }
  return std::nullopt;
}

std::optional<int> http_status_of_site(const model::ThrowSite& s, const ClassIndex::Resolution& res) {
  for (const auto& c : res.chain)
    if (auto st = http_status_of(c)) return st;
  bool http_class = false;
  for (const auto& c : res.chain)
    if (c.find("HTTP") != std::string::npos || c.find("Http") != std::string::npos) http_class = true;
  bool first_positional = true;
  for (const auto& a : s.args) {
    auto [name, value] = keyword(a);
    if (name == "status_code" || name == "status" || (http_class && name == "code")) {
      if (auto n = status_number(value)) return n;
    }
    if (name.empty()) {
      if (auto n = status_number(a); n && (http_class || a.find("HTTP") != std::string::npos) &&
                                     (first_positional || !is_digits(a)))
        return n;
      first_positional = false;
    }
  }
  return std::nullopt;
}

std::string record_id(std::string_view repo, std::string_view path, std::string_view error_class,
                      std::string_view message, int ordinal) {
  std::string key;
  key.reserve(repo.size() + path.size() + error_class.size() + message.size() + 16);
  key.append(repo).push_back('\0');
  key.append(path).push_back('\0');
  key.append(error_class).push_back('\0');
  key.append(message).push_back('\0');
  key.append(std::to_string(ordinal));
  return util::hex64(util::mix64(util::fnv1a64(key)));
}

void stamp(model::ErrorRecord& r, const FileContext& ctx) {
  r.analyzed_sha = ctx.sha;
  r.analyzed_at = ctx.analyzed_at;
  if (r.analysis) r.analysis->at = ctx.analyzed_at;
  // A package from a registry (pypi/requests, npm/semver) is not a GitHub
  // repository, and its files are laid out as installed: no link beats a
  // wrong one.
  r.github_url.clear();
  if (!ctx.repo.starts_with("pypi/") && !ctx.repo.starts_with("npm/"))
    r.github_url = "https://github.com/" + ctx.repo + "/blob/" +
                   util::url_path_encode(ctx.link_ref.empty() ? ctx.sha : ctx.link_ref) + "/" +
                   util::url_path_encode(ctx.file_path) + "#L" + std::to_string(r.source_code_start) + "-L" + std::to_string(r.source_code_end);
}

std::vector<model::ErrorRecord> analyze_file(const FileContext& ctx, const std::vector<model::ThrowSite>& sites) {
  std::vector<model::ErrorRecord> out;
  out.reserve(sites.size());
  auto lines = util::split_lines(ctx.source);
  const int n_lines = static_cast<int>(lines.size());
  std::map<std::pair<std::string, std::string>, int> ordinals;

  // Ordinals count identical (class, template) sites in line order, so a
  // site keeps its id when code above it moves.
  std::vector<std::size_t> order(sites.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sites[a].line < sites[b].line; });

  FileCallers callers;
  // The analyst speaks the site's language.
  const bool javascript = is_javascript_file(ctx.file_path);
  std::shared_ptr<const FileProse> earlier_prose;
  std::shared_ptr<FileProse> next_prose;
  if (ctx.prose && !javascript) {
    earlier_prose = ctx.prose->earlier(ctx.file_path);
    next_prose = std::make_shared<FileProse>();
  }
  std::size_t prose_reused = 0;
  for (std::size_t idx : order) {
    const model::ThrowSite& s = sites[idx];
    model::ErrorRecord r;
    r.repo = ctx.repo;
    r.file_path = ctx.file_path;
    r.error_class = s.error_class;
    // `{'s' if n != 1 else ''}` shows one of its texts: the first is the
    // message, the others variants.
    const std::vector<model::MessageTemplate> shown = scan::conditional_texts(s.message);
    r.error_message = scan::template_text(shown.front());
    r.message_pattern = scan::template_pattern(shown.front());
    r.slug = scan::slugify(r.error_message);
    int ordinal = ordinals[{r.error_class, r.error_message}]++;
    r.id = record_id(ctx.repo, ctx.file_path, r.error_class, r.error_message, ordinal);
    ClassIndex::Resolution res = ctx.classes ? ctx.classes->resolve(s.error_class, ctx.file_path) : ClassIndex{}.resolve(s.error_class);
    r.error_type = category_for(s, res);
    r.http_status = http_status_of_site(s, res);
    r.error_code = error_code_of(s);
    r.severity = s.kind == "warn" ? "warning" : "error";
    r.line_number = s.line;
    r.source_code_start = std::max(1, s.line - k_window);
    r.source_code_end = std::min(std::max(n_lines, s.line), s.line + k_window);
    std::string code;
    for (int l = r.source_code_start; l <= r.source_code_end && l <= n_lines; ++l) {
      if (l > r.source_code_start) code += '\n';
      std::string_view line = lines[l - 1];
      const std::size_t anchor =
          l == s.line && !s.raised_text.empty() ? line.find(std::string_view(s.raised_text).substr(0, 40)) : std::string_view::npos;
      code += excerpt_line(line, anchor);
    }
    r.source_code = std::move(code);
    r.schema_version = k_schema_version;
    r.analysis = model::Analysis{"static", "", 0, {}, ctx.analyzed_at};
    stamp(r, ctx);
    r.lints = lint_site(s, res.builtin);
    auto add_variant = [&](const model::MessageTemplate& alt) {
      model::MessageVariant v{scan::template_text(alt), scan::template_pattern(alt)};
      if (v.error_message == r.error_message) return;
      if (std::find(r.message_variants.begin(), r.message_variants.end(), v) == r.message_variants.end())
        r.message_variants.push_back(std::move(v));
    };
    for (std::size_t k = 1; k < shown.size(); ++k) add_variant(shown[k]);
    for (const auto& alt : s.alternatives)
      for (const model::MessageTemplate& t : scan::conditional_texts(alt)) add_variant(t);
    if (javascript)
      write_javascript_prose(s, r, ProseContext{ctx.source, lines, std::move(res), &callers});
    else
      prose_reused += write_static_prose(
          s, r, ProseContext{ctx.source, lines, std::move(res), &callers, ctx.docstrings, earlier_prose.get(), next_prose.get()});
    out.push_back(std::move(r));
  }
  if (next_prose) {
    ctx.prose->reused += prose_reused;
    ctx.prose->written += sites.size() - prose_reused;
    ctx.prose->keep(ctx.file_path, std::move(next_prose));
  }
  return out;  // in line order
}

std::string_view analysis_version() { return ERRDEX_ANALYSIS_VERSION; }

}  // namespace errdex::analyze
