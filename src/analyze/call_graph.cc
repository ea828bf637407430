#include "analyze/call_graph.h"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <unordered_set>

#include "analyze/caller_walk.h"
#include "scan/python/relative_import.h"
#include "scan/python/test_file_bindings.h"

namespace errdex::analyze {
namespace {

// Levels of callers followed up from a raising function.
constexpr int k_max_depth = 12;
// Functions visited by one walk.
constexpr std::size_t k_max_visited = 4096;
// Imports followed while resolving one name (re-exports of re-exports).
constexpr int k_max_hops = 8;
// A method name called on a receiver of unknown type is followed when the
// caller's top-level package defines it at most this many times.
constexpr std::size_t k_max_guesses = 2;
// Nested resolutions at once (a base named through another class's
// attribute resolves that class's bases, ...): past this, a cycle.
constexpr int k_max_nesting = 64;
// A test's call that no import explains stands for the functions of its
// name when the repository defines at most this many.
constexpr std::size_t k_max_test_guesses = 16;
// Levels of callees followed down from a test's calls, and functions met.
constexpr int k_max_reach_depth = 6;
constexpr std::size_t k_max_reached = 2048;

using detail::join_dots;
using detail::split_dots;

bool is_dunder(std::string_view n) { return n.size() > 4 && n.starts_with("__") && n.ends_with("__"); }

bool is_constructor(std::string_view n) { return n == "__init__" || n == "__new__" || n == "__post_init__"; }

// The property accessor a descriptor method names (`size.__get__`, as a
// test's attribute read is written), else "".
std::string_view property_access(std::string_view last) {
  if (last == "__get__") return "getter";
  if (last == "__set__") return "setter";
  if (last == "__delete__") return "deleter";
  return {};
}

// Counts the resolutions under way on this thread; false past the bound.
class Nesting {
 public:
  Nesting() { ++s_depth; }
  ~Nesting() { --s_depth; }
  Nesting(const Nesting&) = delete;
  Nesting& operator=(const Nesting&) = delete;
  bool ok() const { return s_depth <= k_max_nesting; }

 private:
  static thread_local int s_depth;
};
thread_local int Nesting::s_depth = 0;

std::string_view top_package(std::string_view module) { return module.substr(0, module.find('.')); }

}  // namespace

std::string module_name(std::string_view path, const std::vector<std::string>& import_roots) {
  if (!path.ends_with(".py")) return {};
  std::string_view best;
  bool found = false;
  for (const auto& r : import_roots)
    if (r.empty() || (path.size() > r.size() && path.starts_with(r) && path[r.size()] == '/'))
      if (!found || r.size() > best.size()) {
        best = r;
        found = true;
      }
  std::string_view rel = best.empty() ? path : path.substr(best.size() + 1);
  rel.remove_suffix(3);
  if (rel == "__init__") return {};
  if (rel.ends_with("/__init__")) rel.remove_suffix(9);
  std::string out(rel);
  std::replace(out.begin(), out.end(), '/', '.');
  return out;
}

// What one Python file's facts give the graph on their own: its module's
// names, imports and classes, and its functions as nodes numbered from 0
// within the module (the graph adds the module's first node's id).
struct CallGraphModule {
  struct Node {
    std::string qualname;
    std::string cls;  // the class's qualname for a method
    const model::FunctionCalls* fn = nullptr;
    // A property's setter or deleter defined after its getter: the
    // getter's node. Its calls lead down from it (a test assigning the
    // attribute reaches them) but are no callers' edges: entry points are
    // the getter's, and a chain step names one function by its name.
    int primary = -1;
  };
  std::string name;
  std::string path;
  // Owns the facts `nodes` point into (nothing, when the caller keeps them).
  std::shared_ptr<const model::FileFacts> facts;
  bool is_package = false;
  std::unordered_map<std::string, int> defs;          // qualname → node (not nested)
  std::unordered_map<int, int> by_line;               // def line → node (closures: the enclosing one)
  std::unordered_map<std::string, std::string> bindings;  // imported name → dotted target
  std::vector<std::string> star;                      // modules imported with `*`
  std::unordered_map<std::string, std::vector<std::string>> bases;  // class qualname → bases as written
  std::unordered_map<std::string, std::string> assigned;  // module-level name → callee as written
  std::unordered_set<std::string> exports;
  std::vector<Node> nodes;
  // Each function's name (a class's for its constructor), and whether it
  // is a method, by node in order; a property's other accessors have none.
  struct Named {
    std::string name;
    int node = -1;
    bool method = false;
  };
  std::vector<Named> named;
  // A property's getter node → its setter and deleter nodes.
  std::vector<std::pair<int, int>> accessors;
  // Class → attribute → the accessors a class body's `x = property(getx,
  // setx)` names.
  std::unordered_map<std::string, std::unordered_map<std::string, std::vector<int>>> named_properties;
  // Class → attribute → callee as written (`self.x = Cls()`).
  std::unordered_map<std::string, std::unordered_map<std::string, std::string>> attributes;

  // The absolute module of a relative import here.
  std::string absolute(const model::ImportFact& f) const {
    // A package's `__init__` is in the package it names; any other module
    // in its parent.
    const auto dot = name.rfind('.');
    const std::string_view package =
        std::string_view(name).substr(0, is_package ? name.size() : dot == std::string::npos ? 0 : dot);
    return scan::python::resolve_relative_import(package, f.level, f.module, '.');
  }

  void build() {
    for (const auto& c : facts->class_bases) bases.emplace(c.qualname, c.bases);
    for (const auto& [n, callee] : facts->assigned) assigned[n] = callee;
    if (facts->has_exports) exports.insert(facts->exports.begin(), facts->exports.end());
    for (const auto& imp : facts->imports) {
      std::string mod = absolute(imp);
      if (imp.name.empty()) {
        // `import a.b` binds `a`; `import a.b as z` binds z to a.b.
        if (!imp.alias.empty()) bindings[imp.alias] = mod;
        else bindings.emplace(std::string(top_package(mod)), std::string(top_package(mod)));
      } else if (imp.name == "*") {
        star.push_back(mod);
      } else {
        bindings[imp.alias.empty() ? imp.name : imp.alias] = mod.empty() ? imp.name : mod + '.' + imp.name;
      }
    }
    // Functions and methods; a closure stands for the function around it.
    for (const auto& fn : facts->functions) {
      if (fn.qualname.empty() || fn.nested) continue;
      Node n;
      n.qualname = fn.qualname;
      n.fn = &fn;
      auto dot = fn.qualname.rfind('.');
      if (dot != std::string::npos && bases.contains(fn.qualname.substr(0, dot))) n.cls = fn.qualname.substr(0, dot);
      int id = static_cast<int>(nodes.size());
      if (!defs.emplace(fn.qualname, id).second) {
        const int first = defs.at(fn.qualname);
        if (fn.property == "setter" || fn.property == "deleter") {
          // A property's other accessor: a node of its own, known only
          // through its getter.
          n.primary = first;
          accessors.emplace_back(first, id);
          by_line[fn.line] = id;
          nodes.push_back(std::move(n));
          continue;
        }
        // Redefined (a platform branch): one node.
        by_line[fn.line] = first;
        continue;
      }
      by_line[fn.line] = id;
      const bool ctor = !n.cls.empty() && is_constructor(fn.name);
      named.push_back({ctor ? n.cls.substr(n.cls.rfind('.') + 1) : fn.name, id, !n.cls.empty()});
      if (!fn.attribute.empty() && !n.cls.empty()) named_properties[n.cls][fn.attribute].push_back(id);
      if (!n.cls.empty()) {
        auto& attrs = attributes[n.cls];
        for (const auto& [a, callee] : fn.assigned)
          if (a.starts_with("self.") && a.find('.', 5) == std::string::npos) attrs.emplace(a.substr(5), callee);
      }
      nodes.push_back(std::move(n));
    }
    for (const auto& fn : facts->functions) {
      if (!fn.nested || fn.qualname.empty()) continue;
      std::string q = fn.qualname;
      for (auto dot = q.rfind('.'); dot != std::string::npos; dot = q.rfind('.')) {
        q.resize(dot);
        if (auto it = defs.find(q); it != defs.end()) {
          by_line[fn.line] = it->second;
          break;
        }
      }
    }
  }
};

std::shared_ptr<const CallGraphModule> call_graph_module(const std::string& path,
                                                         std::shared_ptr<const model::FileFacts> facts,
                                                         const std::vector<std::string>& import_roots) {
  std::string name = module_name(path, import_roots);
  if (name.empty() || !facts) return nullptr;
  auto m = std::make_shared<CallGraphModule>();
  m->name = std::move(name);
  m->path = path;
  m->facts = std::move(facts);
  m->is_package = path.ends_with("/__init__.py");
  m->build();
  return m;
}

struct CallGraph::Impl {
  // What a dotted name stands for.
  struct Ref {
    enum Kind { none, module, function, klass } kind = none;
    int module_index = -1;
    std::string qualname;  // function or class in the module
    int node = -1;         // function
  };
  struct Module {
    const CallGraphModule* part = nullptr;
    int first = 0;  // the id of its node 0
    int top = -1;   // its top-level package, numbered (top_package)
    // `from _x import *` of a module the repository lacks (a C
    // accelerator): what the module defines in Python is replaced when it
    // is imported, and runs only when the accelerator is blocked.
    bool accelerated = false;
  };
  struct Node {
    int module = -1;
    const CallGraphModule::Node* p = nullptr;
    int primary = -1;  // CallGraphModule::Node::primary, as the graph numbers it
  };

  // The modules' parts, kept while the graph is.
  std::vector<std::shared_ptr<const CallGraphModule>> parts;
  std::vector<Module> modules;
  std::unordered_map<std::string, int> module_by_name;
  std::unordered_map<std::string_view, int> module_by_path;
  std::vector<Node> nodes;
  std::vector<std::vector<int>> callees, callers;
  // Method name → methods of that name; any function's name (a class's
  // for its constructor) → the functions. Names are the parts'.
  std::unordered_map<std::string_view, std::vector<int>> methods_named, named;
  // A property's getter node → its setter and deleter nodes.
  std::unordered_map<int, std::vector<int>> accessors;
  std::size_t edge_count = 0;
  // resolve_from_function's answers, by module, while the graph is built.
  struct ViewHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::vector<std::unordered_map<std::string, Ref, ViewHash, std::equal_to<>>> resolved_in;
  // called_node's answers for classes, by the class's module, while the
  // graph is built.
  std::vector<std::unordered_map<std::string, int>> constructors_in;

  // Node `local` of module `mi` as the graph numbers it (-1 stays -1).
  int global(int mi, int local) const { return local < 0 ? -1 : modules[mi].first + local; }

  Ref resolve_global(const std::vector<std::string_view>& parts, int hops) const {
    for (std::size_t k = parts.size(); k > 0; --k) {
      auto it = module_by_name.find(join_dots(parts, 0, k));
      if (it == module_by_name.end()) continue;
      if (k == parts.size()) return {Ref::module, it->second, {}, -1};
      return resolve_in_module(it->second, std::vector<std::string_view>(parts.begin() + k, parts.end()), hops);
    }
    return {};
  }

  Ref resolve_global(std::string_view dotted, int hops) const { return resolve_global(split_dots(dotted), hops); }

  // A dotted name as module `mi` sees it at its top level.
  Ref resolve_in_module(int mi, const std::vector<std::string_view>& parts, int hops) const {
    Nesting nesting;
    if (hops > k_max_hops || parts.empty() || !nesting.ok()) return {};
    const CallGraphModule& m = *modules[mi].part;
    // The longest run of names defined here: a class, its method, a function.
    for (std::size_t k = parts.size(); k > 0; --k) {
      std::string q = join_dots(parts, 0, k);
      bool is_class = m.bases.contains(q);
      if (!is_class && !m.defs.contains(q)) continue;
      if (k == parts.size()) {
        if (is_class) return {Ref::klass, mi, q, -1};
        return {Ref::function, mi, q, global(mi, m.defs.at(q))};
      }
      if (is_class && k + 1 == parts.size()) {
        int n = lookup_method(mi, q, parts[k], 0);
        if (n >= 0) return {Ref::function, nodes[n].module, nodes[n].p->qualname, n};
      }
      return {};
    }
    std::string first(parts[0]);
    if (auto b = m.bindings.find(first); b != m.bindings.end()) {
      std::vector<std::string_view> target = split_dots(b->second);
      target.insert(target.end(), parts.begin() + 1, parts.end());
      return resolve_global(target, hops + 1);
    }
    // A submodule of a package: `pkg.sub.f` from inside pkg.
    if (auto sub = module_by_name.find(m.name + '.' + first); m.is_package && sub != module_by_name.end()) {
      if (parts.size() == 1) return {Ref::module, sub->second, {}, -1};
      return resolve_in_module(sub->second, std::vector<std::string_view>(parts.begin() + 1, parts.end()), hops + 1);
    }
    for (const auto& s : m.star)
      if (auto it = module_by_name.find(s); it != module_by_name.end() && it->second != mi) {
        Ref r = resolve_in_module(it->second, parts, hops + 1);
        if (r.kind != Ref::none) return r;
      }
    return {};
  }

  // Method `name` of class `cls` of module `mi` or of its bases.
  int lookup_method(int mi, const std::string& cls, std::string_view name, int depth) const {
    Nesting nesting;
    if (depth > k_max_hops || !nesting.ok()) return -1;
    const CallGraphModule& m = *modules[mi].part;
    if (auto it = m.defs.find(cls + '.' + std::string(name)); it != m.defs.end()) return global(mi, it->second);
    auto b = m.bases.find(cls);
    if (b == m.bases.end()) return -1;
    for (const auto& base : b->second) {
      Ref r = resolve_in_module(mi, split_dots(base), 0);
      if (r.kind != Ref::klass) continue;
      int n = lookup_method(r.module_index, r.qualname, name, depth + 1);
      if (n >= 0) return n;
    }
    return -1;
  }

  // The accessor of kind `kind` that a `property(...)` call in the body of
  // class `cls` of module `mi` or of its bases names for attribute
  // `attr`, or -1.
  int lookup_property(int mi, const std::string& cls, std::string_view attr, std::string_view kind, int depth) const {
    Nesting nesting;
    if (depth > k_max_hops || !nesting.ok()) return -1;
    const CallGraphModule& m = *modules[mi].part;
    if (auto c = m.named_properties.find(cls); c != m.named_properties.end())
      if (auto a = c->second.find(std::string(attr)); a != c->second.end()) {
        for (int n : a->second)
          if (m.nodes[n].fn->property == kind) return global(mi, n);
        return -1;
      }
    auto b = m.bases.find(cls);
    if (b == m.bases.end()) return -1;
    for (const auto& base : b->second) {
      Ref r = resolve_in_module(mi, split_dots(base), 0);
      if (r.kind != Ref::klass) continue;
      if (int n = lookup_property(r.module_index, r.qualname, attr, kind, depth + 1); n >= 0) return n;
    }
    return -1;
  }

  // The class whose instance function `node` returns (FunctionCalls::
  // returns: `return Thing(...)`, `return cls(...)` in a classmethod, or
  // another such function's result), or none.
  Ref returned_class(int node, int depth = 0) const {
    const Node& n = nodes[node];
    const std::string& callee = n.p->fn->returns;
    if (callee.empty() || depth > k_max_hops) return {};
    if (callee == "cls" || callee == "self.__class__") {
      if (n.p->cls.empty()) return {};
      return {Ref::klass, n.module, n.p->cls, -1};
    }
    Ref r = resolve_in_module(n.module, split_dots(callee), 0);
    if (r.kind == Ref::function && r.node != node) return returned_class(r.node, depth + 1);
    return r.kind == Ref::klass ? r : Ref{};
  }

  // The accessor of kind `kind` of the property whose getter (or only
  // accessor) is `node`, or -1 when `node` is no property's.
  int accessor(int node, std::string_view kind) const {
    if (nodes[node].p->fn->property == kind) return node;
    if (auto it = accessors.find(node); it != accessors.end())
      for (int a : it->second)
        if (nodes[a].p->fn->property == kind) return a;
    return -1;
  }

  // What a call of `r` runs: the function, or a class's constructor.
  int called_node(const Ref& r) const {
    if (r.kind == Ref::function) return r.node;
    if (r.kind == Ref::klass) {
      int n = lookup_method(r.module_index, r.qualname, "__init__", 0);
      if (n < 0) n = lookup_method(r.module_index, r.qualname, "__new__", 0);
      if (n < 0) n = lookup_method(r.module_index, r.qualname, "__post_init__", 0);
      return n;
    }
    return -1;
  }

  // The class a callee as written (`JSONDecoder`, `decoder.JSONDecoder`)
  // constructs, seen from module `mi`.
  Ref class_of(int mi, std::string_view callee) {
    Ref r = resolve_from_function(mi, callee);
    return r.kind == Ref::klass ? r : Ref{};
  }

  void add_edge(int from, int to) {
    if (to < 0 || to == from) return;
    auto& c = callees[from];
    if (std::find(c.begin(), c.end(), to) != c.end()) return;
    c.push_back(to);
    if (nodes[from].primary >= 0) return;
    callers[to].push_back(from);
    ++edge_count;
  }

  // Guesses for `recv.name()` with `recv` of unknown type. A name defined
  // more often than that in the package (`doit`, `subs`) is given up at
  // its third definition met, not counted to the end.
  void add_guesses(int from, std::string_view name) {
    if (is_dunder(name)) return;
    auto it = methods_named.find(name);
    if (it == methods_named.end()) return;
    const int top = modules[nodes[from].module].top;
    int near[k_max_guesses];
    std::size_t count = 0;
    for (int n : it->second)
      if (modules[nodes[n].module].top == top) {
        if (count == k_max_guesses) return;
        near[count++] = n;
      }
    for (std::size_t k = 0; k < count; ++k) add_edge(from, near[k]);
  }

  // What a name written in a function of module `mi` stands for at the
  // module's top level (resolve_in_module from nothing nested), kept by
  // module and name while the graph is built: a module's functions call
  // the same names again and again, and a name that no definition of the
  // module explains is followed through its imports and `*` imports each
  // time. The answer depends on nothing else, so it is the same each time.
  Ref resolve_from_function(int mi, std::string_view dotted) {
    auto& known = resolved_in[mi];
    if (auto it = known.find(dotted); it != known.end()) return it->second;
    Ref r = resolve_in_module(mi, split_dots(dotted), 0);
    known.emplace(std::string(dotted), r);
    return r;
  }

  // called_node, kept for classes while the graph is built: a class called
  // from many functions (`Symbol(...)`) looks its constructor up through
  // its bases once, not at every call.
  int called_from_function(const Ref& r) {
    if (r.kind != Ref::klass) return called_node(r);
    auto& known = constructors_in[r.module_index];
    if (auto it = known.find(r.qualname); it != known.end()) return it->second;
    const int n = called_node(r);
    known.emplace(r.qualname, n);
    return n;
  }

  void resolve_call(int from, std::string_view target) {
    const Node& f = nodes[from];
    const int mi = f.module;
    auto parts = split_dots(target);
    if (parts.empty() || parts[0].empty()) return;
    if (parts[0] == "?") {
      if (parts.size() == 2) add_guesses(from, parts[1]);
      return;
    }
    if (parts[0] == "super") {
      if (f.p->cls.empty() || parts.size() != 2) return;
      auto b = modules[mi].part->bases.find(f.p->cls);
      if (b == modules[mi].part->bases.end()) return;
      for (const auto& base : b->second) {
        Ref r = class_of(mi, base);
        if (r.kind != Ref::klass) continue;
        int n = lookup_method(r.module_index, r.qualname, parts[1], 0);
        if (n >= 0) return add_edge(from, n);
      }
      return;
    }
    if ((parts[0] == "self" || parts[0] == "cls") && !f.p->cls.empty()) {
      if (parts.size() == 2) {
        int n = lookup_method(mi, f.p->cls, parts[1], 0);
        if (n >= 0) return add_edge(from, n);
        return add_guesses(from, parts[1]);
      }
      if (parts.size() == 3) {
        const auto& attributes = modules[mi].part->attributes;
        auto a = attributes.find(f.p->cls);
        if (a != attributes.end())
          if (auto t = a->second.find(std::string(parts[1])); t != a->second.end()) {
            Ref r = class_of(mi, t->second);
            if (r.kind == Ref::klass) return add_edge(from, lookup_method(r.module_index, r.qualname, parts[2], 0));
          }
        return add_guesses(from, parts[2]);
      }
      return;
    }
    // A name bound to a constructor's result, in the function or the module.
    if (parts.size() == 2) {
      std::string_view callee;
      for (const auto& [name, c] : f.p->fn->assigned)
        if (name == parts[0]) callee = c;
      if (callee.empty())
        if (auto it = modules[mi].part->assigned.find(std::string(parts[0])); it != modules[mi].part->assigned.end())
          callee = it->second;
      if (!callee.empty()) {
        Ref r = class_of(mi, callee);
        if (r.kind == Ref::klass) return add_edge(from, lookup_method(r.module_index, r.qualname, parts[1], 0));
      }
    }
    // A local the function binds to a class or function of the repository
    // by name, then calls (`if cls is None: cls = Argument`, later
    // `cls(decls)`, in a closure too): each such value may run. A local
    // none of whose values is known (`Parameter = cls._parameter_cls`)
    // is read as the name the module binds, as before.
    if (parts.size() == 1) {
      bool known = false;
      for (const auto& b : f.p->fn->bindings) {
        if (b.name != parts[0] || b.kind != "assign" || b.value == target || !scan::python::is_dotted(b.value)) continue;
        Ref v = resolve_from_function(mi, b.value);
        if (v.kind != Ref::klass && v.kind != Ref::function) continue;
        add_edge(from, called_from_function(v));
        known = true;
      }
      if (known) return;
    }
    Ref r = resolve_from_function(mi, target);
    if (r.kind != Ref::none) return add_edge(from, called_from_function(r));
    // `obj.m()` with `obj` no module, class or import of this repository.
    if (parts.size() >= 2 && !modules[mi].part->bindings.contains(std::string(parts[0])))
      add_guesses(from, parts.back());
  }

  void build(std::vector<std::shared_ptr<const CallGraphModule>> all) {
    parts = std::move(all);
    std::unordered_map<std::string_view, int> tops;
    for (const auto& part : parts) {
      // The first file of a module's name is the module.
      if (!part || module_by_name.contains(part->name)) continue;
      Module m;
      m.part = part.get();
      m.top = tops.emplace(top_package(part->name), static_cast<int>(tops.size())).first->second;
      module_by_name.emplace(part->name, static_cast<int>(modules.size()));
      module_by_path.emplace(part->path, static_cast<int>(modules.size()));
      modules.push_back(m);
    }
    for (int mi = 0; mi < static_cast<int>(modules.size()); ++mi) {
      Module& m = modules[mi];
      const CallGraphModule& part = *m.part;
      for (const auto& mod : part.star)
        if (!mod.empty() && !module_by_name.contains(mod) && mod.starts_with('_')) m.accelerated = true;
      m.first = static_cast<int>(nodes.size());
      for (const auto& n : part.nodes) nodes.push_back({mi, &n, global(mi, n.primary)});
      for (const auto& n : part.named) {
        named[n.name].push_back(global(mi, n.node));
        if (n.method) methods_named[part.nodes[n.node].fn->name].push_back(global(mi, n.node));
      }
      for (auto [getter, other] : part.accessors) accessors[global(mi, getter)].push_back(global(mi, other));
    }
    callees.resize(nodes.size());
    callers.resize(nodes.size());
    resolved_in.resize(modules.size());
    constructors_in.resize(modules.size());
    for (int id = 0; id < static_cast<int>(nodes.size()); ++id)
      for (const auto& t : nodes[id].p->fn->targets) resolve_call(id, t);
    resolved_in = {};
    constructors_in = {};
  }

  bool is_public(int id) const {
    const CallGraphModule::Node& n = *nodes[id].p;
    const CallGraphModule& m = *modules[nodes[id].module].part;
    for (auto part : split_dots(m.name))
      if (part.starts_with('_')) return false;
    auto parts = split_dots(n.qualname);
    if (!m.exports.empty() || m.facts->has_exports)
      if (!m.exports.contains(std::string(parts[0]))) return false;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const bool last = i + 1 == parts.size();
      if (parts[i].starts_with('_') && !(last && !n.cls.empty() && is_dunder(parts[i]))) return false;
    }
    return true;
  }

  std::string name(int id) const {
    const CallGraphModule::Node& n = *nodes[id].p;
    std::string q = n.qualname;
    if (!n.cls.empty() && is_constructor(q.substr(n.cls.size() + 1))) q = n.cls;
    return modules[nodes[id].module].part->name + '.' + q;
  }

};

CallGraph::CallGraph(const std::vector<FileFactsAt>& files, const std::vector<std::string>& import_roots)
    : m(std::make_unique<Impl>()) {
  std::vector<std::shared_ptr<const CallGraphModule>> modules;
  modules.reserve(files.size());
  // The facts stay the caller's: not owned.
  for (const auto& f : files)
    modules.push_back(
        call_graph_module(*f.path, std::shared_ptr<const model::FileFacts>(std::shared_ptr<void>(), f.facts), import_roots));
  m->build(std::move(modules));
}

CallGraph::CallGraph(std::vector<std::shared_ptr<const CallGraphModule>> modules) : m(std::make_unique<Impl>()) {
  m->build(std::move(modules));
}

CallGraph::~CallGraph() = default;

std::size_t CallGraph::size() const { return m->nodes.size(); }
std::size_t CallGraph::edges() const { return m->edge_count; }
std::string CallGraph::name(int node) const { return m->name(node); }
bool CallGraph::is_public(int node) const { return m->is_public(node); }
std::string_view CallGraph::file_of(int node) const { return m->modules[m->nodes[node].module].part->path; }

int CallGraph::node_of(std::string_view file_path, const model::ThrowSite& site) const {
  if (site.function.empty()) return -1;
  auto it = m->module_by_path.find(file_path);
  if (it == m->module_by_path.end()) return -1;
  const auto& by_line = m->modules[it->second].part->by_line;
  auto n = by_line.find(site.function_line);
  return n == by_line.end() ? -1 : m->global(it->second, n->second);
}

std::vector<model::EntryPoint> CallGraph::entry_points(int node, std::size_t max) const {
  if (node < 0 || node >= static_cast<int>(m->nodes.size()) || max == 0) return {};
  // A setter's or deleter's users reach it by the getter's name.
  if (m->nodes[node].primary >= 0) node = m->nodes[node].primary;
  // Ranked at equal length: the raising module's first, then its
  // package's, then others.
  const std::string& home = m->modules[m->nodes[node].module].part->name;
  auto distance = [&](int n) {
    const std::string& mod = m->modules[m->nodes[n].module].part->name;
    return mod == home ? 0 : top_package(mod) == top_package(home) ? 1 : 2;
  };
  return detail::nearest_entry_points(
      m->callers, node, max, {k_max_depth, k_max_visited}, [&](int n) { return m->is_public(n); }, distance,
      [&](int n) { return m->name(n); });
}

int CallGraph::inherited_method(std::string_view file_path, int def_line, std::string_view name) const {
  auto it = m->module_by_path.find(file_path);
  if (it == m->module_by_path.end()) return -1;
  const auto& by_line = m->modules[it->second].part->by_line;
  auto n = by_line.find(def_line);
  if (n == by_line.end()) return -1;
  const std::string& cls = m->nodes[m->global(it->second, n->second)].p->cls;
  if (cls.empty()) return -1;
  return m->lookup_method(it->second, cls, name, 0);
}

const model::FunctionCalls& CallGraph::function(int node) const { return *m->nodes[node].p->fn; }

std::vector<model::EntryPoint> CallGraph::entry_points(const model::ErrorRecord& record, const model::ThrowSite& site,
                                                       std::size_t max) const {
  return entry_points(node_of(record.file_path, site), max);
}

std::vector<int> CallGraph::resolve_test_calls(std::string_view file_path, const model::FileFacts& facts,
                                               const std::vector<std::string>& calls,
                                               std::vector<int>* imported) const {
  // The test file's names: what its imports bind.
  std::vector<int> out;
  std::unordered_map<std::string, std::string> bindings;
  // Modules the test loads by name with their accelerator blocked
  // (`import_fresh_module`, marked `import m as m`).
  std::unordered_set<std::string> fresh;
  for (const auto& imp : facts.imports) {
    if (imp.level > 0) continue;  // relative to a test package: not the code under test
    if (imp.name.empty() && imp.alias == imp.module) fresh.insert(imp.module);
    if (imp.name.empty()) {
      if (!imp.alias.empty()) bindings[imp.alias] = imp.module;
      else bindings.emplace(std::string(top_package(imp.module)), std::string(top_package(imp.module)));
    } else if (imp.name != "*") {
      bindings[imp.alias.empty() ? imp.name : imp.alias] = imp.module + '.' + imp.name;
    }
  }
  // What names `parts` stand for through those imports (or a `*` import of
  // the repository's); `shadowed` when a C accelerator replaces its module.
  auto resolve = [&](const std::vector<std::string_view>& parts, bool& shadowed) {
    // The longest run of names an import binds (`xml.dom` of `import
    // xml.dom as xml.dom`).
    auto b = bindings.end();
    std::size_t bound = 0;
    for (std::size_t k = parts.size(); k > 0 && b == bindings.end(); --k)
      if (b = bindings.find(join_dots(parts, 0, k)); b != bindings.end()) bound = k;
    Impl::Ref r;
    shadowed = false;
    if (b != bindings.end()) {
      auto target = split_dots(b->second);
      target.insert(target.end(), parts.begin() + static_cast<std::ptrdiff_t>(bound), parts.end());
      r = m->resolve_global(target, 0);
      // Imported as usual, an accelerated module runs its C code.
      if (!fresh.contains(b->second))
        for (std::size_t k = target.size(); k > 0; --k)
          if (auto it = m->module_by_name.find(join_dots(target, 0, k)); it != m->module_by_name.end()) {
            shadowed = m->modules[it->second].accelerated;
            break;
          }
    } else {
      for (const auto& imp : facts.imports)
        if (imp.name == "*" && imp.level == 0)
          if (auto it = m->module_by_name.find(imp.module); it != m->module_by_name.end()) {
            r = m->resolve_in_module(it->second, parts, 0);
            if (r.kind != Impl::Ref::none) break;
          }
    }
    return r;
  };
  for (const auto& c : calls) {
    auto parts = split_dots(c);
    if (parts.empty()) continue;
    // A call whose result the expectation awaits runs its body there only
    // when it is a coroutine function's.
    const bool awaited = parts.back() == "__await__";
    if (awaited) parts.pop_back();
    if (parts.empty()) continue;
    // An attribute read, assigned or deleted (`Cls.size.__set__`) runs its
    // property's accessor of that kind, and nothing when it is no property.
    const std::string_view access = property_access(parts.back());
    if (!access.empty()) parts.pop_back();
    if (parts.empty()) continue;
    // `make().m` (scan::type_test_calls writes a call's result so): the
    // name of the call, whose result the last name is read on.
    std::size_t called = parts.size();
    for (std::size_t i = 0; i < parts.size(); ++i)
      if (parts[i].ends_with("()")) {
        parts[i].remove_suffix(2);
        called = i;
      }
    bool shadowed = false;
    Impl::Ref r = resolve(parts, shadowed);
    // Its Python code does not run: no link to it.
    if (shadowed) continue;
    // The class whose method or attribute the last name is: a class named
    // through an import, or the class a function's result is an instance
    // of (`make_thing().m`, the test's `r = make_thing(); r.m()`; a
    // property's `Cls.prop.m`).
    Impl::Ref owner;
    // The last name is read on the instance a function returns.
    bool returned = false;
    if (parts.size() >= 2) {
      bool owner_shadowed = false;
      owner = resolve(std::vector<std::string_view>(parts.begin(), parts.end() - 1), owner_shadowed);
      if (owner.kind == Impl::Ref::function && !owner_shadowed) {
        // A property's getter is read, not called: its result too.
        const bool result = called + 2 == parts.size() || m->nodes[owner.node].p->fn->property == "getter";
        owner = result ? m->returned_class(owner.node) : Impl::Ref{};
        returned = owner.kind == Impl::Ref::klass;
      }
      if (owner.kind != Impl::Ref::klass || owner_shadowed) owner = {};
    }
    if (returned && r.kind == Impl::Ref::none)
      if (int n = m->lookup_method(owner.module_index, owner.qualname, parts.back(), 0); n >= 0)
        r = {Impl::Ref::function, m->nodes[n].module, m->nodes[n].p->qualname, n};
    std::vector<int> nodes;
    if (!access.empty()) {
      auto add = [&](int n) {
        if (n < 0) return;
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
        if (imported && std::find(imported->begin(), imported->end(), n) == imported->end()) imported->push_back(n);
      };
      int accessor = r.kind == Impl::Ref::function ? m->accessor(r.node, access) : -1;
      if (accessor < 0 && r.kind == Impl::Ref::none && owner.kind == Impl::Ref::klass)
        accessor = m->lookup_property(owner.module_index, owner.qualname, parts.back(), access, 0);
      add(accessor);
      // Assigning or deleting any attribute of an instance runs its
      // class's `__setattr__` or `__delattr__` first, when the repository
      // defines one for it.
      if (access != "getter" && owner.kind == Impl::Ref::klass)
        add(m->lookup_method(owner.module_index, owner.qualname, access == "setter" ? "__setattr__" : "__delattr__", 0));
      continue;
    }
    if (int n = m->called_node(r); n >= 0) {
      if (awaited && !m->nodes[n].p->fn->is_async) continue;
      nodes.push_back(n);
      if (imported && std::find(imported->begin(), imported->end(), n) == imported->end()) imported->push_back(n);
    } else if (r.kind == Impl::Ref::none && !returned && parts.back() != "__call__") {
      // A guess by name, unless the receiver's class is known (and lacks
      // the method: C code's, or `__getattr__`'s). An instance called
      // (`pipe()`, written `Pipe().__call__`) names its class's method or
      // nothing: most classes are called only to be made.
      auto it = m->named.find(parts.back());
      if (it != m->named.end() && it->second.size() <= k_max_test_guesses) nodes = it->second;
      if (awaited) std::erase_if(nodes, [&](int n) { return !m->nodes[n].p->fn->is_async; });
    }
    for (int n : nodes)
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

std::vector<std::pair<int, int>> CallGraph::reach(const std::vector<int>& from) const {
  std::vector<std::pair<int, int>> out;
  std::unordered_set<int> seen;
  for (int n : from)
    if (n >= 0 && n < static_cast<int>(m->nodes.size()) && seen.insert(n).second) out.emplace_back(n, 0);
  for (std::size_t at = 0; at < out.size(); ++at) {
    auto [n, depth] = out[at];
    if (depth >= k_max_reach_depth) continue;
    for (int c : m->callees[n]) {
      if (seen.size() >= k_max_reached) return out;
      if (seen.insert(c).second) out.emplace_back(c, depth + 1);
    }
  }
  return out;
}

std::vector<std::string> CallGraph::test_chain(std::string_view test_path, const model::FileFacts& test_facts,
                                               const std::vector<std::string>& calls, std::string_view record_path,
                                               const model::ThrowSite& site) const {
  return chain_to(resolve_test_calls(test_path, test_facts, calls), node_of(record_path, site));
}

std::vector<std::string> CallGraph::chain_to(const std::vector<int>& from, int to) const {
  return detail::chain_up_to(m->callers, from, to, {k_max_depth, k_max_visited}, [&](int n) { return m->name(n); });
}

std::size_t link_entry_points(const CallGraph& graph, const std::vector<model::ThrowSite>& sites,
                              std::vector<model::ErrorRecord>& records, std::size_t max) {
  return detail::fill_entry_points(
      records, sites.size(), [&](std::size_t i) { return graph.node_of(records[i].file_path, sites[i]); },
      [&](int node) { return graph.entry_points(node, max); });
}

}  // namespace errdex::analyze
