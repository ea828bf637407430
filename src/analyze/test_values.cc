#include "analyze/test_values.h"

#include <algorithm>
#include <string>

#include "analyze/call_text.h"
#include "analyze/witness.h"

namespace errdex::analyze::detail {
namespace {

// Calls a test's values are followed down through (chained_bindings).
constexpr int k_max_hops = 3;

// What the test's own locals hold where it calls (TestExpectation::
// locals), those that are literals: `exts = 'foo'` then `f(exts)` binds
// `'foo'`. Null when none is, so an argument is read as a literal alone.
struct TestScope {
  Bindings values;
  explicit TestScope(const model::TestExpectation& e) {
    for (const auto& [name, text] : e.locals)
      if (auto v = literal_value(text)) values.emplace(name, std::move(*v));
  }
  const Bindings* get() const { return values.empty() ? nullptr : &values; }
};

// The argument texts of a test's calls of `callee` (call_argument_lists);
// for a coroutine function (`deferred`: its body runs when awaited) that
// the test's code does not call, those of the calls its locals were bound
// to (`coro = loop.create_connection(P, 'x', 80)`, then
// `loop.run_until_complete(coro)`). A plain function's call in a local's
// binding ran before the expectation and did not raise there.
std::optional<std::vector<std::string>> test_calls_of(const model::TestExpectation& e, std::string_view callee,
                                                      bool deferred) {
  auto calls = call_argument_lists(e.code, callee);
  if (calls || !deferred) return calls;
  std::optional<std::vector<std::string>> out;
  for (const auto& [name, text] : e.locals) {
    auto made = call_argument_lists(text, callee);
    if (!made) continue;
    if (!out) out.emplace();
    out->insert(out->end(), made->begin(), made->end());
  }
  return out;
}

// How a test calls the function `site` raises in, by name: the name it
// writes (a constructor's class for `__init__` and `__new__`: `C(x)` runs
// `C.__new__(C, x)`, then `__init__`), and whether its receiver is bound
// (not passed as an argument). Empty when the name may not be
// what is called: a special method, a decorator other than staticmethod or
// classmethod.
struct CallShape {
  std::string_view callee;
  bool receiver_bound = false;
};
std::optional<CallShape> call_shape(const model::TestExpectation& e, const model::ThrowSite& site) {
  const bool constructor = site.function == "__init__" || site.function == "__new__";
  if (site.function.empty() || (site.function.starts_with("__") && !constructor)) return std::nullopt;
  bool is_static = false;
  for (const auto& d : site.decorators) {
    if (d != "staticmethod" && d != "classmethod") return std::nullopt;
    is_static = is_static || d == "staticmethod";
  }
  CallShape out;
  out.callee = last_component(constructor ? std::string_view(site.class_name) : site.function);
  // A method named through its class (`Decimal.as_integer_ratio`) is
  // handed its instance as the first argument; a classmethod (by its
  // decorator, or `cls` as `get_value = classmethod(get_value)` leaves it)
  // is not.
  out.receiver_bound = !site.class_name.empty() && !is_static;
  if (out.receiver_bound && !constructor && site.function_params.starts_with("self") &&
      std::find(site.decorators.begin(), site.decorators.end(), "classmethod") == site.decorators.end() &&
      has_word(e.code, std::string(last_component(site.class_name)) + "." + site.function))
    out.receiver_bound = false;
  return out;
}

// A function a test's values are followed into: its name, class (empty
// for a module's function) and parameter list.
struct Callee {
  std::string_view function;
  std::string_view class_name;
  std::string_view params;
};

// What the parameters of `target` hold when a test reaches it through
// functions of its file that pass their values on: `f(b'x')` of `def f(s):
// _check(s, 0)`, the test's literals bound to `f`'s parameters, `f`'s names
// at its call of the helper (names_at), the helper's call read on them;
// down up to `hops` calls (`f` → `_g` → `_check`). One list per call of the
// first function in the test's code. Only one caller of `target` leads to
// it so, and its one statement calling it is a statement of its body
// itself (it runs whenever the caller does not stop first); empty when
// there is none such, or the test's code calls the first in no way
// call_argument_lists follows.
std::vector<std::optional<Bindings>> chained_bindings(const model::TestExpectation& e, const Callee& target,
                                                      const model::FileFacts& file, const Bindings& constants,
                                                      int hops) {
  std::vector<std::optional<Bindings>> out;
  // A constructor (`__init__`) is called by its class's name, from any
  // function (`def new(key, digestmod=''): return HMAC(key, digestmod)`).
  const bool constructor = target.function == "__init__" && !target.class_name.empty();
  if (hops < 1 || target.function.empty() || (target.function.starts_with("__") && !constructor)) return out;
  const bool method = !target.class_name.empty();
  const model::FunctionCalls* caller = nullptr;
  const model::StatementCall* passed = nullptr;
  std::vector<std::optional<Bindings>> caller_bounds;
  for (const auto& fn : file.functions) {
    if (fn.nested || fn.name == target.function) continue;
    const model::StatementCall* one = nullptr;
    bool several = false;
    for (const auto& c : fn.statement_calls) {
      // A method through `self.`, a module's function by its name.
      const bool calls_it = constructor ? c.callee == last_component(target.class_name)
                            : method    ? (c.callee.starts_with("self.") || c.callee.starts_with("cls.")) &&
                                           std::string_view(c.callee).substr(c.callee.find('.') + 1) == target.function
                                        : c.callee == target.function;
      if (!calls_it) continue;
      several = several || one;
      one = &c;
    }
    if (!one) continue;
    // Its name in the test's code: a constructor's class for `__init__`.
    std::string_view name = fn.name;
    const auto dot = fn.qualname.rfind('.');
    if (fn.name == "__init__") {
      if (dot == std::string::npos) continue;
      name = last_component(std::string_view(fn.qualname).substr(0, dot));
    } else if (fn.name.starts_with("__")) {
      continue;
    }
    std::vector<std::optional<Bindings>> got;
    const bool bound_first = dot != std::string::npos && (fn.params.starts_with("self") || fn.params.starts_with("cls"));
    if (has_word(e.code, name)) {
      if (auto calls = call_argument_lists(e.code, name)) {
        const TestScope scope(e);
        for (const auto& args : *calls) got.push_back(bind_call(fn.params, args, bound_first, nullptr, scope.get()));
      }
    } else if (hops > 1) {
      const std::string_view cls = dot == std::string::npos ? std::string_view() : std::string_view(fn.qualname).substr(0, dot);
      got = chained_bindings(e, {fn.name, bound_first ? cls : std::string_view(), fn.params}, file, constants, hops - 1);
    }
    if (got.empty()) continue;
    if (caller || several || !one->top || (!fn.bindings.empty() && fn.bindings.back().name == "*")) return {};
    // A method of another class than the helper's calls a `self.` helper
    // of its own.
    if (method && !constructor && !fn.qualname.starts_with(std::string(target.class_name) + ".")) return {};
    caller = &fn;
    passed = one;
    caller_bounds = std::move(got);
  }
  if (!caller) return out;
  for (const auto& bound : caller_bounds) {
    if (!bound) {
      out.emplace_back();
      continue;
    }
    const Bindings there = names_at(passed->line, *caller, *bound, constants);
    out.push_back(bind_call(std::string(target.params), passed->args, method, nullptr, &there));
  }
  return out;
}

}  // namespace

TestValues test_values(const model::TestExpectation& e, const model::ThrowSite& site, std::string_view path,
                       const BindingFacts& facts, int level) {
  TestValues out;
  out.known = facts.constants(path);
  auto shape = call_shape(e, site);
  if (!shape) return out;
  const model::FunctionCalls* fn = facts.function(path, site);
  if (auto calls = test_calls_of(e, shape->callee, fn && fn->is_async)) {
    if (shape->receiver_bound) out.state = instance_state(e, site, path, facts, out.known);
    const TestScope scope(e);
    for (const auto& args : *calls)
      out.bounds.push_back(bind_call(site.function_params, args, shape->receiver_bound, nullptr, scope.get()));
  } else if (const model::FileFacts* file = facts.module(path); file && level >= 1) {
    // The test calls a function that hands its values on to this one.
    out.bounds = chained_bindings(e, {site.function, site.class_name, site.function_params}, *file, out.known,
                                  std::min(level, k_max_hops));
  }
  for (const auto& [name, value] : out.state) out.known.insert_or_assign(name, value);
  return out;
}

bool keep_by_literals(std::vector<std::size_t>& found, const model::TestExpectation& e,
                      const std::vector<model::ThrowSite>& sites, const std::vector<model::ErrorRecord>& records,
                      const BindingFacts& facts, bool no_deeper, bool whole, int level) {
  if (found.empty()) return false;
  const model::ThrowSite& first = sites[found[0]];
  for (std::size_t r : found) {
    const model::ThrowSite& s = sites[r];
    if (records[r].file_path != records[found[0]].file_path || s.function != first.function ||
        s.function_line != first.function_line || s.class_name != first.class_name)
      return false;
  }
  const model::FunctionCalls* fn = facts.function(records[found[0]].file_path, first);
  if (!fn || (!fn->bindings.empty() && fn->bindings.back().name == "*")) return false;
  const TestValues values = test_values(e, first, records[found[0]].file_path, facts, level);
  const Bindings& known = values.known;
  const Bindings& state = values.state;
  const auto& bounds = values.bounds;
  if (bounds.empty()) return false;
  for (const auto& bound : bounds) {
    if (!bound || (bound->empty() && state.empty())) return false;
    std::vector<std::pair<int, std::optional<bool>>> verdicts;
    for (std::size_t r : found)
      verdicts.emplace_back(sites[r].line, site_reached(sites[r], names_at(sites[r].line, *fn, *bound, known)));
    std::optional<std::size_t> pick;
    // The first decided reached raises; one below it that holds too never runs.
    for (std::size_t k = 0; k < found.size(); ++k)
      if (verdicts[k].second == true && (!pick || verdicts[k].first < verdicts[*pick].first)) pick = k;
    if (!pick) {
      // None reached by this call: the next one raises, if nothing deeper can.
      if (no_deeper && std::all_of(verdicts.begin(), verdicts.end(), [](const auto& v) { return v.second == false; }))
        continue;
      // The test's one call decided not to reach all sites but one: that
      // one is left, a lone site (not decided reached).
      const auto open = [](const auto& v) { return v.second != false; };
      if (whole && bounds.size() == 1 && std::count_if(verdicts.begin(), verdicts.end(), open) == 1)
        found = {found[static_cast<std::size_t>(std::find_if(verdicts.begin(), verdicts.end(), open) - verdicts.begin())]};
      return false;
    }
    for (std::size_t k = 0; k < found.size(); ++k)
      if (k != *pick && verdicts[k].first < verdicts[*pick].first && verdicts[k].second != false) return false;
    found = {found[*pick]};
    return true;
  }
  return false;
}

bool call_misses_site(const model::TestExpectation& e, const model::ThrowSite& site, const model::ErrorRecord& r,
                      const BindingFacts& facts, int level) {
  auto shape = call_shape(e, site);
  if (!shape) return false;
  const model::FunctionCalls* fn = facts.function(r.file_path, site);
  if (!fn || (!fn->bindings.empty() && fn->bindings.back().name == "*")) return false;
  auto calls = test_calls_of(e, shape->callee, fn->is_async);
  Bindings known = facts.constants(r.file_path);
  if (!calls && level >= 1) {
    const model::FileFacts* file = facts.module(r.file_path);
    if (!file) return false;
    auto bounds = chained_bindings(e, {site.function, site.class_name, site.function_params}, *file, known,
                                   std::min(level, k_max_hops));
    return !bounds.empty() && std::all_of(bounds.begin(), bounds.end(), [&](const std::optional<Bindings>& b) {
      return b && !b->empty() && site_reached(site, names_at(site.line, *fn, *b, known)) == false;
    });
  }
  if (!calls || calls->empty() || level != 0) return false;
  const Bindings state = shape->receiver_bound ? instance_state(e, site, r.file_path, facts, known) : Bindings();
  for (const auto& [name, value] : state) known.insert_or_assign(name, value);
  const TestScope scope(e);
  for (const auto& args : *calls) {
    bool misfit = false;
    auto bound = bind_call(site.function_params, args, shape->receiver_bound, &misfit, scope.get());
    if (misfit) continue;
    if (!bound || (bound->empty() && state.empty()) || site_reached(site, names_at(site.line, *fn, *bound, known)) != false)
      return false;
  }
  return true;
}

}  // namespace errdex::analyze::detail
