#include "analyze/helper_first.h"

#include <algorithm>
#include <optional>
#include <string>

#include "analyze/call_text.h"
#include "analyze/guard_eval.h"
#include "analyze/test_values.h"

namespace errdex::analyze::detail {
namespace {

// Up to how many calls down a helper called above a site is followed
// (helper_above_raises).
constexpr int k_max_helper_depth = 3;

// The function of `file` a statement of `caller` calls as written: a
// module function by its name, `self.m`/`cls.m` the method of the
// caller's own class; null when it is none of the file's.
const model::FunctionCalls* callee_in_file(const model::FileFacts& file, const model::FunctionCalls& caller,
                                           std::string_view callee) {
  std::string qualname;
  if (callee.starts_with("self.") || callee.starts_with("cls.")) {
    const auto dot = caller.qualname.rfind('.');
    if (dot == std::string::npos) return nullptr;
    qualname = caller.qualname.substr(0, dot + 1);
    callee.remove_prefix(callee.find('.') + 1);
  }
  if (callee.find('.') != std::string_view::npos || callee.empty()) return nullptr;
  qualname += callee;
  for (const auto& fn : file.functions)
    if (!fn.nested && fn.qualname == qualname) return &fn;
  return nullptr;
}

// Whether a function the site's function calls above the site (a
// statement that is one call: `self._check_closed()`, `_validate(x)`),
// or one it calls in turn (up to k_max_helper_depth calls down, in the
// site's file), raises a class the test expects too (`ask.agrees`): the test
// may meet its expectation there before the site's line runs
// (`loop.run_until_complete(f)` on a closed loop raises in
// `_check_closed()`, not at the `raise RuntimeError` below it), so the
// site is a guess, whatever its guards say. With `bound`, what the test's
// call binds the site function's parameters to (`known` the module's
// constants and the instance's state), each helper's parameters are bound
// to what its call hands it, and a raise of the helper whose guards fail
// on them does not count: `a85decode(b"x", adobe=True)` hands
// `_bytes_from_decode_data(b)` bytes, and its `if isinstance(s, str):`
// raise cannot run. A base's method a `self.m()` call inherits
// (`ask.inherited`) has its parameters not bound: any raise of it that
// agrees counts.
bool helper_above_raises(const model::FunctionCalls& fn, const model::FileFacts& file, std::string_view path,
                         int site_line, const std::vector<model::ThrowSite>& sites, const HelperQueries& ask,
                         const Bindings* bound, const Bindings& known) {
  std::vector<const model::FunctionCalls*> seen{&fn};
  std::function<bool(const model::FunctionCalls&, const model::FileFacts&, std::string_view, const Bindings*, int,
                     int)>
      raises = [&](const model::FunctionCalls& f, const model::FileFacts& in, std::string_view at_path,
                   const Bindings* at, int below, int depth) {
        for (const auto& c : f.statement_calls) {
          if (below > 0 && c.line >= below) break;
          Inherited g{callee_in_file(in, f, c.callee), at_path, &in};
          if (!g.fn && c.callee.starts_with("self.")) g = ask.inherited(at_path, f, std::string_view(c.callee).substr(5));
          if (!g.fn || std::find(seen.begin(), seen.end(), g.fn) != seen.end()) continue;
          seen.push_back(g.fn);
          std::optional<Bindings> passed;
          if (at && g.path == at_path && (g.fn->bindings.empty() || g.fn->bindings.back().name != "*")) {
            const Bindings there = names_at(c.line, f, *at, known);
            const bool receiver = g.fn->qualname.find('.') != std::string::npos &&
                                  (g.fn->params.starts_with("self") || g.fn->params.starts_with("cls"));
            passed = bind_call(g.fn->params, c.args, receiver, nullptr, &there);
          }
          for (std::size_t r : ask.sites_of(g.path, g.fn->line))
            if (ask.agrees(r) && !(passed && !passed->empty() &&
                               site_reached(sites[r], names_at(sites[r].line, *g.fn, *passed, known)) == false))
              return true;
          if (depth + 1 < k_max_helper_depth &&
              raises(*g.fn, *g.file, g.path, passed ? &*passed : nullptr, 0, depth + 1))
            return true;
        }
        return false;
      };
  return raises(fn, file, path, bound, site_line, 0);
}

}  // namespace

bool helper_may_raise_first(const model::FunctionCalls& fn, const model::FileFacts& file,
                            const model::TestExpectation& e, std::size_t r, const std::vector<model::ThrowSite>& sites,
                            const std::vector<model::ErrorRecord>& records, const BindingFacts& facts, int level,
                            const HelperQueries& ask) {
  const std::string& path = records[r].file_path;
  const TestValues values = test_values(e, sites[r], path, facts, level);
  const bool readable = !values.bounds.empty() && (fn.bindings.empty() || fn.bindings.back().name != "*") &&
                        std::all_of(values.bounds.begin(), values.bounds.end(), [&](const std::optional<Bindings>& b) {
                          return b && !(b->empty() && values.state.empty());
                        });
  if (!readable) return helper_above_raises(fn, file, path, sites[r].line, sites, ask, nullptr, values.known);
  return std::any_of(values.bounds.begin(), values.bounds.end(), [&](const std::optional<Bindings>& b) {
    return helper_above_raises(fn, file, path, sites[r].line, sites, ask, &*b, values.known);
  });
}

bool defined_again(const model::FunctionCalls& fn, const model::FileFacts& file) {
  if (!fn.property.empty()) return false;
  return std::any_of(file.functions.begin(), file.functions.end(), [&](const model::FunctionCalls& other) {
    return &other != &fn && other.qualname == fn.qualname && other.line != fn.line && other.property.empty();
  });
}

}  // namespace errdex::analyze::detail
