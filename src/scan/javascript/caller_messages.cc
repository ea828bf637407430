// Texts other files pass to a function of the repository that throws its
// parameter (link_javascript_caller_messages in frontend.h).
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "scan/javascript/frontend.h"
#include "scan/tree_walk.h"
#include "util/text.h"

namespace errdex::scan {
namespace {

constexpr std::size_t k_max_alternatives = 64;
constexpr std::array<std::string_view, 8> k_extensions = {".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"};

// `path` without its JavaScript extension, "" when it has none.
std::string_view stem_of(std::string_view path) {
  for (auto e : k_extensions)
    if (path.ends_with(e)) return path.substr(0, path.size() - e.size());
  return {};
}

// Whether the specifier `spec`, imported by the file at `from`, names the
// file at `target`: `./x` for x.js or x.ts, `./x.js` for x.ts (as
// TypeScript writes it), `./x` for x/index.js.
bool names_file(std::string_view from, std::string_view spec, std::string_view target) {
  if (!spec.starts_with("./") && !spec.starts_with("../")) return false;  // a package's
  const std::optional<std::string> joined = util::join_path(util::dir_of(from), spec);
  if (!joined || joined->empty()) return false;
  const std::string& base = *joined;
  if (base == target) return true;
  const std::string_view target_stem = stem_of(target);
  if (target_stem.empty()) return false;
  if (std::string_view written = stem_of(base); !written.empty() && written == target_stem) return true;
  return base == target_stem || base + "/index" == target_stem;
}

struct Helper {
  std::size_t file = 0;  // the file defining it; files.size() when several do
  std::vector<std::size_t> sites;
};

// What a call's callee names through one of the importing file's imports:
// the name it is exported as, and the specifier of the module. `f` bare:
// `import {f}`, `import {g as f}`, `import f from` ("default"), `const {f} =
// require(…)`; `ns.f`: `import * as ns`, `const ns = require(…)`.
struct Imported {
  std::string_view exported, module;
};

std::optional<Imported> imported(const model::FileFacts& facts, std::string_view callee) {
  const auto dot = callee.find('.');
  if (dot != std::string_view::npos && callee.find('.', dot + 1) != std::string_view::npos) return std::nullopt;
  for (const model::ImportFact& imp : facts.imports) {
    if (dot == std::string_view::npos) {
      const bool binds = imp.alias.empty() ? imp.name == callee : imp.alias == callee;
      if (binds && !imp.name.empty() && imp.name != "*") return Imported{imp.name, imp.module};
    } else if (imp.name.empty() && imp.alias == callee.substr(0, dot)) {
      return Imported{callee.substr(dot + 1), imp.module};
    }
  }
  return std::nullopt;
}

// Whether the file exports its function `function` as `exported`: by its
// name, or under another (`export default invariant`: "default=invariant").
bool exports_as(const model::FileFacts& facts, std::string_view exported, std::string_view function) {
  if (exported == function) return true;
  for (const std::string& e : facts.exports) {
    const auto eq = e.find('=');
    if (eq != std::string::npos && std::string_view(e).substr(0, eq) == exported &&
        std::string_view(e).substr(eq + 1) == function)
      return true;
  }
  return false;
}

void offer(model::ThrowSite& site, const model::MessageCall& c) {
  if (c.position != site.message_param_position || site.alternatives.size() >= k_max_alternatives) return;
  const model::MessageTemplate& t = c.message;
  if (t.parts.empty()) return;
  if (same_parts(t, site.message) || std::any_of(site.alternatives.begin(), site.alternatives.end(),
                                                 [&](const model::MessageTemplate& a) { return same_parts(a, t); }))
    return;
  site.alternatives.push_back(t);
}

}  // namespace

void link_javascript_caller_messages(std::vector<model::FileFacts>& files, const std::vector<bool>& javascript,
                                     const std::vector<std::string>& paths) {
  const std::size_t n = std::min({files.size(), javascript.size(), paths.size()});
  std::unordered_map<std::string, Helper> by_name;
  for (std::size_t i = 0; i < n; ++i) {
    if (!javascript[i]) continue;
    for (std::size_t k = 0; k < files[i].sites.size(); ++k) {
      const model::ThrowSite& s = files[i].sites[k];
      if (s.message_param.empty() || s.function.empty() || s.message_param_position < 0 || s.kind != "raise") continue;
      auto [it, added] = by_name.emplace(s.function, Helper{i, {}});
      if (!added && it->second.file != i) it->second.file = files.size();
      it->second.sites.push_back(k);
    }
  }
  if (by_name.empty()) return;
  for (std::size_t j = 0; j < n; ++j) {
    if (!javascript[j]) continue;
    for (const model::MessageCall& c : files[j].message_calls) {
      const auto via = imported(files[j], c.callee);
      if (!via) continue;
      auto fits = [&](const std::string& name, const Helper& h) {
        return h.file < files.size() && h.file != j && exports_as(files[h.file], via->exported, name) &&
               names_file(paths[j], via->module, paths[h.file]);
      };
      auto give = [&](const Helper& h) {
        for (std::size_t k : h.sites) offer(files[h.file].sites[k], c);
      };
      if (auto it = by_name.find(std::string(via->exported)); it != by_name.end()) {
        if (fits(it->first, it->second)) give(it->second);
        continue;
      }
      // A default export (`export default invariant`): the helpers of the
      // file the import names.
      if (via->exported == "default")
        for (const auto& [name, h] : by_name)
          if (fits(name, h)) give(h);
    }
  }
}

}  // namespace errdex::scan
