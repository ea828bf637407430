#pragma once
// Internal to the scan stage: Python string-literal and format-string
// grammar, independent of the parser. Pure functions.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/throw_site.h"

namespace errdex::scan::python {

// What the prefix of a string literal (`rb`, `F`, `u`, ...) says.
struct StringPrefix {
  bool raw = false;
  bool fstring = false;
  bool bytes = false;
};
// `start_token` is the string_start token, e.g. `rf"""`.
StringPrefix parse_prefix(std::string_view start_token);

// Appends the value of literal text `body` (the characters between the
// quotes, or between interpolations) to `parts`, merging with a trailing
// literal part. Escapes are decoded unless `raw`; `{{`/`}}` become single
// braces when `fstring`; line endings become "\n" as Python's universal
// newlines do. Invalid UTF-8 and lone surrogates are replaced by U+FFFD so
// literal text is always valid UTF-8. `\N{NAME}` (no Unicode name table
// here) becomes an interpolation of one character: text `\N{NAME}`,
// printf_conv 'c'.
void decode_literal(std::string_view body, const StringPrefix& prefix,
                    std::vector<model::TemplatePart>& parts);

// Whitespace runs (including newlines) become one space; ends trimmed.
std::string collapse_ws(std::string_view s);

// A %-format string split into literal text and conversions.
struct PrintfPiece {
  bool literal = true;
  std::string text;       // literal: the text, with `%%` already turned into `%`
  std::string key;        // conversion: the mapping key of `%(key)s`, else ""
  int star_args = 0;      // conversion: arguments consumed by `*` width/precision
  char conv = 0;          // conversion: 's', 'd', 'f', ...
  bool plain = false;     // conversion: no flags and no width (output unpadded)
};
// nullopt when `fmt` is not a valid %-format (Python would raise).
std::optional<std::vector<PrintfPiece>> parse_printf(std::string_view fmt);

// A str.format() template split into literal text and replacement fields.
struct FormatPiece {
  bool literal = true;
  std::string text;  // literal: with `{{`/`}}` turned into single braces
  // Field: `arg` is the argument name or index as written ("" for `{}`),
  // `rest` the attribute/index suffix (".name", "[0]"), `conversion` the
  // letter after '!', `spec` the text after ':'.
  std::string arg;
  std::string rest;
  std::string conversion;
  std::string spec;
};
// nullopt when `fmt` is not a valid format string (Python would raise).
std::optional<std::vector<FormatPiece>> parse_format(std::string_view fmt);

// The printf-like conversion a format spec pins down (".2f" → 'f', "d" →
// 'd'), or 0 when the spec may pad, align or group the output.
char spec_conversion(std::string_view spec);

// Whether `class name` (at a line start, any indentation) in `source` has
// a `def __init__` or `def __str__` among the indented lines that follow
// it: a light look, for sources the outline blanked.
bool class_defines_methods(std::string_view source, std::string_view name);

// True when `src` nests deeper than tree-sitter-python's scanner can take
// (an over-estimate: lines inside brackets count too); such a file is not
// Python and is not parsed.
bool too_deeply_indented(std::string_view src);

// A statement's text as a test link shows it (TestExpectation::code): its
// first `max_lines` lines, each with up to `column` leading blanks removed
// (the statement's own indentation), trailing blanks and `\r` dropped.
std::string statement_lines(std::string_view text, std::uint32_t column, int max_lines);

// The end of the string literal whose quote is at `at` in source text `t`
// (past its closing quote; a backslash escapes the next character), or
// npos when it does not close.
std::size_t string_end(std::string_view t, std::size_t at);

// Splits the text after the opening bracket at `open` into its top-level
// comma-separated parts (trimmed, strings skipped whole), up to the
// closing bracket, whose index it returns; t.size() when it does not close
// (the parts read so far are in `out`).
std::size_t split_args(std::string_view t, std::size_t open, std::vector<std::string_view>& out);

}  // namespace errdex::scan::python
