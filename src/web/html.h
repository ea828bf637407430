#pragma once
// HTML text helpers for the site. Pure functions, thread-safe. Every string
// that comes from a user or a repository goes through html_escape (or is
// rendered by mustache with escaping on) before it reaches a page.
#include <string>
#include <string_view>
#include <vector>

namespace errdex::web {

// Escapes & < > " ' so the text is inert in element content and in quoted
// attribute values.
std::string html_escape(std::string_view text);

// Python source as HTML, one string per line of `code` (split on '\n'):
// keywords, builtins, strings, comments, numbers and decorators wrapped in
// <span class="tok-…">, everything else escaped. Spans never cross a line,
// so each line can be placed in its own row. A string or comment that is
// still open at a line end continues on the next line.
std::vector<std::string> highlight_python(std::string_view code);

// The same for JavaScript and TypeScript: keywords, well-known globals,
// strings and template literals, // and /* */ comments, numbers and
// decorators.
std::vector<std::string> highlight_javascript(std::string_view code);

// The highlighter for a file by its name: JavaScript/TypeScript for .js
// .mjs .cjs .jsx .ts .mts .cts .tsx, Python otherwise.
std::vector<std::string> highlight_source(std::string_view file_path, std::string_view code);

// `text` escaped, with every case-insensitive occurrence of any of `words`
// (ASCII letters and digits; at least two characters) wrapped in <mark>.
std::string highlight_terms(std::string_view text, const std::vector<std::string>& words);

// Prose as HTML: `text` escaped, then each pair of backticks around text
// on one line (`wrap(text, width=0)`) turned into <code>…</code>. An
// unpaired backtick stays as it is.
std::string prose_html(std::string_view text);

// The words of a search query as highlight_terms wants them.
std::vector<std::string> query_words(std::string_view query);

}  // namespace errdex::web
