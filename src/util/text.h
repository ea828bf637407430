#pragma once
// Small text helpers shared by every stage. Pure functions, thread-safe.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace errdex::util {

// 64-bit FNV-1a; stable across platforms and releases (ids depend on it).
std::uint64_t fnv1a64(std::string_view data, std::uint64_t seed = 0xcbf29ce484222325ULL);
// A bijective 64-bit finaliser (MurmurHash3's fmix64): every input bit
// moves about half the output bits, so keys that differ only in their
// last byte (an ordinal) get unrelated hashes.
std::uint64_t mix64(std::uint64_t h);
// 16 lowercase hex digits.
std::string hex64(std::uint64_t v);
// A key for `data`'s content: 32 hex digits of a 128-bit hash (two 64-bit
// lanes over 8-byte words, each finished by mix64), ':' and the length.
// Not cryptographic; for telling apart texts no one crafts to collide, at
// memory speed (FNV-1a goes a byte at a time). Stable across platforms.
std::string content_key(std::string_view data);
// True when `s` is valid UTF-8 (no overlongs, no surrogates).
bool is_valid_utf8(std::string_view s);
// The length of the valid UTF-8 sequence starting at s[i] (1 to 4), or 0.
std::size_t utf8_length_at(std::string_view s, std::size_t i);
// Whether `s` is data rather than text a person could have pasted: a NUL
// byte, or more than a tenth of its first 64 KiB control characters (other
// than tab, newlines, form feed, backspace, bell, ESC) or bytes that are not
// UTF-8. Text in another 8-bit encoding with a few such bytes is text.
bool looks_binary(std::string_view s);
// `s` as UTF-8 when it is UTF-16 (what Windows PowerShell writes when an
// error is redirected to a file): it starts with a byte order mark, or
// without one, nearly every second byte is NUL. Otherwise nothing.
std::optional<std::string> from_utf16(std::string_view s);
// `bytes` in the character encoding named `charset` ("latin-1",
// "ISO-8859-15", "cp1252", "utf-16"; as iconv knows it, or without its '-'
// and '_', as Python spells "latin_1"), converted to UTF-8. Nothing when
// the name is not one iconv knows (or holds a character no encoding's name
// has, such as iconv's "//" options), or the bytes are not valid in it.
std::optional<std::string> to_utf8(std::string_view bytes, std::string_view charset);
// Whether iconv knows `charset` (as to_utf8 reads it).
bool known_charset(std::string_view charset);
// At most `max_chars` characters of `s` fit to quote in a message: control
// characters and bytes that are not UTF-8 as escapes (`\n`, `\x1b`, `\xff`),
// a backslash as `\\`, and `…` where it was cut. Untrusted bytes quoted so
// cannot garble a terminal or a log.
std::string escaped_excerpt(std::string_view s, std::size_t max_chars = 40);
// The value of hex digit `c`, or -1.
int hex_value(char c);
// Each byte of `s` as %XX but RFC 3986's unreserved characters (letters,
// digits, -._~) and those of `kept`.
std::string percent_encode(std::string_view s, std::string_view kept = {});
// `path` fit for a URL's path: each byte that is not a path character of
// RFC 3986 (letters, digits, -._~!$&'()*+,;=:@ and '/') as %XX. A file
// named `my file #1?.py` or `a%2e.py` then links to itself.
inline std::string url_path_encode(std::string_view path) { return percent_encode(path, "!$&'()*+,;=:@/"); }
// Reads exactly `n` (at most 8) hex digits at s[i] into `v`; false when
// there are fewer.
bool read_hex(std::string_view s, std::size_t i, std::size_t n, std::uint32_t& v);
// Appends code point `cp` as UTF-8; a surrogate or a value past U+10FFFF
// as U+FFFD.
void append_utf8(std::uint32_t cp, std::string& out);
// Appends the value of the backslash escape of a Python string literal at
// body[i] (a '\\' with a character after it) and returns the index past it:
// `\\`, `\'`, `\"`, `\a \b \f \n \r \t \v`, octal, `\xNN`, and `\uNNNN` and
// `\UNNNNNNNN` unless `bytes` (code points as UTF-8). Any other escape, or
// one with too few digits, is kept as written. Line continuations and
// `\N{...}` are the caller's: the scanner and the matcher read them apart.
std::size_t append_python_escape(std::string_view body, std::size_t i, bool bytes, std::string& out);
// Splits on '\n'; a trailing '\r' is kept (sourceCode is verbatim).
std::vector<std::string_view> split_lines(std::string_view s);
// Current UTC time as ISO 8601 with milliseconds: 2026-08-14T18:24:08.354Z.
std::string iso_now_ms();
std::string to_lower_ascii(std::string_view s);
std::string_view trim(std::string_view s);

// Whether `a` comes before `b` read as versions: runs of digits compare as
// numbers ("v3.9.1" < "v3.12.0"), leading zeros aside; a pre-release comes
// before its release and what extends it after ("8.0.0a1" < "8.0.0rc1" <
// "8.0.0" < "8.0.0.post0" < "8.0.1", "v2.0.0-beta.1" < "v2.0.0"); the rest
// compares as bytes.
bool version_less(std::string_view a, std::string_view b);

// Whitespace runs (' ', tab, newlines) become one space; ends trimmed.
std::string collapse_ws(std::string_view s);

// Whether `c` can be part of an identifier: an ASCII letter, digit or '_'.
bool is_word_char(char c);

// Whether `word` stands in `text` as a whole word, not inside a longer
// identifier ("wrap" in "call wrap()", not in "unwrap").
bool contains_word(std::string_view text, std::string_view word);

// A Python module's last name from its file's path: `Lib/json/decoder.py`
// → "decoder", a package's `__init__.py` → its folder's.
std::string_view python_module_stem(std::string_view path);

// A path's folder ("" for a file at the top): `a/b/c.js` -> `a/b`.
std::string_view dir_of(std::string_view path);
// `dir` joined with a relative path (`../y/z`), `.` and `..` folded;
// nullopt past the top.
std::optional<std::string> join_path(std::string_view dir, std::string_view spec);

}  // namespace errdex::util
