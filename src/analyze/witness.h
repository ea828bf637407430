// What a test writes that says which of the sites it reaches it means:
// the words of its code and name found in a site's message or guards
// (evidence.cc's test links, for a test without a regex).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "model/error_record.h"
#include "model/throw_site.h"

namespace errdex::analyze::detail {

// The identifiers of a test's code that may name what it does wrong
// (`ssl_handshake_timeout=-10`): 4 characters or more, not the test's own
// machinery, nor a word followed by a dot: a receiver or a module says
// what is called, not what is wrong (`loop` of `self.loop.
// run_until_complete(f)` is in "Event loop stopped" as much as in any of
// the loop's messages; `errors` of `errors.HeaderParseError` in every
// `except errors.HeaderParseError:` guard).
std::vector<std::string_view> code_words(const model::TestExpectation& e);

// Whether `w` stands in `text` as a whole word (no letter, digit or `_`
// next to it).
bool has_word(std::string_view text, std::string_view w);

// Of several sites a test reaches that all agree, the ones whose guard or
// message (its own or a variant) names what the test's code names (a keyword argument, a
// variable): `SSLProtocol(..., ssl_handshake_timeout=-10)` raises the
// site guarding `ssl_handshake_timeout`, not its `ssl_shutdown_timeout`
// twin. All of them when none or all name one.
void keep_named(std::vector<std::size_t>& found, const model::TestExpectation& e,
                const std::vector<model::ThrowSite>& sites, const std::vector<model::ErrorRecord>& records);

// Whether what a test writes says which site it means: a word of its code
// (`ssl_handshake_timeout=-10`) in the site's message (its own or a
// variant) or a guard, or a
// word of its name (`test_negative_timeout`) in them, and in none of
// `others` (the deeper sites of the class it reaches): `copyreg.pickle(t,
// int, "not a callable")` names "callable", which both `pickle`'s and
// `constructor`'s messages hold.
bool witnessed(const model::TestExpectation& e, const model::ThrowSite& s, const model::ErrorRecord& r,
               const std::vector<std::size_t>& others, const std::vector<model::ThrowSite>& sites,
               const std::vector<model::ErrorRecord>& records);

}  // namespace errdex::analyze::detail
