#include "scan/frontend.h"

#include "scan/javascript/frontend.h"
#include "scan/python/frontend.h"
#include "scan/python/outline.h"

namespace errdex::scan {
namespace {

class PythonFrontend final : public Frontend {
 public:
  std::string_view language() const override { return "python"; }
  bool worth_parsing(std::string_view source) const override {
    return may_have_sites(source) || may_define_classes(source);
  }
  model::FileFacts scan(std::string_view source) const override {
    // Split into logical lines once for the outline, docstrings and calls.
    const PythonLines lines(source);
    model::FileFacts facts = scan_python(lines);
    read_calls(lines, facts);
    read_message_calls(lines, facts);
    return facts;
  }
  model::FileFacts scan_tests(std::string_view source) const override {
    model::FileFacts facts = scan_python_tests(source);
    // What a test calls resolves through its file's imports; its own
    // helpers are no way users get to a raise.
    read_imports(source, facts.imports);
    return facts;
  }
  model::FileFacts scan_calls(std::string_view source) const override {
    model::FileFacts facts;
    const PythonLines lines(source);
    read_calls(lines, facts);
    read_message_calls(lines, facts);
    // An entry point's docstring says what its callers are doing.
    facts.docstrings = read_docstrings(lines);
    return facts;
  }
  bool reads_tests() const override { return true; }
};

class JavaScriptFrontend final : public Frontend {
 public:
  explicit JavaScriptFrontend(Dialect d) : m_dialect(d) {}
  std::string_view language() const override {
    return m_dialect == Dialect::typescript ? "typescript" : m_dialect == Dialect::tsx ? "tsx" : "javascript";
  }
  bool worth_parsing(std::string_view source) const override { return javascript_worth_parsing(source); }
  std::string_view unread_reason(std::string_view source) const override {
    return javascript_minified(source) ? "minified" : "";
  }
  model::FileFacts scan(std::string_view source) const override { return scan_javascript(source, m_dialect); }
  model::FileFacts scan_tests(std::string_view source) const override { return scan_javascript_tests(source, m_dialect); }
  model::FileFacts scan_calls(std::string_view source) const override { return scan_javascript_calls(source, m_dialect); }
  bool reads_tests() const override { return true; }

 private:
  Dialect m_dialect;
};

struct Registered {
  std::string_view extension;
  const Frontend* frontend;
};

const Registered* registry(std::size_t& n) {
  static const PythonFrontend python;
  static const JavaScriptFrontend js(Dialect::javascript), ts(Dialect::typescript), tsx(Dialect::tsx);
  // Declaration files (`.d.ts`) declare and never throw; a minified bundle
  // (`.min.js`) repeats the package's own sources on a line or two: no
  // frontend.
  static const Registered k[] = {{".py", &python},  {".d.ts", nullptr}, {".d.mts", nullptr}, {".d.cts", nullptr},
                                 {".min.js", nullptr}, {".min.mjs", nullptr}, {".min.cjs", nullptr},
                                 {".js", &js},      {".mjs", &js},      {".cjs", &js},       {".jsx", &js},
                                 {".ts", &ts},      {".mts", &ts},      {".cts", &ts},       {".tsx", &tsx}};
  n = std::size(k);
  return k;
}

}  // namespace

const Frontend* frontend_for(std::string_view path) {
  std::size_t n = 0;
  const Registered* r = registry(n);
  for (std::size_t i = 0; i < n; ++i)
    if (path.ends_with(r[i].extension)) return r[i].frontend;
  return nullptr;
}

std::string_view unread_by_name(std::string_view path) {
  for (std::string_view ext : {".min.js", ".min.mjs", ".min.cjs"})
    if (path.ends_with(ext)) return "minified";
  return {};
}

std::vector<std::string> frontend_extensions() {
  std::size_t n = 0;
  const Registered* r = registry(n);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i)
    if (r[i].frontend) out.emplace_back(r[i].extension);
  return out;
}

}  // namespace errdex::scan
