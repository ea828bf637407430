// What a test's calls hand the function a site raises in, and what the
// site's guards make of it (guard_eval.h): which of a function's sites the
// test's literal arguments lead to, and whether they miss a site.
// evidence.cc's test links ask them of the sites a test reaches.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "analyze/guard_eval.h"
#include "analyze/test_bindings.h"
#include "model/error_record.h"
#include "model/throw_site.h"

namespace errdex::analyze::detail {

// What a test's calls hand the function `site` raises in (of the file
// `path`): one binding of its parameters per call, null for a call it
// cannot read (keep_by_literals says how they are read); `state`, what the
// instance a method is called on holds (instance_state); `known`, the
// module's constants and that state.
struct TestValues {
  std::vector<std::optional<Bindings>> bounds;
  Bindings state;
  Bindings known;
};

// TestValues of a test `e` reaching `site` (a record of `path`) `level`
// calls below the test's own: its calls of the site's function read on its
// literals and locals, else (level >= 1) what a function of the file it
// calls hands on, a few calls down. No bounds when neither is read.
TestValues test_values(const model::TestExpectation& e, const model::ThrowSite& site, std::string_view path,
                       const BindingFacts& facts, int level);

// Of the sites of one function a test reaches that all agree, the one its
// call's literal arguments lead to: `parse('x' * 300)` meets `if len(s) >
// 255: raise` and none of its siblings' guards. The guards are evaluated
// on the literals bound to the function's parameters, through what the
// function assigns above each site (names_at), and for a method, what the
// test's constructor call and steps set its instance's attributes to
// (instance_state: `Buffer(0).read()` meets `if self.size == 0:`); for a
// site one call below the test's (`level` 1) that the test does not call
// itself, on what the function it calls hands on (chained_bindings). The
// first site whose condition guards all hold is picked when every site
// above it is decided not reached (one below it that holds too never
// runs). A test calling the function several times (`f(1); f(2)`) is
// followed call by call: a call decided to reach none of the sites goes on
// to the next when no site of the class is deeper (`no_deeper`), else
// nothing is picked. Returns whether one was picked (a lone site too,
// decided reached). Otherwise, when `found` holds every site of the
// function that agrees (`whole`) and the test's one call is decided not to
// reach all of them but one, `found` is left that one: a lone site, as if
// the others were not there (`BZ2File(f, 'rx')` fails `if not (1 <=
// compresslevel <= 9)`, and the mode check, whose branches rebind `mode`,
// is what is left); else `found` is left as is.
bool keep_by_literals(std::vector<std::size_t>& found, const model::TestExpectation& e,
                      const std::vector<model::ThrowSite>& sites, const std::vector<model::ErrorRecord>& records,
                      const BindingFacts& facts, bool no_deeper, bool whole, int level);

// Whether the test's own calls of the function a site raises in say the
// raise does not run: for every one, Python refuses the call
// (`D.from_float(1.1, context=xc)`: the TypeError the test expects is the
// call's), or the literals it passes fail one of the site's guards
// (`hmac.new("key", digestmod='sha256')` against `if not digestmod:`).
// For a site `level` calls below the test's that the test does not call
// itself, what the function it calls hands on (chained_bindings) fails
// one of the site's guards for every call.
bool call_misses_site(const model::TestExpectation& e, const model::ThrowSite& site, const model::ErrorRecord& r,
                      const BindingFacts& facts, int level);

}  // namespace errdex::analyze::detail
