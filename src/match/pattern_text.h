#pragma once
// What the matcher reads off a record's messagePattern and errorMessage
// without running a regex: its constant text, the words that every message
// of the site must contain, and the names of its captures. Pure functions.
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace errdex::match {

struct PatternText {
  // Constant characters a message must contain (literal text outside groups).
  std::size_t constant_chars = 0;
  // Whole words of the constant text: runs of [A-Za-z0-9_] (and non-ASCII
  // bytes) bounded on both sides by constant non-word characters or by the
  // pattern's ends, so the same run appears as a whole word in every
  // matching message. A word touching a group is left out ("{n}th").
  std::vector<std::string> words;
  // True when the pattern cannot be relied on to require its constant text
  // (a top-level `|`, or syntax the reader does not follow).
  bool unreliable = false;
  // The literal runs of the constant text, in pattern order: every match
  // holds each of them, in this order, without overlap. Meaningful only
  // when !unreliable.
  std::vector<std::string> runs;
};

PatternText read_pattern(std::string_view pattern);

// Whole words of a message, in order, duplicates kept; the same word
// characters as PatternText::words.
void split_words(std::string_view text, std::vector<std::string_view>& out);

// The interpolations of an errorMessage template, in order: the text inside
// each top-level `{...}` ("{values}" -> "values", "{len(x)}" -> "len(x)").
std::vector<std::string> interpolation_names(std::string_view message_template);
// The same names appended to `out` as views into `message_template`: no
// allocation once `out` has room (the matcher's per-call path).
void interpolation_names(std::string_view message_template, std::vector<std::string_view>& out);

// The text inside string literals of the statement that starts at `line`
// in a source window whose first line is `window_start`: the words a raise
// like `raise suffixed_err(src, pos, "Invalid value")` carries even when its
// message is built elsewhere. Reads at most 12 lines, until brackets close.
std::string statement_literals(std::string_view window, int window_start, int line);

// `raise exc` of an exception built earlier: the last line above `line` in
// the window that assigns `name = Callee(...)`. Returns that line and the
// callee's name ("ValueError" of `ve_exc = ValueError("%r is ..." % x)`),
// or line 0 when there is none.
struct Assignment {
  int line = 0;
  std::string callee;
};
Assignment find_assignment(std::string_view window, int window_start, int line, std::string_view name);

// A raise whose whole message is the exception its handler caught
// (`except ImportError as err: raise ValueError(str(err))`; the message
// `{err}`, `{str(err)}` or `{err.args[0]}`): the caught classes' last
// names ("ImportError"; `except (A, b.B) as err` gives "A" and "B"), from
// the nearest enclosing `except ... as err:` above `line` in the window.
// None when the message is not that, or the handler is not in the window.
std::vector<std::string_view> caught_classes(std::string_view message_template, std::string_view window,
                                             int window_start, int line);

// Every character a word is made of: [A-Za-z0-9_] and non-ASCII bytes.
// A table, not a chain of comparisons: messages are read a byte at a time.
inline constexpr auto k_word_chars = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
  return t;
}();
inline bool is_word_char(unsigned char c) { return k_word_chars[c]; }

}  // namespace errdex::match
