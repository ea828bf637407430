// What a test's values make of the names a raise's guards read: the
// function's statements above the site run on the call's literals
// (names_at), and the state of the instance a test calls a method on
// (instance_state), from the scanner's facts of the files sites raise in.
// evidence.cc's test links ask them to pick a site among several.
#pragma once

#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyze/evidence.h"
#include "analyze/guard_eval.h"
#include "model/throw_site.h"

namespace errdex::analyze::detail {

// `Cls` of `pkg.mod.Cls`.
inline std::string_view last_component(std::string_view dotted) {
  auto dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

// The scanner's facts of the functions and modules sites raise in
// (model::Binding), for keep_by_literals. Only the few files whose sites a
// test reaches are asked about: a function is looked for in its file's
// list when asked, not indexed for every file of the repository.
class BindingFacts {
 public:
  explicit BindingFacts(const std::vector<FileFactsAt>& files) {
    m_modules.reserve(files.size());
    for (const auto& f : files)
      if (f.path && f.facts) m_modules.emplace(*f.path, f.facts);
  }

  const model::FileFacts* module(std::string_view path) const {
    auto it = m_modules.find(path);
    return it == m_modules.end() ? nullptr : it->second;
  }

  // The first function of that name defined at that line.
  const model::FunctionCalls* function(std::string_view path, const model::ThrowSite& s) const {
    const model::FileFacts* facts = module(path);
    if (!facts) return nullptr;
    for (const auto& fn : facts->functions)
      if (fn.line == s.function_line && fn.name == s.function) return &fn;
    return nullptr;
  }

  // The module-level names of `path` bound once, at its top level, to a
  // value guard_eval reads (`SINK = '--'`, `kinds = [SINK, 'x']`), that
  // no function of the file declares `global`. Read once per file: the
  // tests of a repository ask of the same few files again and again.
  // Not thread-safe.
  const Bindings& constants(std::string_view path) const {
    static const Bindings k_none;
    auto it = m_modules.find(path);
    if (it == m_modules.end()) return k_none;
    auto [kept, added] = m_constants.try_emplace(it->first);
    if (added) kept->second = constants_of(*it->second);
    return kept->second;
  }

 private:
  static Bindings constants_of(const model::FileFacts& facts) {
    Bindings out;
    const auto& bs = facts.module_bindings;
    if (!bs.empty() && bs.back().name == "*") return out;
    std::unordered_map<std::string_view, int> times;
    for (const auto& b : bs) ++times[b.name];
    for (const auto& fn : facts.functions)
      for (const auto& b : fn.bindings)
        if (b.kind == "global") times[b.name] += 2;
    for (const auto& b : bs)
      if (times[b.name] == 1 && b.kind == "assign" && b.top && b.loop == 0)
        if (auto v = evaluate_value(b.value, out)) out.emplace(b.name, std::move(*v));
    return out;
  }

  // By path (the caller's strings).
  std::unordered_map<std::string_view, const model::FileFacts*> m_modules;
  mutable std::unordered_map<std::string_view, Bindings> m_constants;
};

// What the names hold at `line` (a site's), from the call's literal
// arguments bound to the parameters (`params`) and the module's constants:
// the function's statements above it in order, a plain `name = value` of
// its body itself evaluated (`n = len(s)`, `x = int(x)`; unknown when
// guard_eval cannot), one in the block of an `if` of the body itself
// taken when the `if`'s condition is decided on what the names hold there
// (`if mode is None:` then `mode = 'r'`: run when it holds, skipped when it
// fails), any other binding (in another block, a loop target, `del`,
// `x += 1`, `x.append(...)`) making the name unknown, and one below the
// site too when it is in a loop that starts above it (the loop may come
// back to the site).
Bindings names_at(int line, const model::FunctionCalls& fn, const Bindings& params, const Bindings& constants);

// What the instance a test calls `site`'s method on holds ("self.x"): its
// class's `__init__` (in the site's file) run on the literal arguments of
// the test's constructor call (construction_of), its plain `self.x = value`
// statements of the body itself evaluated in order as names_at does; then
// the test's steps on the instance before its expectation, each method
// call run the same way on its literals (`c.close()` sets `self.closed =
// True`) and each attribute set taken (`c.mode = 'r'`). Left out, since
// they may have run too: what the methods of the class that the steps,
// `__init__`, the site's method or the expectation's calls call on `self`
// (transitively), its properties and its other special methods change,
// and what any function of the file outside the class changes of that
// name. When the steps are unknown (the test passed the instance to a
// call), what any other function of the file changes is left out. An
// attribute the class reads through an accessor (a property, a method of
// that name) is left out too. Nothing is known of a class whose `__init__`
// calls another `__init__` (a base's may set the same attributes), or that
// defines `__new__`, `__setattr__` or `__getattribute__`, or calls
// `setattr`, nor after a step calling a method the class does not define
// in the file (a base's, whose changes are unknown).
Bindings instance_state(const model::TestExpectation& e, const model::ThrowSite& site, std::string_view path,
                        const BindingFacts& facts, const Bindings& constants);

}  // namespace errdex::analyze::detail
