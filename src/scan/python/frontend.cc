#include "scan/python/frontend.h"
#include "scan/python/outline.h"

#include <tree_sitter/api.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "scan/facts_json.h"
#include "scan/python/earlier_trees.h"
#include "scan/python/file_scanner.h"
#include "scan/python/text.h"
#include "scan/tree_walk.h"
#include "util/env.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace errdex::scan::python::detail {
namespace {

TSFieldId field(const TSLanguage* l, const char* name) {
  return ts_language_field_id_for_name(l, name, static_cast<std::uint32_t>(std::strlen(name)));
}

Language make_language() {
  Language g;
  g.lang = tree_sitter_python();
  static const std::pair<const char*, Kind> k_names[] = {
      {"raise_statement", Kind::Raise}, {"assert_statement", Kind::Assert},
      {"call", Kind::Call}, {"function_definition", Kind::FunctionDef},
      {"class_definition", Kind::ClassDef}, {"decorated_definition", Kind::DecoratedDef},
      {"decorator", Kind::Decorator}, {"if_statement", Kind::If}, {"elif_clause", Kind::Elif},
      {"else_clause", Kind::Else}, {"while_statement", Kind::While},
      {"for_statement", Kind::For}, {"try_statement", Kind::Try},
      {"except_clause", Kind::Except}, {"except_group_clause", Kind::Except},
      {"case_clause", Kind::Case}, {"string", Kind::String},
      {"concatenated_string", Kind::ConcatString}, {"binary_operator", Kind::BinaryOp},
      {"parenthesized_expression", Kind::Paren}, {"identifier", Kind::Identifier},
      {"attribute", Kind::Attribute}, {"interpolation", Kind::Interpolation},
      {"type_conversion", Kind::TypeConversion}, {"format_specifier", Kind::FormatSpecifier},
      {"argument_list", Kind::ArgumentList}, {"keyword_argument", Kind::KeywordArg},
      {"expression_statement", Kind::ExprStatement}, {"assignment", Kind::Assignment},
      {"augmented_assignment", Kind::AugAssignment}, {"tuple", Kind::Tuple},
      {"dictionary", Kind::Dictionary}, {"pair", Kind::Pair}, {"block", Kind::Block},
      {"as_pattern", Kind::AsPattern}, {"string_start", Kind::StringStart},
      {"string_end", Kind::StringEnd}, {"lambda", Kind::Lambda}, {"comment", Kind::Comment},
      {"list_splat", Kind::ListSplat}, {"dictionary_splat", Kind::DictSplat},
      {"parameters", Kind::Parameters}, {"if_clause", Kind::IfClause},
      {"return_statement", Kind::Return}, {"boolean_operator", Kind::BoolOp},
  };
  std::uint32_t count = ts_language_symbol_count(g.lang);
  g.kinds.assign(count, Kind::Other);
  for (std::uint32_t s = 0; s < count; ++s) {
    if (ts_language_symbol_type(g.lang, static_cast<TSSymbol>(s)) != TSSymbolTypeRegular) continue;
    const char* name = ts_language_symbol_name(g.lang, static_cast<TSSymbol>(s));
    if (!name) continue;
    for (const auto& [n, k] : k_names)
      if (std::strcmp(n, name) == 0) g.kinds[s] = k;
  }
  g.f_function = field(g.lang, "function");
  g.f_arguments = field(g.lang, "arguments");
  g.f_cause = field(g.lang, "cause");
  g.f_name = field(g.lang, "name");
  g.f_parameters = field(g.lang, "parameters");
  g.f_body = field(g.lang, "body");
  g.f_superclasses = field(g.lang, "superclasses");
  g.f_definition = field(g.lang, "definition");
  g.f_condition = field(g.lang, "condition");
  g.f_consequence = field(g.lang, "consequence");
  g.f_left = field(g.lang, "left");
  g.f_right = field(g.lang, "right");
  g.f_operator = field(g.lang, "operator");
  g.f_attribute = field(g.lang, "attribute");
  g.f_object = field(g.lang, "object");
  g.f_key = field(g.lang, "key");
  g.f_value = field(g.lang, "value");
  g.f_expression = field(g.lang, "expression");
  g.f_type_conversion = field(g.lang, "type_conversion");
  g.f_format_specifier = field(g.lang, "format_specifier");
  g.f_guard = field(g.lang, "guard");
  g.f_subject = field(g.lang, "subject");
  return g;
}

}  // namespace

const Language& language() {
  static const Language g = make_language();
  return g;
}

}  // namespace errdex::scan::python::detail

namespace errdex::scan {
namespace {

using python::detail::FileScanner;
using python::detail::language;

// tree-sitter addresses bytes with 32 bits.
constexpr std::size_t k_max_source = 0xFFFFFFF0u;

// ERRDEX_CHECK_MEMO=1: every scan that reused statements of an earlier
// scan is done again whole and compared, a difference reported on stderr.
bool check_memo() {
  static const bool on = util::env_flag("ERRDEX_CHECK_MEMO");
  return on;
}

// `original`: the whole file when `source` is its outline, else empty.
// `pass`: parse_reusing's. The outline, the wider outline and the whole
// file share one: each is parsed from the last of them, as they differ by
// blanked lines only.
model::FileFacts scan_source(std::string_view source, std::string_view original, std::string_view pass) {
  if (source.size() > k_max_source || python::too_deeply_indented(source)) {
    model::FileFacts facts;
    facts.had_syntax_errors = true;
    return facts;
  }
  thread_local TsParser parser(language().lang);
  TSTree* tree = parse_reusing(parser.get(), pass, source);
  if (!tree) {
    ts_parser_reset(parser.get());
    model::FileFacts facts;
    facts.had_syntax_errors = true;
    return facts;
  }
  // The top-level statements the last scan of this path walked, kept
  // with what each read elsewhere in the file; the memo of a scan whose
  // facts ask for another read (FileFacts::blanked) is not the final one,
  // and is dropped.
  auto earlier = std::static_pointer_cast<const python::detail::DefinitionMemo>(earlier_scan(pass));
  FileScanner scanner(source, ts_tree_root_node(tree), original, earlier, keeps_scans());
  model::FileFacts facts = scanner.run();
  if (facts.blanked.empty()) keep_scan(pass, scanner.next_memo());
  if (scanner.reused_statements() > 0 && check_memo()) {
    const std::string fresh = facts_to_json(FileScanner(source, ts_tree_root_node(tree), original).run());
    if (fresh != facts_to_json(facts)) {
      const ParsingFile* file = parsing_file();
      std::fprintf(stderr, "errdex: statements reused from an earlier scan changed the facts of %s\n",
                   file ? file->path.c_str() : "?");
    }
  }
  ts_tree_delete(tree);
  return facts;
}

}  // namespace

namespace {

model::FileFacts scan_python_sites(const PythonLines& lines) {
  const std::string_view source = lines.source();
  if (source.size() <= k_max_source) {
    if (auto outline = blank_unreachable(lines)) {
      auto facts = scan_source(*outline, source, "sites");
      if (facts.blanked.empty()) return facts;
      // A message read from code the outline blanked: again, keeping it.
      if (auto wider = blank_unreachable(lines, facts.blanked)) {
        facts = scan_source(*wider, source, "sites");
        if (facts.blanked.empty()) return facts;
      }
    }
  }
  return scan_source(source, {}, "sites");
}

}  // namespace

model::FileFacts scan_python(std::string_view source) { return scan_python(PythonLines(source)); }

model::FileFacts scan_python(const PythonLines& lines) {
  model::FileFacts facts = scan_python_sites(lines);
  facts.docstrings = read_docstrings(lines);
  return facts;
}

model::FileFacts scan_python_whole(std::string_view source) { return scan_source(source, {}, "sites"); }

bool may_define_classes(std::string_view source) { return source.find("class") != std::string_view::npos; }

bool may_have_sites(std::string_view source) {
  return source.find("raise") != std::string_view::npos || source.find("warn") != std::string_view::npos ||
         source.find("assert") != std::string_view::npos;
}

}  // namespace errdex::scan
