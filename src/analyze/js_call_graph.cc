#include "analyze/js_call_graph.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "analyze/caller_walk.h"
#include "util/text.h"

namespace errdex::analyze {
namespace {

// A chain of re-exports, or of `extends`, longer than this is a cycle.
constexpr int k_max_hops = 8;
// Methods of one name the repository may define for a call on a receiver
// of unknown type to stand for them all.
constexpr std::size_t k_max_guesses = 2;
// A test's walk down its calls' callees (reach): levels, and functions.
constexpr int k_max_reach_depth = 8;
constexpr std::size_t k_max_reached = 2048;

constexpr std::string_view k_extensions[] = {".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"};

using detail::join_dots;
using detail::split_dots;
using ::errdex::util::dir_of;
using ::errdex::util::join_path;

bool private_name(std::string_view n) { return n.starts_with('_') || n.starts_with('#'); }

}  // namespace

JsPackage read_package(std::string_view package_json) {
  JsPackage package;
  std::vector<std::string>& out = package.entries;
  auto j = nlohmann::json::parse(package_json, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return package;
  package.has_exports = j.contains("exports");
  auto add = [&](const nlohmann::json& v) {
    if (!v.is_string()) return;
    std::string p = v.get<std::string>();
    if (p.ends_with(".d.ts") || p.ends_with(".d.mts") || p.ends_with(".d.cts") || p.ends_with(".json") ||
        p.find('*') != std::string::npos)
      return;
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
  };
  for (const char* k : {"main", "module", "browser"})
    if (j.contains(k)) add(j[k]);
  // `exports`: a path, or conditions and subpaths nested to any depth.
  std::vector<const nlohmann::json*> stack;
  if (j.contains("exports")) stack.push_back(&j["exports"]);
  for (std::size_t n = 0; !stack.empty() && n < 4096; ++n) {
    const nlohmann::json* v = stack.back();
    stack.pop_back();
    if (v->is_string()) add(*v);
    else if (v->is_object() || v->is_array())
      for (const auto& x : *v) stack.push_back(&x);
  }
  return package;
}

bool is_javascript_path(std::string_view path) {
  for (auto d : {".d.ts", ".d.mts", ".d.cts"})
    if (path.ends_with(d)) return false;
  return std::any_of(std::begin(k_extensions), std::end(k_extensions), [&](auto e) { return path.ends_with(e); });
}

struct JsCallGraph::Impl {
  struct Binding {
    int module = -1;       // the file it comes from; -1 outside the repository
    std::string imported;  // "" the module itself (a namespace), else the name it exports
  };
  struct Module {
    std::string_view path;
    const model::FileFacts* facts = nullptr;
    std::unordered_map<std::string, int> defs;  // qualname → node
    std::unordered_map<int, int> by_line;       // a function's line → node (closures: the one around)
    std::unordered_map<std::string, std::vector<std::string>> classes;  // name → bases as written
    std::unordered_map<std::string, Binding> bindings;
    std::vector<int> stars;                                    // `export * from`
    std::unordered_map<std::string, std::string> exports;      // exported → local
    std::unordered_set<std::string> exported_locals;
    std::unordered_map<std::string, std::string> assigned;     // top level: name → class as written
    // Class → `this.x` → class as written, from its methods' `this.x = new C()`.
    std::unordered_map<std::string, std::unordered_map<std::string, std::string>> attributes;
  };
  struct Node {
    int module = -1;
    const model::FunctionCalls* fn = nullptr;
    std::string cls;  // the class of a method
  };
  struct Ref {
    enum Kind { none, module, function, klass } kind = none;
    int module_index = -1;
    std::string name;  // the class
    int node = -1;
  };

  std::vector<Module> modules;
  std::unordered_map<std::string_view, int> module_by_path;
  std::vector<Node> nodes;
  std::vector<std::vector<int>> callees, callers;
  std::unordered_map<std::string_view, std::vector<int>> methods_named;
  std::size_t edge_count = 0;

  int resolve_module(std::string_view from, std::string_view spec) const {
    if (!spec.starts_with("./") && !spec.starts_with("../") && spec != "." && spec != "..") return -1;
    auto base = join_path(dir_of(from), spec);
    if (!base) return -1;
    auto find = [&](const std::string& p) {
      auto it = module_by_path.find(p);
      return it == module_by_path.end() ? -1 : it->second;
    };
    if (int m = find(*base); m >= 0) return m;
    // TypeScript imports `./x.js` for `./x.ts`.
    for (auto [written, source] : {std::pair{".js", ".ts"}, {".js", ".tsx"}, {".mjs", ".mts"}, {".cjs", ".cts"},
                                   {".jsx", ".tsx"}})
      if (std::string_view(*base).ends_with(written))
        if (int m = find(base->substr(0, base->size() - std::strlen(written)) + source); m >= 0) return m;
    for (auto e : k_extensions)
      if (int m = find(*base + std::string(e)); m >= 0) return m;
    for (auto e : k_extensions)
      if (int m = find(*base + "/index" + std::string(e)); m >= 0) return m;
    return -1;
  }

  // Modules a package's entry files lead to, and whether a module's
  // folder belongs to a package with `exports` whose entry files were
  // found (then it is public only when reachable).
  std::vector<char> reachable, packaged;

  // The module a package's entry names, or its source (see the header).
  int entry_module(const std::string& dir, const std::string& entry) const {
    const std::string from = dir.empty() ? "package.json" : dir + "/package.json";
    std::string spec = entry.starts_with("./") || entry.starts_with("../") ? entry : "./" + entry;
    if (int m = resolve_module(from, spec); m >= 0) return m;
    static const std::unordered_set<std::string_view> k_build = {"dist", "build", "lib", "out", "npmDist", "cjs", "esm"};
    auto parts = join_path("", spec);
    if (!parts) return -1;
    std::string_view rest = *parts;
    while (true) {
      auto slash = rest.find('/');
      if (slash == std::string_view::npos || !k_build.contains(rest.substr(0, slash))) break;
      rest.remove_prefix(slash + 1);
    }
    for (std::string_view under : {"", "src/", "source/", "lib/"})
      if (int m = resolve_module(from, "./" + std::string(under) + std::string(rest)); m >= 0) return m;
    return -1;
  }

  void mark_packages(const std::vector<JsPackage>& packages) {
    reachable.assign(modules.size(), 0);
    packaged.assign(modules.size(), 0);
    std::vector<int> queue;
    std::vector<std::string_view> dirs;
    for (const auto& p : packages) {
      bool found = false;
      for (const auto& e : p.entries)
        if (int m = entry_module(p.dir, e); m >= 0) {
          found = true;
          if (!reachable[m]) queue.push_back(m);
          reachable[m] = 1;
        }
      if (found && p.has_exports) dirs.push_back(p.dir);
    }
    while (!queue.empty()) {
      int mi = queue.back();
      queue.pop_back();
      auto visit = [&](int t) {
        if (t >= 0 && !reachable[t]) {
          reachable[t] = 1;
          queue.push_back(t);
        }
      };
      for (const auto& [name, b] : modules[mi].bindings) visit(b.module);
      for (int t : modules[mi].stars) visit(t);
    }
    for (std::size_t mi = 0; mi < modules.size(); ++mi)
      for (auto d : dirs)
        if (d.empty() || (modules[mi].path.size() > d.size() && modules[mi].path.starts_with(d) &&
                          modules[mi].path[d.size()] == '/'))
          packaged[mi] = 1;
  }

  void build(const std::vector<FileFactsAt>& files, const std::vector<JsPackage>& packages) {
    for (const auto& f : files)
      if (f.path && f.facts && is_javascript_path(*f.path) && !module_by_path.contains(*f.path)) {
        module_by_path.emplace(*f.path, static_cast<int>(modules.size()));
        modules.push_back({});
        modules.back().path = *f.path;
        modules.back().facts = f.facts;
      }
    for (int mi = 0; mi < static_cast<int>(modules.size()); ++mi) {
      Module& m = modules[mi];
      const model::FileFacts& facts = *m.facts;
      for (const auto& c : facts.class_bases) m.classes.emplace(c.qualname, c.bases);
      for (const auto& [n, c] : facts.assigned) m.assigned.emplace(n, c);
      for (const auto& e : facts.exports) {
        auto eq = e.find('=');
        std::string exported = e.substr(0, eq), local = eq == std::string::npos ? e : e.substr(eq + 1);
        m.exported_locals.insert(local);
        m.exports.emplace(std::move(exported), std::move(local));
      }
      for (const auto& imp : facts.imports) {
        int target = resolve_module(m.path, imp.module);
        if (imp.name == "*") {
          if (target >= 0 && target != mi) m.stars.push_back(target);
          continue;
        }
        std::string local = !imp.alias.empty() ? imp.alias : imp.name;
        if (local.empty()) continue;
        m.bindings[local] = {target, imp.name};
      }
      for (const auto& fn : facts.functions) {
        if (fn.qualname.empty()) continue;
        if (fn.nested) continue;
        auto [it, added] = m.defs.emplace(fn.qualname, static_cast<int>(nodes.size()));
        m.by_line.emplace(fn.line, it->second);
        if (!added) continue;  // a getter and its setter: one node
        Node n{mi, &fn, {}};
        if (auto dot = fn.qualname.rfind('.'); dot != std::string::npos && m.classes.contains(fn.qualname.substr(0, dot)))
          n.cls = fn.qualname.substr(0, dot);
        if (!n.cls.empty()) {
          methods_named[fn.name].push_back(static_cast<int>(nodes.size()));
          auto& attrs = m.attributes[n.cls];
          for (const auto& [a, c] : fn.assigned)
            if (a.starts_with("this.") && a.find('.', 5) == std::string::npos) attrs.emplace(a.substr(5), c);
        }
        nodes.push_back(std::move(n));
      }
      // A closure stands for the named function around it: the last one
      // defined above it whose qualname is its prefix.
      for (const auto& fn : facts.functions) {
        if (!fn.nested) continue;
        std::string q = fn.qualname;
        for (auto dot = q.rfind('.'); dot != std::string::npos; dot = q.rfind('.')) {
          q.resize(dot);
          if (auto it = m.defs.find(q); it != m.defs.end()) {
            m.by_line.emplace(fn.line, it->second);
            break;
          }
        }
      }
    }
    mark_packages(packages);
    callees.assign(nodes.size(), {});
    callers.assign(nodes.size(), {});
    for (int id = 0; id < static_cast<int>(nodes.size()); ++id) {
      std::unordered_set<int> seen;
      for (const auto& t : nodes[id].fn->targets)
        for (int callee : resolve_call(nodes[id].module, id, t))
          if (callee != id && seen.insert(callee).second) {
            callees[id].push_back(callee);
            callers[callee].push_back(id);
            ++edge_count;
          }
    }
  }

  // What the module `mi` exports as `name`.
  Ref resolve_export(int mi, const std::string& name, int hops) const {
    if (mi < 0 || hops > k_max_hops) return {};
    const Module& m = modules[mi];
    if (auto it = m.exports.find(name); it != m.exports.end()) {
      Ref r = resolve_local(mi, it->second, hops + 1);
      if (r.kind != Ref::none) return r;
    }
    for (int s : m.stars)
      if (name != "default") {
        Ref r = resolve_export(s, name, hops + 1);
        if (r.kind != Ref::none) return r;
      }
    return {};
  }

  // A name as the top level of module `mi` sees it.
  Ref resolve_local(int mi, const std::string& name, int hops) const {
    if (hops > k_max_hops) return {};
    const Module& m = modules[mi];
    if (m.classes.contains(name)) return {Ref::klass, mi, name, -1};
    if (auto it = m.defs.find(name); it != m.defs.end()) return {Ref::function, mi, {}, it->second};
    if (auto b = m.bindings.find(name); b != m.bindings.end()) {
      if (b->second.module < 0) return {};
      if (b->second.imported.empty()) return {Ref::module, b->second.module, {}, -1};
      return resolve_export(b->second.module, b->second.imported, hops + 1);
    }
    return {};
  }

  // Method `name` of class `cls` of module `mi`, or of the classes it
  // extends.
  int lookup_method(int mi, const std::string& cls, std::string_view name, int hops) const {
    if (hops > k_max_hops) return -1;
    const Module& m = modules[mi];
    if (auto it = m.defs.find(cls + '.' + std::string(name)); it != m.defs.end()) return it->second;
    auto c = m.classes.find(cls);
    if (c == m.classes.end()) return -1;
    for (const auto& base : c->second) {
      Ref r = resolve_dotted(mi, split_dots(base), hops + 1);
      if (r.kind != Ref::klass) continue;
      if (int n = lookup_method(r.module_index, r.name, name, hops + 1); n >= 0) return n;
    }
    return -1;
  }

  // `a.b.c` as module `mi`'s top level sees it: a module's export, a
  // class's static method, an object literal's method.
  Ref resolve_dotted(int mi, const std::vector<std::string_view>& parts, int hops) const {
    if (parts.empty() || hops > k_max_hops) return {};
    const Module& m = modules[mi];
    // The longest run the module defines (`api.parse`, `Cls.m`).
    for (std::size_t k = parts.size(); k > 1; --k)
      if (auto it = m.defs.find(join_dots(parts, 0, k)); it != m.defs.end())
        return k == parts.size() ? Ref{Ref::function, mi, {}, it->second} : Ref{};
    Ref r = resolve_local(mi, std::string(parts[0]), hops);
    for (std::size_t i = 1; i < parts.size() && r.kind != Ref::none; ++i) {
      std::string part(parts[i]);
      if (r.kind == Ref::module) {
        Ref e = resolve_export(r.module_index, part, hops + 1);
        // A CommonJS module whose `module.exports` is one object.
        if (e.kind == Ref::none)
          if (Ref d = resolve_export(r.module_index, "default", hops + 1); d.kind == Ref::klass)
            if (int n = lookup_method(d.module_index, d.name, part, hops + 1); n >= 0) e = {Ref::function, d.module_index, {}, n};
        r = e;
      } else if (r.kind == Ref::klass) {
        int n = lookup_method(r.module_index, r.name, part, hops + 1);
        r = n >= 0 ? Ref{Ref::function, nodes[n].module, {}, n} : Ref{};
      } else if (r.kind == Ref::function) {
        // An object literal's method: `obj.m` where `obj` is imported.
        const Node& n = nodes[r.node];
        auto it = modules[n.module].defs.find(n.fn->qualname + '.' + part);
        r = it == modules[n.module].defs.end() ? Ref{} : Ref{Ref::function, n.module, {}, it->second};
      }
    }
    if (r.kind == Ref::none && parts.size() >= 2) {
      // An object literal imported (`import {api} from`, then `api.m()`).
      Ref owner = resolve_owner(mi, std::string(parts[0]), hops);
      if (owner.kind == Ref::function) {
        const Module& om = modules[owner.module_index];
        if (auto it = om.defs.find(owner.name + '.' + join_dots(parts, 1, parts.size())); it != om.defs.end())
          return {Ref::function, owner.module_index, {}, it->second};
      }
    }
    return r;
  }

  // Where the object literal a name stands for is defined: its module and
  // its local name (Ref::function with no node), when its methods are
  // there.
  Ref resolve_owner(int mi, const std::string& name, int hops) const {
    if (hops > k_max_hops) return {};
    const Module& m = modules[mi];
    if (auto b = m.bindings.find(name); b != m.bindings.end() && b->second.module >= 0 && !b->second.imported.empty()) {
      const Module& t = modules[b->second.module];
      auto e = t.exports.find(b->second.imported);
      if (e != t.exports.end()) return resolve_owner(b->second.module, e->second, hops + 1);
      for (int s : t.stars)
        if (Ref r = resolve_owner_export(s, b->second.imported, hops + 1); r.kind != Ref::none) return r;
      return {};
    }
    return {Ref::function, mi, name, -1};
  }
  Ref resolve_owner_export(int mi, const std::string& name, int hops) const {
    if (hops > k_max_hops) return {};
    const Module& m = modules[mi];
    if (auto e = m.exports.find(name); e != m.exports.end()) return resolve_owner(mi, e->second, hops + 1);
    for (int s : m.stars)
      if (Ref r = resolve_owner_export(s, name, hops + 1); r.kind != Ref::none) return r;
    return {};
  }

  // The node a call of `r` runs: a function, or a class's constructor.
  int called_node(const Ref& r) const {
    if (r.kind == Ref::function) return r.node;
    if (r.kind == Ref::klass) return lookup_method(r.module_index, r.name, "constructor", 0);
    return -1;
  }

  // The class a receiver as written names in function `id` (`p` bound to
  // `new Parser()`, `this.lexer` set so in a method), or none.
  Ref receiver_class(int mi, int id, const std::vector<std::string_view>& parts) const {
    const Node& n = nodes[id];
    const Module& m = modules[mi];
    std::string written;
    if (parts.size() == 3 && parts[0] == "this" && !n.cls.empty()) {
      auto attrs = m.attributes.find(n.cls);
      if (attrs != m.attributes.end())
        if (auto it = attrs->second.find(std::string(parts[1])); it != attrs->second.end()) written = it->second;
    } else if (parts.size() == 2) {
      for (const auto& [a, c] : n.fn->assigned)
        if (a == parts[0]) written = c;
      if (written.empty())
        if (auto it = m.assigned.find(std::string(parts[0])); it != m.assigned.end()) written = it->second;
    }
    if (written.empty()) return {};
    Ref r = resolve_dotted(mi, split_dots(written), 0);
    return r.kind == Ref::klass ? r : Ref{};
  }

  std::vector<int> resolve_call(int mi, int id, const std::string& target) const {
    const Node& n = nodes[id];
    auto parts = split_dots(target);
    if (parts.empty()) return {};
    if (parts[0] == "this" && !n.cls.empty() && parts.size() == 2) {
      int c = lookup_method(mi, n.cls, parts[1], 0);
      return c >= 0 ? std::vector<int>{c} : std::vector<int>{};
    }
    if (parts[0] == "super" && !n.cls.empty() && parts.size() <= 2) {
      auto c = modules[mi].classes.find(n.cls);
      if (c == modules[mi].classes.end()) return {};
      for (const auto& base : c->second) {
        Ref b = resolve_dotted(mi, split_dots(base), 0);
        if (b.kind != Ref::klass) continue;
        int m = lookup_method(b.module_index, b.name, parts.size() == 1 ? "constructor" : parts[1], 0);
        if (m >= 0) return {m};
      }
      return {};
    }
    if (parts[0] != "this" && parts[0] != "super" && parts[0] != "?") {
      if (int c = called_node(resolve_dotted(mi, parts, 0)); c >= 0) return {c};
    }
    if (parts.size() < 2) return {};
    if (Ref cls = receiver_class(mi, id, parts); cls.kind == Ref::klass) {
      int c = lookup_method(cls.module_index, cls.name, parts.back(), 0);
      return c >= 0 ? std::vector<int>{c} : std::vector<int>{};
    }
    // A receiver of unknown type: the methods of that name, when few. Not
    // a receiver that is a module outside the repository, nor a global
    // (`JSON.parse`, `Object.keys`: capitalised and not the module's).
    if (parts.size() == 2 && parts[0] != "?" && parts[0] != "this") {
      const Module& m = modules[mi];
      std::string first(parts[0]);
      if (m.bindings.contains(first) || m.classes.contains(first) || m.defs.contains(first)) return {};
      if (!first.empty() && first[0] >= 'A' && first[0] <= 'Z') return {};
    }
    auto it = methods_named.find(parts.back());
    if (it == methods_named.end() || it->second.size() > k_max_guesses) return {};
    return it->second;
  }

  bool is_public(int id) const {
    const Node& n = nodes[id];
    const Module& m = modules[n.module];
    auto parts = split_dots(n.fn->qualname);
    for (auto p : parts)
      if (private_name(p)) return false;
    if (packaged[n.module] && !reachable[n.module]) return false;
    return m.exported_locals.contains(std::string(parts[0]));
  }

  std::string name(int id) const {
    const Node& n = nodes[id];
    std::string q = n.fn->qualname;
    if (q == "default" || q.starts_with("default.")) {
      std::string_view path = modules[n.module].path;
      std::string_view stem = path.substr(path.rfind('/') + 1);
      stem = stem.substr(0, stem.find('.'));
      if (stem == "index") {
        std::string_view dir = dir_of(path);
        stem = dir.substr(dir.rfind('/') + 1);
      }
      q = std::string(stem) + q.substr(7);
    }
    if (!n.cls.empty() && n.fn->name == "constructor") return "new " + q.substr(0, q.size() - 12);
    return q;
  }

};

JsCallGraph::JsCallGraph(const std::vector<FileFactsAt>& files, const std::vector<JsPackage>& packages)
    : m(std::make_unique<Impl>()) {
  m->build(files, packages);
}
JsCallGraph::~JsCallGraph() = default;

std::size_t JsCallGraph::size() const { return m->nodes.size(); }
std::size_t JsCallGraph::edges() const { return m->edge_count; }
std::string JsCallGraph::name(int node) const { return m->name(node); }
bool JsCallGraph::is_public(int node) const { return m->is_public(node); }
std::string_view JsCallGraph::file_of(int node) const { return m->modules[m->nodes[node].module].path; }

int JsCallGraph::node_of(std::string_view file_path, const model::ThrowSite& site) const {
  if (site.function_line <= 0) return -1;
  auto it = m->module_by_path.find(file_path);
  if (it == m->module_by_path.end()) return -1;
  const auto& by_line = m->modules[it->second].by_line;
  auto n = by_line.find(site.function_line);
  return n == by_line.end() ? -1 : n->second;
}

std::vector<model::EntryPoint> JsCallGraph::entry_points(int node, std::size_t max) const {
  if (node < 0 || node >= static_cast<int>(m->nodes.size()) || max == 0) return {};
  // Ranked at equal length: those a package's entry files lead to first;
  // then the throwing file's own, then its folder's.
  const std::string_view home = m->modules[m->nodes[node].module].path;
  auto distance = [&](int n) {
    const int mi = m->nodes[n].module;
    std::string_view p = m->modules[mi].path;
    return (m->reachable[mi] ? 0 : 3) + (p == home ? 0 : dir_of(p) == dir_of(home) ? 1 : 2);
  };
  return detail::nearest_entry_points(
      m->callers, node, max, detail::WalkBounds{}, [&](int n) { return m->is_public(n); }, distance,
      [&](int n) { return m->name(n); });
}

std::vector<int> JsCallGraph::resolve_calls(std::string_view file_path, const model::FileFacts& facts,
                                            const std::vector<std::string>& calls,
                                            const std::vector<std::pair<std::string, std::string>>& locals,
                                            std::size_t* unresolved) const {
  std::vector<int> out;
  // The file's own names: its imports, resolved from its place.
  std::unordered_map<std::string, Impl::Binding> bindings;
  for (const auto& imp : facts.imports) {
    if (imp.name == "*") continue;
    std::string local = !imp.alias.empty() ? imp.alias : imp.name;
    if (!local.empty()) bindings[local] = {m->resolve_module(file_path, imp.module), imp.name};
  }
  auto own = m->module_by_path.find(file_path);
  // A dotted name as the file sees it.
  auto resolve = [&](const std::vector<std::string_view>& parts) {
    Impl::Ref r;
    if (own != m->module_by_path.end()) {
      r = m->resolve_dotted(own->second, parts, 0);
    } else if (auto b = bindings.find(std::string(parts[0])); b != bindings.end() && b->second.module >= 0) {
      r = b->second.imported.empty() ? Impl::Ref{Impl::Ref::module, b->second.module, {}, -1}
                                     : m->resolve_export(b->second.module, b->second.imported, 0);
      for (std::size_t i = 1; i < parts.size() && r.kind != Impl::Ref::none; ++i) {
        std::string part(parts[i]);
        if (r.kind == Impl::Ref::module) {
          r = m->resolve_export(r.module_index, part, 0);
        } else if (r.kind == Impl::Ref::klass) {
          int n = m->lookup_method(r.module_index, r.name, part, 0);
          r = n >= 0 ? Impl::Ref{Impl::Ref::function, m->nodes[n].module, {}, n} : Impl::Ref{};
        } else {
          r = {};
        }
      }
    }
    return r;
  };
  for (const auto& c : calls) {
    auto parts = split_dots(c);
    if (parts.empty()) continue;
    int n = -1;
    // A method of a local the test bound to `new Cls(…)`.
    auto local = std::find_if(locals.begin(), locals.end(), [&](const auto& l) { return l.first == parts[0]; });
    if (local != locals.end() && parts.size() == 2 && local->second.starts_with("new ")) {
      Impl::Ref cls = resolve(split_dots(std::string_view(local->second).substr(4)));
      if (cls.kind == Impl::Ref::klass) n = m->lookup_method(cls.module_index, cls.name, parts[1], 0);
    } else if (local == locals.end()) {
      n = m->called_node(resolve(parts));
    }
    if (n < 0) {
      if (unresolved) ++*unresolved;
      continue;
    }
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

std::vector<std::pair<int, int>> JsCallGraph::reach(const std::vector<int>& from, bool* complete) const {
  std::vector<std::pair<int, int>> out;
  std::unordered_set<int> seen;
  if (complete) *complete = true;
  for (int n : from)
    if (n >= 0 && n < static_cast<int>(m->nodes.size()) && seen.insert(n).second) out.emplace_back(n, 0);
  for (std::size_t at = 0; at < out.size(); ++at) {
    auto [n, depth] = out[at];
    const auto& callees = m->callees[n];
    if (depth >= k_max_reach_depth) {
      if (complete && std::any_of(callees.begin(), callees.end(), [&](int c) { return !seen.contains(c); }))
        *complete = false;
      continue;
    }
    for (int c : callees) {
      if (seen.contains(c)) continue;
      if (seen.size() >= k_max_reached) {
        if (complete) *complete = false;
        return out;
      }
      seen.insert(c);
      out.emplace_back(c, depth + 1);
    }
  }
  return out;
}

std::vector<std::string> JsCallGraph::chain_to(const std::vector<int>& from, int to) const {
  return detail::chain_up_to(m->callers, from, to, detail::WalkBounds{}, [&](int n) { return m->name(n); });
}

std::size_t link_javascript_entry_points(const JsCallGraph& graph, const std::vector<model::ThrowSite>& sites,
                                         std::vector<model::ErrorRecord>& records, std::size_t max) {
  return detail::fill_entry_points(
      records, sites.size(),
      [&](std::size_t i) {
        return is_javascript_path(records[i].file_path) ? graph.node_of(records[i].file_path, sites[i]) : -1;
      },
      [&](int node) { return graph.entry_points(node, max); });
}

}  // namespace errdex::analyze
