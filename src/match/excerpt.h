#pragma once
// What a record's source excerpt says about its throw site, for telling the
// site from the frame a traceback prints: the statement's first line and the
// function holding it, each as a small hash. Another version of a file holds
// the same statement on another line; the line Python prints under the
// frame, and the function it names, still find it.
#include <cstdint>
#include <string_view>

namespace errdex::match {

// A source line's identity, its surrounding blanks aside; never 0 (0 is
// "unknown" below). Also a function name's, for excerpt_function_hash.
std::uint32_t statement_hash(std::string_view line);

// statement_hash() of line `line` (1-based) of an excerpt starting at line
// `start`; 0 when the excerpt does not hold it.
std::uint32_t excerpt_line_hash(std::string_view excerpt, int start, int line);

// statement_hash() of the name of the function whose body holds line `line`
// of an excerpt starting at `start`: the nearest `def` above it indented
// less than the line. 0 when the excerpt does not show it, or a class body
// or the module holds the line.
std::uint32_t excerpt_function_hash(std::string_view excerpt, int start, int line);

// Where the error a JavaScript `throw name` (line `line`) throws was made:
// the nearest line above it, at most 8, that binds `name` to a new error
// (`const err = new Error(…)`, `err = Object.assign(new Error(…), …)`).
// V8's stack names that line, not the throw. Its distance above `line`
// and statement_hash() into `made`; 0 when the statement is no such throw
// or the excerpt does not show the binding.
int excerpt_made_above(std::string_view excerpt, int start, int line, std::uint32_t& made);

}  // namespace errdex::match
