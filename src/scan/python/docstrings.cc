// Docstrings without a parse (scan/python/frontend.h, python_docstrings):
// one pass over the bytes that skips strings, comments and bracketed
// continuations, notes each `def`/`class` header at a line start, and takes
// the string literal that opens its body.
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "scan/python/frontend.h"

namespace errdex::scan {
namespace {

// A docstring longer than this is cut: what links read is its start (the
// summary, "Raises:" sections) and the whole would only swell the cache.
constexpr std::size_t k_max_doc = 16 * 1024;
// Docstrings kept per file.
constexpr std::size_t k_max_docs = 4096;

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80); }

class Reader {
 public:
  explicit Reader(std::string_view s) : m_s(s) {}

  std::vector<model::DocText> run() {
    // The module's docstring: the first statement of the file.
    m_pending = true;
    m_owner.clear();
    while (m_i < m_s.size() && m_out.size() < k_max_docs) {
      at_line_start();
      rest_of_line();
    }
    return std::move(m_out);
  }

 private:
  bool word_at(std::size_t i, std::string_view w) const {
    return m_s.substr(i, w.size()) == w && i + w.size() < m_s.size() && !ident_char(m_s[i + w.size()]);
  }

  // A string literal starting at m_i (after any prefix): skipped, and its
  // body returned when `keep`.
  void skip_string(std::string* keep) {
    char q = m_s[m_i];
    bool triple = m_s.substr(m_i, 3) == std::string_view(std::string(3, q));
    std::size_t start = m_i + (triple ? 3 : 1);
    std::size_t i = start;
    while (i < m_s.size()) {
      char c = m_s[i];
      if (c == '\\') {
        if (i + 1 < m_s.size() && m_s[i + 1] == '\n') ++m_line;
        i += 2;
        continue;
      }
      if (c == '\n') {
        ++m_line;
        if (!triple) break;  // an unterminated string ends with its line
      }
      if (c == q && (!triple || m_s.substr(i, 3) == std::string_view(std::string(3, q)))) {
        if (keep) keep->assign(m_s.substr(start, std::min(i - start, k_max_doc)));
        m_i = i + (triple ? 3 : 1);
        return;
      }
      ++i;
    }
    if (keep) keep->assign(m_s.substr(start, std::min(i - start, k_max_doc)));
    m_i = std::min(i + 1, m_s.size());
  }

  // The length of a string prefix plus quote at i (`r"`, `"""`), 0 if none.
  std::size_t string_start(std::size_t i) const {
    std::size_t p = i;
    while (p < m_s.size() && p - i < 2 && std::string_view("rRbBuUfF").find(m_s[p]) != std::string_view::npos) ++p;
    if (p < m_s.size() && (m_s[p] == '"' || m_s[p] == '\'') && (i == 0 || !ident_char(m_s[i - 1]))) return p - i + 1;
    return 0;
  }

  void at_line_start() {
    std::size_t i = m_i;
    while (i < m_s.size() && (m_s[i] == ' ' || m_s[i] == '\t' || m_s[i] == '\f')) ++i;
    if (i >= m_s.size() || m_s[i] == '\n' || m_s[i] == '\r' || m_s[i] == '#') return;  // blank or comment
    m_i = i;
    if (m_pending) {
      m_pending = false;
      std::size_t n = string_start(i);
      // An f-string or bytes is no docstring.
      if (n && m_s.substr(i, n - 1).find_first_of("fFbB") == std::string_view::npos) {
        model::DocText d;
        d.line = m_line;
        d.owner = m_owner;
        m_i = i + n - 1;
        skip_string(&d.text);
        if (!d.text.empty()) m_out.push_back(std::move(d));
        return;
      }
    }
    std::size_t k = i;
    if (word_at(k, "async")) {
      k += 5;
      while (k < m_s.size() && (m_s[k] == ' ' || m_s[k] == '\t')) ++k;
    }
    bool is_def = word_at(k, "def");
    if (!is_def && !word_at(k, "class")) return;
    k += is_def ? 3 : 5;
    while (k < m_s.size() && (m_s[k] == ' ' || m_s[k] == '\t')) ++k;
    std::size_t e = k;
    while (e < m_s.size() && ident_char(m_s[e])) ++e;
    if (e == k) return;
    m_owner.assign(m_s.substr(k, e - k));
    m_header = true;
    m_i = e;
  }

  // The rest of a logical line: strings skipped, brackets followed, a
  // header's body found after its colon.
  void rest_of_line() {
    int depth = 0;
    while (m_i < m_s.size()) {
      char c = m_s[m_i];
      if (c == '#') {
        while (m_i < m_s.size() && m_s[m_i] != '\n') ++m_i;
        continue;
      }
      if (c == '\n') {
        ++m_line;
        ++m_i;
        if (depth <= 0) return;
        continue;
      }
      if (c == '\\' && m_i + 1 < m_s.size() && m_s[m_i + 1] == '\n') {
        m_i += 2;
        ++m_line;
        continue;
      }
      if (std::size_t n = string_start(m_i)) {
        m_i += n - 1;
        skip_string(nullptr);
        continue;
      }
      if (c == '(' || c == '[' || c == '{') ++depth;
      else if (c == ')' || c == ']' || c == '}') --depth;
      else if (c == ':' && depth <= 0 && m_header) {
        m_header = false;
        // A body on the header's own line has no docstring.
        std::size_t j = m_i + 1;
        while (j < m_s.size() && (m_s[j] == ' ' || m_s[j] == '\t' || m_s[j] == '\r')) ++j;
        m_pending = j >= m_s.size() || m_s[j] == '\n' || m_s[j] == '#';
      }
      ++m_i;
    }
  }

  std::string_view m_s;
  std::size_t m_i = 0;
  int m_line = 1;
  bool m_pending = false, m_header = false;
  std::string m_owner;
  std::vector<model::DocText> m_out;
};

}  // namespace

std::vector<model::DocText> python_docstrings(std::string_view source) { return Reader(source).run(); }

}  // namespace errdex::scan
