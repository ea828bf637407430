// What a test's own locals hold where its expectation runs: the steps it
// takes on an instance it made (steps_on), the coroutines it made before
// and hands to the expectation (awaited_calls), and the locals bound to one
// value (local_values). Read from the test file's bindings
// (test_file_bindings.h), for type_test_calls.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/throw_site.h"
#include "scan/python/test_file_bindings.h"

namespace errdex::scan::python {

// What test `key` does to its local `name` after the statement at line
// `from` bound it to the call that made it, before its expectation at
// line `to` (TestExpectation::instance_steps): each statement of the
// binding's block that uses it, a method call on it alone (`close()`,
// `open('w')`) or a set of one of its attributes (`mode = 'r'`); "?" in
// place of the rest when it is used any other way (passed to a call,
// `b.x += 1`, `b.items[0] = 1`, in a nested block, rebound), after which
// what it holds is unknown.
std::vector<std::string> steps_on(const TestFileBindings& b, const std::string& key, std::string_view name, int from,
                                  int to);

// A call whose result the expectation awaits (call_graph.h): written
// `loop.create_server.__await__`.
constexpr std::string_view k_awaited = ".__await__";

// The calls whose results test `test` bound to a local before its
// expectation at `line` and hands to a call in it (`coro =
// loop.create_server(...)`, then `loop.run_until_complete(coro)`), marked
// awaited: a coroutine function's body runs only then. Not a local the
// expectation calls itself (`assertRaises(E, o)`: its `__call__`). As
// written, `self.` dropped.
std::vector<std::string> awaited_calls(const TestFileBindings& b, const model::TestExpectation& e);

// The locals of test `e` its code names that hold one value there
// (TestExpectation::locals): each binding of the name in the test's body
// (nested blocks and functions included) is `NAME = VALUE` at the top of
// the body, and a list, set or dict is never changed in place (`x.append`,
// `x[k] = v`) nor handed on before the expectation.
std::vector<std::pair<std::string, std::string>> local_values(const TestFileBindings& b,
                                                              const model::TestExpectation& e);

}  // namespace errdex::scan::python
