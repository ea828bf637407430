#pragma once
// How users get to a JavaScript or TypeScript throw (evidence.entryPoints):
// a repository-wide call graph of the functions and methods the JavaScript
// frontend lists (scan/javascript/calls.h), the sibling of CallGraph
// (Python). The two share their walks (caller_walk.h), not a base class: no
// caller takes one for the other, and each names and publishes its functions
// by its language's rules. Modules are files; a relative specifier (`./x`,
// `../y/z.js`) names the file `x.js`, `x.ts` (and the other extensions),
// `x/index.*`, or, as TypeScript writes it, `x.ts` for `x.js`. A bare
// specifier (`lodash`, `node:fs`) leads outside the repository: no edge. A
// call resolves through the names the module defines or imports (named,
// default and namespace imports, `require` with destructuring, re-exports
// and `export *`), `this.m()` through the caller's class and the classes it
// extends in the repository, `super(…)`/`super.m()` through the base, `new
// Cls()` to Cls's constructor (its base's when it has none), a name bound to
// `new Cls()` to Cls's methods, and a method called on a receiver of unknown
// type to the methods of that name when the repository defines at most two.
// Walks are bounded in depth and in nodes visited.
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

// Whether a path is one the JavaScript graph reads (.js, .mjs, .cjs, .jsx,
// .ts, .mts, .cts, .tsx; not a declaration file).
bool is_javascript_path(std::string_view path);

// A package.json of the repository: its folder ("" at the top), the files
// its `main`, `module`, `browser` (a string) and `exports` name, as
// written (not type declarations), and whether it has `exports`, which
// hides every other file from its users (without it, `pkg/lib/x` may be
// imported too).
struct JsPackage {
  std::string dir;
  std::vector<std::string> entries;
  bool has_exports = false;
};

// A package.json's text read (`dir` left empty); no entries for text that
// is no JSON object.
JsPackage read_package(std::string_view package_json);

class JsCallGraph {
 public:
  // `files`: the code files of the scan (not its tests); only JavaScript
  // and TypeScript ones count. Their facts must outlive the graph.
  // `packages`: in the folder of a package with `exports`, only the
  // modules its entry files import (re-export, require), directly or not,
  // are public; where it has only `main`/`module`, those come first among
  // entry points of one chain length. An entry in a build folder that is
  // not in the repository (`dist/source/index.js`) is looked for as its
  // source: the path without its leading build folders (`dist`, `build`,
  // `lib`, `out`, `npmDist`, `cjs`, `esm`), also under `src/`, `source/`
  // and `lib/`, `.ts` for `.js`.
  explicit JsCallGraph(const std::vector<FileFactsAt>& files, const std::vector<JsPackage>& packages = {});
  ~JsCallGraph();
  JsCallGraph(const JsCallGraph&) = delete;
  JsCallGraph& operator=(const JsCallGraph&) = delete;

  // The function a site of `file_path` throws in (a callback or closure
  // stands for the named function around it), or -1 (top level, or not
  // a file of the graph).
  int node_of(std::string_view file_path, const model::ThrowSite& site) const;
  // Up to `max` public functions or methods that lead to `node`, shortest
  // chain first (the throwing module's own first at equal length); each
  // chain from the entry point down to `node`. A public `node` is its own
  // first entry point.
  std::vector<model::EntryPoint> entry_points(int node, std::size_t max = 3) const;
  // The functions calls as written in `file_path` (`parse`, `ns.f`,
  // `Lexer` for `new Lexer`) name through that file's imports and
  // definitions (the file need not be a node's: a test file's facts).
  // `locals` types receivers: {"p", "new Parser"} makes `p.parse` Parser's
  // method `parse` (or its base's). `unresolved`, when given, counts the
  // calls that named no function of the graph.
  std::vector<int> resolve_calls(std::string_view file_path, const model::FileFacts& facts,
                                 const std::vector<std::string>& calls,
                                 const std::vector<std::pair<std::string, std::string>>& locals = {},
                                 std::size_t* unresolved = nullptr) const;
  // The functions `from` lead to, each with its distance (0 for `from`
  // themselves), nearest first, bounded in depth and count; `complete`
  // says whether the bounds left no callee out.
  std::vector<std::pair<int, int>> reach(const std::vector<int>& from, bool* complete = nullptr) const;
  // The shortest chain (names) from one of `from` down to `to`, or empty
  // when none is within the bounds.
  std::vector<std::string> chain_to(const std::vector<int>& from, int to) const;

  // The name a user writes for a node: `parse` for an exported function,
  // `Lexer.advance` for a method, `new Lexer` for a constructor,
  // `api.parse` for a method of an object literal; a default export of no
  // name is named after its file (its folder's for an `index` file).
  std::string name(int node) const;
  // Exported by its module (a function, an object literal holding it, or
  // its class), with no name along its qualname starting with `_` or `#`;
  // in a package with `exports`, a module its entry files lead to.
  bool is_public(int node) const;
  std::string_view file_of(int node) const;
  std::size_t size() const;
  std::size_t edges() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

// Fills the evidence.entry_points of each JavaScript or TypeScript record
// (`sites[i]` gave `records[i]`); the others are left alone. Returns how
// many records got at least one.
std::size_t link_javascript_entry_points(const JsCallGraph& graph, const std::vector<model::ThrowSite>& sites,
                                         std::vector<model::ErrorRecord>& records, std::size_t max = 3);

}  // namespace errdex::analyze
