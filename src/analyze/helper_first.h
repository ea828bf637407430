// Whether a helper the site's function calls before its raise may raise
// the class a test expects first (helper_may_raise_first), and whether the
// function is defined twice (defined_again): either makes a test's link to
// the site a guess. evidence.cc's test links ask them of the one site left.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

#include "analyze/test_bindings.h"
#include "model/error_record.h"
#include "model/throw_site.h"

namespace errdex::analyze::detail {

// The method a `self.m()` call runs when the caller's own class does not
// define it: its bases' (in any file), that file's path and facts. `fn`
// null when there is none.
struct Inherited {
  const model::FunctionCalls* fn = nullptr;
  std::string_view path;
  const model::FileFacts* file = nullptr;
};

// What helper_may_raise_first asks of the caller: whether record r agrees
// with the test's expectation; the records raised in the function of a
// file defined at a line; the method a `self.name()` call of `caller` (in
// `path`) inherits.
struct HelperQueries {
  std::function<bool(std::size_t)> agrees;
  std::function<const std::vector<std::size_t>&(std::string_view path, int def_line)> sites_of;
  std::function<Inherited(std::string_view path, const model::FunctionCalls& caller, std::string_view name)> inherited;
};

// Whether a function the site's function `fn` (of `file`) calls above the
// site `r` (a statement that is one call: `self._check_closed()`,
// `_validate(x)`), or one it calls in turn (a few calls down, in the site's
// file, or a base's method through `self.`), raises a class the test
// expects too: the test may meet its expectation there before the site's
// line runs (`loop.run_until_complete(f)` on a closed loop raises in
// `_check_closed()`, not at the `raise RuntimeError` below it), so the site
// is a guess, whatever its guards say. When the test's calls are read with
// their values (test_values), a helper raises first when it may for any of
// them, each helper's parameters bound to what its call hands it, and a
// raise of the helper whose guards fail on them does not count
// (`a85decode(b"x", adobe=True)` hands `_bytes_from_decode_data(b)` bytes,
// and its `if isinstance(s, str):` raise cannot run); an inherited
// method's parameters are not bound. Otherwise any raise of a helper that
// agrees counts.
bool helper_may_raise_first(const model::FunctionCalls& fn, const model::FileFacts& file,
                            const model::TestExpectation& e, std::size_t r, const std::vector<model::ThrowSite>& sites,
                            const std::vector<model::ErrorRecord>& records, const BindingFacts& facts, int level,
                            const HelperQueries& ask);

// Whether the function `fn` of `file` is defined again under its name in
// its scope (`if _mswindows: def _execute_child(...)` and `else: def
// _execute_child(...)`, or a later redefinition): which of the bodies a
// call runs depends on the platform or the order, so a site in either is
// a guess. A property's getter, setter and deleter share a name but are
// no redefinition.
bool defined_again(const model::FunctionCalls& fn, const model::FileFacts& file);

}  // namespace errdex::analyze::detail
