#include "analyze/analyst.h"

#include <algorithm>
#include <map>
#include <utility>

#include "analyze/category.h"
#include "analyze/static_prose.h"
#include "scan/template.h"
#include "util/text.h"

namespace errdex::analyze {
namespace {

// The seed's window: 18 lines either side of the throwing line.
constexpr int k_window = 18;

}  // namespace

std::string record_id(std::string_view repo, std::string_view path, std::string_view error_class,
                      std::string_view message, int ordinal) {
  std::string key;
  key.reserve(repo.size() + path.size() + error_class.size() + message.size() + 16);
  key.append(repo).push_back('\0');
  key.append(path).push_back('\0');
  key.append(error_class).push_back('\0');
  key.append(message).push_back('\0');
  key.append(std::to_string(ordinal));
  return util::hex64(util::fnv1a64(key));
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

  for (std::size_t idx : order) {
    const model::ThrowSite& s = sites[idx];
    model::ErrorRecord r;
    r.repo = ctx.repo;
    r.file_path = ctx.file_path;
    r.error_class = s.error_class;
    r.error_message = scan::template_text(s.message);
    r.message_pattern = scan::template_pattern(s.message);
    r.slug = scan::slugify(r.error_message);
    int ordinal = ordinals[{r.error_class, r.error_message}]++;
    r.id = record_id(ctx.repo, ctx.file_path, r.error_class, r.error_message, ordinal);
    r.error_type = category_of(s.error_class);
    r.http_status = http_status_of(s.error_class);
    r.error_code = std::nullopt;
    r.severity = s.kind == "warn" ? "warning" : "error";
    r.line_number = s.line;
    r.source_code_start = std::max(1, s.line - k_window);
    r.source_code_end = std::min(std::max(n_lines, s.line), s.line + k_window);
    std::string code;
    for (int l = r.source_code_start; l <= r.source_code_end && l <= n_lines; ++l) {
      if (l > r.source_code_start) code += '\n';
      code.append(lines[l - 1]);
    }
    r.source_code = std::move(code);
    r.analyzed_sha = ctx.sha;
    r.analyzed_at = ctx.analyzed_at;
    r.github_url = "https://github.com/" + ctx.repo + "/blob/" + (ctx.link_ref.empty() ? ctx.sha : ctx.link_ref) + "/" + ctx.file_path + "#L" +
                   std::to_string(r.source_code_start) + "-L" + std::to_string(r.source_code_end);
    write_static_prose(s, r);
    out.push_back(std::move(r));
  }
  return out;  // in line order
}

}  // namespace errdex::analyze
