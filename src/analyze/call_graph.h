#pragma once
// How users get to a raise (evidence.entryPoints): a repository-wide call
// graph of Python functions built from each file's FileFacts (calls as
// written, imports, classes' bases, `__all__`), with module names from the
// files' paths under the import roots. Calls resolve through the module's
// names and imports (`import x`, `import x as z`, `from x import y as z`,
// relative and `*` imports), `self.m`/`cls.m` through the class and its
// bases defined in the repository, `super().m` through the bases, names
// bound to a constructor's result (`d = Decoder()`, `self.d = ...`,
// module-level ones), and, for a receiver of unknown type, a method name
// defined at most twice in the caller's top-level package. Walks are
// bounded in depth and in nodes visited.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyze/evidence.h"
#include "model/error_record.h"
#include "model/throw_site.h"

namespace errdex::analyze {

// What one Python file's facts give the call graph on their own (its
// module's name, imports, classes and functions). A scan of many revisions
// keeps it for each file whose content and module are unchanged, and
// builds only the graph's edges again.
struct CallGraphModule;
// Null for a file that is no Python module (module_name). Keeps `facts`.
std::shared_ptr<const CallGraphModule> call_graph_module(const std::string& path,
                                                         std::shared_ptr<const model::FileFacts> facts,
                                                         const std::vector<std::string>& import_roots);

class CallGraph {
 public:
  // `files`: every file read (sites, tests as evidence, calls only); only
  // Python ones (".py") count. `import_roots` as source::import_roots.
  CallGraph(const std::vector<FileFactsAt>& files, const std::vector<std::string>& import_roots);
  // The same from each file's call_graph_module, in the files' order (null
  // ones are left out); the first of a module's name is the module.
  explicit CallGraph(std::vector<std::shared_ptr<const CallGraphModule>> modules);
  ~CallGraph();
  CallGraph(const CallGraph&) = delete;
  CallGraph& operator=(const CallGraph&) = delete;

  // The function a site of `file_path` raises in (a closure stands for the
  // function that defines it; a property's setter and deleter are
  // functions of their own), or -1 (module level, or not Python).
  int node_of(std::string_view file_path, const model::ThrowSite& site) const;
  // Up to `max` public functions or methods that lead to `node`, shortest
  // chain first; each chain from the entry point down to `node`. A public
  // `node` is its own first entry point (chain of one). A property's
  // setter or deleter has its getter's.
  std::vector<model::EntryPoint> entry_points(int node, std::size_t max = 3) const;
  // A record's entry points (its site gave it): for the prose writer.
  std::vector<model::EntryPoint> entry_points(const model::ErrorRecord& record, const model::ThrowSite& site,
                                              std::size_t max = 3) const;
  // The functions that calls as a test writes them (`json.loads`,
  // `JSONDecoder`, `wrap`; `self.` already dropped) name through the
  // imports of the test's file `facts`; a call no import explains (a
  // method of a local object, a name the test module binds at run time)
  // stands for the functions of that name when the repository defines it
  // at most a few times.
  // A call through a module whose Python code a C accelerator replaces
  // (`from _decimal import *` of a module the repository lacks) names
  // nothing, unless the test loads it with the accelerator blocked (an
  // import `m as m`, as scan::type_test_calls writes it). With `imported`,
  // the nodes named through an import (not guessed by name) are also
  // listed there. An attribute access written as its descriptor method
  // (`Cls.size.__get__` for a read, `__set__` an assignment, `__delete__`
  // a `del`) names the property's accessor of that kind, through an
  // import only, and nothing when the attribute is no property; an
  // assignment or `del` also names the class's `__setattr__` or
  // `__delattr__` when the repository defines one. A call's result
  // (`make_thing().m`, as scan::type_test_calls writes `r = make_thing();
  // r.m()`) and a property getter's (`Cls.prop.m`) are instances of the
  // class the function returns (model::FunctionCalls::returns): `m` is its
  // method, and no guess by name is made when it has none. An attribute a
  // class body binds with `x = property(getx, setx)` names those accessors.
  // A call written with `.__await__` after it (`loop.create_server.
  // __await__`: the test made the coroutine before its expectation and
  // awaits it there) names its function only when that is an `async def`.
  std::vector<int> resolve_test_calls(std::string_view file_path, const model::FileFacts& facts,
                                      const std::vector<std::string>& calls,
                                      std::vector<int>* imported = nullptr) const;
  // The shortest chain (dotted names) from one of `from` down to `to`, or
  // empty when none is within the bounds.
  std::vector<std::string> chain_to(const std::vector<int>& from, int to) const;
  // The functions `from` lead to, each with its distance (0 for `from`
  // themselves), nearest first; bounded in depth and count.
  std::vector<std::pair<int, int>> reach(const std::vector<int>& from) const;
  // Whether a test whose calls are `calls` (in the test file `test_path`
  // with facts `test_facts`) reaches the function of `site` (of
  // `record_path`): the chain from the test's call down to it, or empty.
  std::vector<std::string> test_chain(std::string_view test_path, const model::FileFacts& test_facts,
                                      const std::vector<std::string>& calls, std::string_view record_path,
                                      const model::ThrowSite& site) const;

  // The method a call `self.name()` in the method defined at `def_line` of
  // `file_path` runs when its own class does not define `name`: the one
  // its bases define, in any file of the repository (`GzipFile.write`'s
  // `self._check_not_closed()` is `_compression.BaseStream`'s); -1 for
  // none, or for a function that is no method.
  int inherited_method(std::string_view file_path, int def_line, std::string_view name) const;
  // The facts of a node's function.
  const model::FunctionCalls& function(int node) const;

  // The dotted name a user writes for a node: "json.loads",
  // "json.decoder.JSONDecoder.decode", "pkg.Cls" for its `__init__`.
  std::string name(int node) const;
  bool is_public(int node) const;
  // The path of the file that defines `node`.
  std::string_view file_of(int node) const;
  std::size_t size() const;
  std::size_t edges() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

// Fills each record's evidence.entry_points (`sites[i]` gave `records[i]`).
// Returns how many records got at least one.
std::size_t link_entry_points(const CallGraph& graph, const std::vector<model::ThrowSite>& sites,
                              std::vector<model::ErrorRecord>& records, std::size_t max = 3);

// A module's dotted name from a file's path under the longest import root
// that holds it ("Lib/json/decoder.py" → "json.decoder", a package's
// `__init__.py` → the package); "" for a file that is not Python.
std::string module_name(std::string_view path, const std::vector<std::string>& import_roots);

}  // namespace errdex::analyze
