// Texts other files give a site of the repository: what they pass to a
// function that throws its parameter (link_javascript_caller_messages in
// frontend.h), and the text constants a message imports
// (link_javascript_imported_constants).
#include <algorithm>
#include <array>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
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
  // Its file's sites the text reaches, each with the position the text is
  // at in the function's calls (ThrowSite::message_param_position, or a
  // forwarder's).
  std::vector<std::pair<std::size_t, int>> sites;
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

void offer(model::ThrowSite& site, int position, const model::MessageCall& c) {
  if (c.position != position || c.message.parts.empty()) return;
  add_given(site, site.message_param, c.message, k_max_alternatives);
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
      auto add = [&](const std::string& name, int position) {
        auto [it, added] = by_name.emplace(name, Helper{i, {}});
        if (!added && it->second.file != i) it->second.file = files.size();
        it->second.sites.emplace_back(k, position);
      };
      add(s.function, s.message_param_position);
      for (const std::string& f : s.message_forwarders)
        if (const std::size_t colon = f.rfind(':'); colon != std::string::npos && colon + 1 < f.size())
          add(f.substr(0, colon), std::atoi(f.c_str() + colon + 1));
    }
  }
  if (by_name.empty()) return;
  // `pp.raiseRecoverable = pp.raise` in the helper's file: calls of the
  // other name reach the same sites.
  for (std::size_t i = 0; i < n; ++i) {
    if (!javascript[i]) continue;
    for (const model::Binding& b : files[i].module_bindings) {
      const std::size_t dot = b.name.find('.');
      if (dot == std::string::npos || b.value.size() <= dot + 1 || b.value.compare(0, dot + 1, b.name, 0, dot + 1) != 0)
        continue;
      auto it = by_name.find(b.value.substr(dot + 1));
      if (it == by_name.end() || it->second.file != i) continue;
      Helper copy = it->second;
      by_name.try_emplace(b.name.substr(dot + 1), std::move(copy));
    }
  }
  // The files of the repository each file's relative imports name.
  std::unordered_map<std::size_t, std::vector<std::size_t>> imported_files;
  auto imports_of = [&](std::size_t i) -> const std::vector<std::size_t>& {
    auto [it, added] = imported_files.try_emplace(i);
    if (added)
      for (const model::ImportFact& imp : files[i].imports)
        for (std::size_t k = 0; k < n; ++k)
          if (k != i && javascript[k] && names_file(paths[i], imp.module, paths[k])) it->second.push_back(k);
    return it->second;
  };
  // `this.raise(pos, 'Unexpected token')` in a file that defines no
  // `raise` of its own reaches the one file's `raise` when it imports that
  // file (a subclass), or both import one same file (acorn's files each
  // extend `Parser.prototype`, imported from `./state.js`).
  auto reaches_by_this = [&](std::size_t j, std::size_t h, std::string_view name) {
    if (std::any_of(files[j].functions.begin(), files[j].functions.end(),
                    [&](const model::FunctionCalls& f) { return f.name == name; }))
      return false;
    const auto& from = imports_of(j);
    if (std::find(from.begin(), from.end(), h) != from.end()) return true;
    const auto& shared = imports_of(h);
    return std::any_of(from.begin(), from.end(),
                       [&](std::size_t k) { return std::find(shared.begin(), shared.end(), k) != shared.end(); });
  };
  for (std::size_t j = 0; j < n; ++j) {
    if (!javascript[j]) continue;
    for (const model::MessageCall& c : files[j].message_calls) {
      if (c.callee.starts_with("this.")) {
        const std::string_view name = std::string_view(c.callee).substr(5);
        auto it = by_name.find(std::string(name));
        if (it == by_name.end() || it->second.file >= files.size() || it->second.file == j ||
            !reaches_by_this(j, it->second.file, name))
          continue;
        for (auto [k, position] : it->second.sites) offer(files[it->second.file].sites[k], position, c);
        continue;
      }
      const auto via = imported(files[j], c.callee);
      if (!via) continue;
      auto fits = [&](const std::string& name, const Helper& h) {
        return h.file < files.size() && h.file != j && exports_as(files[h.file], via->exported, name) &&
               names_file(paths[j], via->module, paths[h.file]);
      };
      auto give = [&](const Helper& h) {
        for (auto [k, position] : h.sites) offer(files[h.file].sites[k], position, c);
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

namespace {

// The text of a plain JavaScript string literal as written (`'Connection is
// closed.'`, `"…"`), when it holds no escape; nullopt otherwise.
std::optional<std::string> plain_text(std::string_view literal) {
  if (literal.size() < 2 || (literal.front() != '\'' && literal.front() != '"') || literal.back() != literal.front())
    return std::nullopt;
  std::string_view inside = literal.substr(1, literal.size() - 2);
  if (inside.find('\\') != std::string_view::npos) return std::nullopt;
  return std::string(inside);
}

}  // namespace

void link_javascript_imported_constants(std::vector<model::FileFacts>& files, const std::vector<bool>& javascript,
                                        const std::vector<std::string>& paths) {
  const std::size_t n = std::min({files.size(), javascript.size(), paths.size()});
  // Each file's names bound once to a plain text, read when a message asks.
  std::unordered_map<std::size_t, std::unordered_map<std::string_view, std::string>> texts_of;
  auto texts = [&](std::size_t k) -> const std::unordered_map<std::string_view, std::string>& {
    auto [it, added] = texts_of.try_emplace(k);
    if (!added) return it->second;
    std::unordered_map<std::string_view, int> bound;
    for (const model::Binding& b : files[k].module_bindings) ++bound[b.name];
    for (const model::Binding& b : files[k].module_bindings)
      if (bound[b.name] == 1)
        if (auto t = plain_text(b.value)) it->second.emplace(b.name, std::move(*t));
    return it->second;
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (!javascript[i] || files[i].sites.empty() || files[i].imports.empty()) continue;
    // `{NAME}` or `{ns.NAME}` of an import from a file of the repository.
    auto value_of = [&](const model::TemplatePart& p) -> const std::string* {
      if (p.literal || (!p.display.empty() && p.display != p.text)) return nullptr;
      auto via = imported(files[i], p.text);
      // `{MESSAGES.badInput}` of a table imported by name: its entry.
      std::string entry;
      if (const std::size_t dot = p.text.find('.'); !via && dot != std::string::npos) {
        if (auto table = imported(files[i], std::string_view(p.text).substr(0, dot))) {
          entry = std::string(table->exported) + p.text.substr(dot);
          via = Imported{entry, table->module};
        }
      }
      if (!via || !(via->module.starts_with("./") || via->module.starts_with("../"))) return nullptr;
      const std::string* found = nullptr;
      for (std::size_t k = 0; k < n; ++k) {
        if (k == i || !javascript[k] || files[k].module_bindings.empty() || !names_file(paths[i], via->module, paths[k]))
          continue;
        const auto& t = texts(k);
        auto it = t.find(via->exported);
        if (it == t.end() || (found && *found != it->second)) return nullptr;
        found = &it->second;
      }
      return found;
    };
    auto fill = [&](model::MessageTemplate& t) {
      if (std::none_of(t.parts.begin(), t.parts.end(), [&](const model::TemplatePart& p) { return value_of(p) != nullptr; }))
        return;
      std::vector<model::TemplatePart> out;
      for (model::TemplatePart& p : t.parts) {
        if (const std::string* v = value_of(p)) append_literal(out, *v);
        else out.push_back(std::move(p));
      }
      t.parts = std::move(out);
      t.from_literals = true;
      if (std::all_of(t.parts.begin(), t.parts.end(), [](const model::TemplatePart& p) { return p.literal; }) &&
          (t.style == "expression" || t.style == "variable"))
        t.style = "string";
    };
    for (model::ThrowSite& site : files[i].sites) {
      fill(site.message);
      for (model::MessageTemplate& t : site.alternatives) fill(t);
    }
  }
}

}  // namespace errdex::scan
