#include "scan/python/frontend.h"
#include "scan/python/outline.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "scan/python/text.h"
#include "scan/tree_walk.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace errdex::scan {
namespace {

using model::ClassDef;
using model::FileFacts;
using model::Guard;
using model::MessageTemplate;
using model::TemplatePart;
using model::ThrowSite;

// Recursion over expressions (parenthesised `+` operands, a message variable
// whose value is itself built) stops here; deeper input becomes opaque.
constexpr int k_max_depth = 200;
// A message variable built from another variable, and so on: followed this
// many names deep.
constexpr int k_max_variable_hops = 4;
// Callers read for a parameter message, and returns read of a helper, at
// most.
constexpr std::size_t k_max_callers_read = 256;
// tree-sitter addresses bytes with 32 bits.
constexpr std::size_t k_max_source = 0xFFFFFFF0u;

enum class Kind : std::uint8_t {
  Other, Raise, Assert, Call, FunctionDef, ClassDef, DecoratedDef, Decorator,
  If, Elif, Else, While, For, Try, Except, Case, String, ConcatString,
  BinaryOp, Paren, Identifier, Attribute, Interpolation, TypeConversion,
  FormatSpecifier, ArgumentList, KeywordArg, ExprStatement, Assignment,
  AugAssignment, Tuple, Dictionary, Pair, Block, AsPattern, StringStart,
  StringEnd, Lambda, Comment, ListSplat, DictSplat, Parameters, IfClause,
  Return,
};

struct Language {
  const TSLanguage* lang = nullptr;
  std::vector<Kind> kinds;  // indexed by public symbol id
  TSFieldId f_function = 0, f_arguments = 0, f_cause = 0, f_name = 0, f_parameters = 0,
            f_body = 0, f_superclasses = 0, f_definition = 0, f_condition = 0,
            f_consequence = 0, f_left = 0, f_right = 0, f_operator = 0, f_attribute = 0,
            f_object = 0, f_key = 0, f_value = 0, f_expression = 0, f_type_conversion = 0,
            f_format_specifier = 0, f_guard = 0, f_subject = 0;
};

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
      {"return_statement", Kind::Return},
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

const Language& language() {
  static const Language g = make_language();
  return g;
}

// Null-safe accessors: tree-sitter dereferences null nodes, and fields
// are missing wherever the parser recovered from a syntax error.
std::uint32_t named_count(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_named_child_count(n); }
std::uint32_t child_count(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_child_count(n); }
std::uint32_t start_byte(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_start_byte(n); }
std::uint32_t end_byte(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_end_byte(n); }

bool is_dotted_name(std::string_view t) {
  if (t.empty() || (t[0] >= '0' && t[0] <= '9') || t[0] == '.') return false;
  for (char c : t) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
              static_cast<unsigned char>(c) >= 0x80;
    if (!ok) return false;
  }
  return t.back() != '.';
}

// Expression text for templates and class names: verbatim unless it spans
// lines, then whitespace-collapsed so the brace form stays on one line.
std::string expr_text(std::string_view t) {
  if (t.find_first_of("\n\r") == std::string_view::npos) return std::string(t);
  return python::collapse_ws(t);
}

bool all_literal(const std::vector<TemplatePart>& parts) {
  return std::all_of(parts.begin(), parts.end(), [](const TemplatePart& p) { return p.literal; });
}

// Interpolation `p` with its expression replaced by the source text of the
// argument that fills it, keeping its conversion and format (`{x!r}` of
// argument `a + b` shows as `{a + b!r}`).
TemplatePart filled_with(const TemplatePart& p, std::string arg) {
  std::string display = p.display.empty() || p.display.rfind(p.text, 0) != 0 ? std::string() : arg + p.display.substr(p.text.size());
  return interp(std::move(arg), std::move(display), p.printf_conv);
}

bool any_literal(const std::vector<TemplatePart>& parts) {
  return std::any_of(parts.begin(), parts.end(), [](const TemplatePart& p) { return p.literal && !p.text.empty(); });
}

std::string joined_literal(const std::vector<TemplatePart>& parts) {
  std::string s;
  for (const auto& p : parts) s += p.text;
  return s;
}

class FileScanner {
 public:
  // `original` is the file before python/outline.h blanked it (empty when
  // `src` is the whole file): messages built in blanked code are not
  // looked for; the scan asks for the whole file instead.
  FileScanner(std::string_view src, TSNode root, std::string_view original = {})
      : m_src(src), m_original(original), m_root(root), m_g(language()) {}

  FileFacts run();

 private:
  struct Ctx {
    Kind kind;
    TSNode node;
    std::uint32_t depth;
  };
  struct FunctionInfo {
    std::string name, params, doc;
    std::vector<std::string> decorators;
    int line = 0;
  };

  Kind kind(TSNode n) const {
    if (ts_node_is_null(n)) return Kind::Other;
    TSSymbol s = ts_node_symbol(n);
    return s < m_g.kinds.size() ? m_g.kinds[s] : Kind::Other;
  }
  std::string_view text(TSNode n) const {
    if (ts_node_is_null(n)) return {};
    std::uint32_t b = start_byte(n), e = end_byte(n);
    if (b > m_src.size() || e > m_src.size() || e < b) return {};
    return m_src.substr(b, e - b);
  }
  std::string_view span(std::uint32_t b, std::uint32_t e) const {
    if (b > m_src.size() || e > m_src.size() || e < b) return {};
    return m_src.substr(b, e - b);
  }
  static int line_of(TSNode n) {
    return ts_node_is_null(n) ? 0 : static_cast<int>(ts_node_start_point(n).row) + 1;
  }
  static int end_line_of(TSNode n) {
    return ts_node_is_null(n) ? 0 : static_cast<int>(ts_node_end_point(n).row) + 1;
  }
  TSNode child(TSNode n, TSFieldId f) const {
    return ts_node_is_null(n) ? TSNode{} : ts_node_child_by_field_id(n, f);
  }
  // First named child that is not a comment, or null.
  TSNode first_named(TSNode n) const {
    std::uint32_t c = named_count(n);
    for (std::uint32_t i = 0; i < c; ++i) {
      TSNode ch = ts_node_named_child(n, i);
      if (kind(ch) != Kind::Comment) return ch;
    }
    return TSNode{};
  }
  TSNode unwrap_parens(TSNode n) const {
    while (kind(n) == Kind::Paren) {
      TSNode inner = first_named(n);
      if (ts_node_is_null(inner) || named_count(n) != 1) break;
      n = inner;
    }
    return n;
  }
  // `_("text")`, `gettext("text")`: translation leaves the text as
  // written in an untranslated run, so the call reads as its literal.
  TSNode unwrap_gettext(TSNode n) const {
    n = unwrap_parens(n);
    if (kind(n) != Kind::Call) return n;
    std::string_view fn = text(child(n, m_g.f_function));
    auto dot = fn.rfind('.');
    std::string_view name = dot == std::string_view::npos ? fn : fn.substr(dot + 1);
    if (name != "_" && name != "gettext" && name != "N_" && name != "gettext_lazy" && name != "ugettext" &&
        name != "lazy_gettext")
      return n;
    TSNode args = child(n, m_g.f_arguments);
    if (kind(args) != Kind::ArgumentList || named_count(args) != 1) return n;
    TSNode arg = unwrap_parens(ts_node_named_child(args, 0));
    Kind k = kind(arg);
    return k == Kind::String || k == Kind::ConcatString ? arg : n;
  }
  bool subtree_has_keyword(TSNode n) const {
    std::uint32_t b = start_byte(n), e = end_byte(n);
    auto it = std::lower_bound(m_keywords.begin(), m_keywords.end(), b);
    return it != m_keywords.end() && *it < e;
  }

  // Calls f(argument, kind) for each argument of an argument list but
  // comments, after appending its text to site.args.
  template <class F>
  void each_argument(TSNode args, ThrowSite& site, F&& f) const {
    std::uint32_t na = named_count(args);
    for (std::uint32_t i = 0; i < na; ++i) {
      TSNode a = ts_node_named_child(args, i);
      Kind ak = kind(a);
      if (ak == Kind::Comment) continue;
      site.args.push_back(expr_text(text(a)));
      f(a, ak);
    }
  }

  void find_keywords();
  void visit_class(TSNode n);
  void emit_raise(TSNode n);
  void emit_assert(TSNode n);
  bool emit_warn(TSNode call);
  void fill_context(ThrowSite& site, std::uint32_t site_byte);
  std::vector<Guard> guards(std::uint32_t site_byte) const;
  Guard make_guard(const char* kind, TSNode cond) const;
  std::vector<std::string> read_names(TSNode n) const;
  std::string caught_text(TSNode except_clause) const;
  FunctionInfo function_info(std::size_t ctx_index) const;
  std::string docstring(TSNode body) const;

  // The scope a message variable is looked up in: the innermost function's
  // body, else the module.
  TSNode scope_node() const;
  // Index in m_ctx of the innermost enclosing function; npos when none.
  std::size_t innermost_function() const;
  MessageTemplate message_from(TSNode expr, std::uint32_t site_byte);
  std::optional<MessageTemplate> build(TSNode n, std::uint32_t site_byte, int depth, bool allow_var);
  bool string_parts(TSNode n, std::vector<TemplatePart>& parts, bool& is_f) const;
  bool literal_parts(TSNode n, std::vector<TemplatePart>& parts, bool& is_f) const;
  std::optional<MessageTemplate> build_concat(TSNode n, std::uint32_t site_byte, int depth);
  std::optional<std::string> format_string(TSNode n, std::uint32_t site_byte, int depth, bool allow_var);
  std::optional<MessageTemplate> build_percent(TSNode n, std::uint32_t site_byte, int depth, bool allow_var);
  std::optional<MessageTemplate> build_format(TSNode call, std::uint32_t site_byte, int depth, bool allow_var);
  std::optional<MessageTemplate> build_variable(std::string_view name, std::uint32_t site_byte, int depth);
  // `"sep".join(items)`, and the items of a list as text.
  std::optional<MessageTemplate> build_join(TSNode call, std::uint32_t site_byte, int depth, bool allow_var);
  bool list_items(TSNode n, std::uint32_t site_byte, int depth, bool allow_var,
                  std::vector<std::vector<TemplatePart>>& items);
  std::vector<TemplatePart> item_parts(TSNode item, std::uint32_t site_byte, int depth);

  // What is added to a name's value after it is assigned: `name += value`
  // ('+'), or a list's `name.append(value)` ('a'), `name.extend(value)`
  // ('e') or `name.insert(0, value)` ('p'), at byte `at`.
  struct Added {
    TSNode value;
    char how = '+';
    std::uint32_t at = 0;
  };
  // Where a name's value may come from at `site_byte`: its assignments in
  // the current scope that can reach the site (a later assignment in the
  // same or an enclosing block replaces an earlier one; one on another
  // branch of an `if` the site is not on cannot reach it), in source order,
  // each with what is added to it on the way (an addition on a branch the
  // assignment is not on, `else` to its `if`, never follows it).
  struct Reaching {
    TSNode rhs;
    TSNode assignment;
    TSNode block;          // the block holding the assignment statement
    std::uint32_t at = 0;  // start of the assignment
    std::vector<Added> appends;
    bool module_constant = false;  // read from the module, not the raising function
  };
  std::vector<Reaching> reaching(std::string_view name, std::uint32_t site_byte);
  // Every assignment to a plain name (and `name += ...`, and the list
  // calls of Added) in `scope`, in source order; indexed once per scope.
  struct Assign {
    TSNode node, rhs, block;
    std::uint32_t start = 0, end = 0;
    char how = '=';  // '=' a plain assignment, else as Added::how
  };
  const std::vector<Assign>* assignments(TSNode scope, std::string_view name);
  bool may_reach(TSNode assignment, std::uint32_t site_byte) const;
  void replaced_on_every_branch(std::vector<Reaching>& live) const;
  std::optional<MessageTemplate> build_reaching(const Reaching& r, int depth);
  // The exception call's class, arguments and message (the first
  // positional argument, else `message=`/`msg=`). A message variable's
  // other reaching assignments, or the callers' arguments when it is a
  // parameter, become alternatives.
  void read_exception_call(TSNode call, ThrowSite& site, std::uint32_t at);
  // `raise ValueError(msg + f': {node!r}')` where several values of `msg`
  // reach the raise (`msg += f' on line {lno}'` in a branch): the message
  // with the latest, and each other one as an alternative, as a message
  // variable's are. One variable of the concatenation, a few values.
  void concat_variants(ThrowSite& site, TSNode expr, std::uint32_t at);
  // `raise err` where `err = ValueError(...)` earlier: class and message
  // from the call that built it.
  void resolve_raised_name(ThrowSite& site, TSNode name, std::uint32_t at);
  // `raise _error(tok)` where `def _error(value): return ValueError(...)`:
  // class and messages from the helper's returns, its parameters replaced
  // by the call's arguments.
  void resolve_helper(ThrowSite& site, TSNode call, std::uint32_t at);
  // `raise Cls(args)` of a class defined in this file whose `__str__`
  // returns a message, or whose `__init__` passes one to its base
  // (`super().__init__("No section: %r" % section)`): what Python prints,
  // with the class's parameters replaced by this call's arguments, becomes
  // an alternative. Bases defined in the file are followed.
  void resolve_class_display(ThrowSite& site, TSNode call, std::uint32_t at);
  // What an instance of module-level class `name` shows, before a call's
  // arguments fill it: the returns of the first `__str__` found on the
  // class and its bases defined here, or the message the first `__init__`
  // gives its base; with that `__init__` and what it keeps of its
  // parameters. With `ask_outline`, a class whose methods the outline
  // blanked asks for the file to be read again with them.
  struct ClassDisplay {
    std::vector<MessageTemplate> shown;
    TSNode init_fn{};
    std::unordered_map<std::string, std::string> kept;  // "self.msg" -> "msg"
  };
  std::optional<ClassDisplay> class_display(std::string_view name, bool ask_outline);
  // Each module-level class's display and constructor parameters, into
  // FileFacts::classes, for the files that raise it (apply_class_display).
  void export_displays();
  // Whether module-level class `name` derives, through classes defined
  // here, from a class named like an exception (...Error, ...Exception,
  // ...Warning).
  bool exception_like(std::string_view name);
  // `raise OSError(err, f'Connect call failed {address}')` prints
  // "[Errno 111] Connect call failed ('127.0.0.1', 1)" and `raise
  // TokenError('EOF in multi-line string', start)` prints "('EOF in
  // multi-line string', (1, 0))": given two arguments or more, Python shows
  // the tuple of their reprs, and the OSError family its strerror (the
  // matcher reads the "[Errno N] " before it) with the filename's repr
  // after ": ". What it prints becomes an alternative, for the built-in
  // classes and for this file's classes that take their display from them.
  void resolve_args_display(ThrowSite& site, TSNode call, std::uint32_t at);
  // How an argument shows inside a tuple's repr, appended to `parts`:
  // false when that cannot be told from the source.
  bool append_repr(std::vector<TemplatePart>& parts, TSNode arg, std::uint32_t at);
  TSNode class_named(std::string_view name);
  // Which constructor argument of class `name` (0-based, `self` not
  // counted) is the message Python prints: 0 for a class not defined in
  // this file (Exception and the built-in classes print their first), else
  // the parameter its `__init__` hands on as its base's message
  // (`InterpolationError(option, section, msg)` calls `Error.__init__(self,
  // msg)`: 2); -1 when its `__init__` hands on something else. Bases are
  // followed at most `hops` deep.
  int message_argument(std::string_view name, int hops);
  // The first `Base.__init__(self, ...)` or `super().__init__(...)` call
  // in `init_fn`'s body, and the class it calls (`owner_base` for super).
  TSNode base_init_call(TSNode init_fn, std::string_view owner_base, std::string_view& callee_class);
  // How many arguments of such a call stand before the base's own: 1 for
  // `Base.__init__(self, ...)`, 0 for `super().__init__(...)`.
  int self_arguments(TSNode base_call) const;
  // The `__init__` defined in class `cls`'s body, or null.
  TSNode init_of(TSNode cls);
  // The first base `cls` names when it is a plain name, else empty.
  std::string_view first_base(TSNode cls);
  // `t` with each interpolation of a parameter replaced by the argument a
  // call passes for it (`arg_of(part)`, null for none): the argument's own
  // template when it builds one and the part shows it as is (no conversion
  // or format; `%s` too when `s_as_is`), else its text with the part's
  // conversion and format kept.
  template <class F>
  MessageTemplate with_arguments(MessageTemplate t, std::uint32_t at, bool s_as_is, F&& arg_of) {
    MessageTemplate out = t;
    out.parts.clear();
    for (auto& p : t.parts) {
      TSNode arg = p.literal ? TSNode{} : arg_of(p);
      if (ts_node_is_null(arg)) {
        out.parts.push_back(std::move(p));
        continue;
      }
      std::optional<MessageTemplate> given;
      if ((p.display.empty() || p.display == p.text) && (p.printf_conv == 0 || (s_as_is && p.printf_conv == 's')))
        given = build(arg, at, 1, true);
      if (given) {
        append_parts(out.parts, std::move(given->parts));
        continue;
      }
      out.parts.push_back(filled_with(p, expr_text(text(arg))));
    }
    return out;
  }
  // Each argument that callers in this file pass for parameter `param` of
  // the enclosing function, as messages.
  void add_caller_messages(ThrowSite& site, std::string_view param);
  // Parameter `name`'s position among the positional parameters of
  // function `fn` (-1 when keyword-only or absent), and whether it is a
  // parameter at all.
  bool parameter_position(TSNode fn, std::string_view name, int& position) const;
  // Calls f(name, keyword_only) for each named parameter of `fn` in order
  // (`self` included, `*args` and `**kwargs` not) until f returns false.
  template <class F>
  void each_parameter(TSNode fn, F&& f) const;
  // The argument a call passes for parameter (position, name), or null.
  TSNode argument_for(TSNode call, int position, std::string_view name) const;
  // The default value of `fn`'s parameter `name`, or null.
  TSNode parameter_default(TSNode fn, std::string_view name) const;
  // Whether a call passes `*args` or `**kwargs`: which parameters it fills
  // is not known.
  bool passes_splat(TSNode call) const;
  TSNode enclosing_function(TSNode n) const;
  // Calls in the whole file by the last component of their callee, and
  // the first function definition of a name; indexed once per file.
  void index_calls();
  const std::vector<TSNode>& calls_named(std::string_view name);
  TSNode function_named(std::string_view name);
  // True when the outline blanked a call of `word`: it is added to
  // FileFacts::blanked, and the site is resolved on the next scan.
  bool calls_blanked(std::string_view word);
  // True when the outline blanked a module-level `name = ...`: the name is
  // added to FileFacts::blanked, and the site is resolved on the next scan.
  bool top_level_assignments_blanked(std::string_view name);

  std::string_view m_src;
  std::string_view m_original;
  TSNode m_scope{};  // overrides scope_node() while building in another function
  bool m_calls_indexed = false;
  std::unordered_map<std::string, std::vector<TSNode>> m_calls;
  std::unordered_map<std::string, TSNode> m_functions;
  std::unordered_map<std::string, TSNode> m_classes;  // the first module-level class of a name
  bool m_classes_indexed = false;
  std::unordered_map<std::string, bool> m_blanked_words;  // calls_blanked's answers
  std::unordered_map<std::string, bool> m_class_methods;  // class_defines_methods' answers, by class
  std::unordered_map<const void*, std::vector<TSNode>> m_helper_returns;  // by helper function node
  std::unordered_map<const void*, std::unordered_map<std::string, std::vector<Assign>>> m_assignments;  // by scope node
  int m_variable_hops = 0;  // variables followed to build the current message
  // While a concatenation's variants are built: the variable whose
  // reaching value build_concat takes, and which of them.
  const std::pair<std::string_view, std::size_t>* m_concat_pick = nullptr;
  TSNode m_root;
  const Language& m_g;
  std::vector<std::uint32_t> m_keywords;  // sorted byte offsets
  std::vector<TSNode> m_path;             // ancestors of the current node, by depth
  std::vector<Ctx> m_ctx;                 // enclosing scopes and branches
  FileFacts m_facts;
};

void FileScanner::find_keywords() {
  static constexpr std::string_view k_words[] = {"raise", "warn", "assert", "class"};
  for (auto w : k_words) {
    std::size_t pos = 0;
    while ((pos = m_src.find(w, pos)) != std::string_view::npos) {
      m_keywords.push_back(static_cast<std::uint32_t>(pos));
      pos += w.size();
    }
  }
  std::sort(m_keywords.begin(), m_keywords.end());
}

FileFacts FileScanner::run() {
  m_facts.had_syntax_errors = ts_node_has_error(m_root);
  find_keywords();
  if (m_keywords.empty()) return std::move(m_facts);
  // Subtrees without any keyword byte are skipped whole.
  walk(m_root, [&](TSNode n, std::uint32_t depth, TSTreeCursor*) {
    m_path.resize(depth);
    m_path.push_back(n);
    while (!m_ctx.empty() && m_ctx.back().depth >= depth) m_ctx.pop_back();
    Kind k = kind(n);
    bool descend = true;
    switch (k) {
      case Kind::Raise: emit_raise(n); descend = false; break;
      case Kind::Assert: emit_assert(n); descend = false; break;
      case Kind::Call: descend = !emit_warn(n); break;
      case Kind::ClassDef:
        visit_class(n);
        m_ctx.push_back({k, n, depth});
        break;
      case Kind::FunctionDef: case Kind::DecoratedDef: case Kind::If: case Kind::Elif:
      case Kind::Else: case Kind::While: case Kind::Except: case Kind::Case:
        m_ctx.push_back({k, n, depth});
        break;
      case Kind::String: case Kind::Comment: descend = false; break;
      default: break;
    }
    return descend && subtree_has_keyword(n);
  });
  m_path.clear();
  m_ctx.clear();
  export_displays();
  return std::move(m_facts);
}

void FileScanner::visit_class(TSNode n) {
  ClassDef c;
  c.name = std::string(text(child(n, m_g.f_name)));
  c.line = line_of(n);
  TSNode sup = child(n, m_g.f_superclasses);
  std::uint32_t count = named_count(sup);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode b = ts_node_named_child(sup, i);
    Kind bk = kind(b);
    if (bk == Kind::KeywordArg || bk == Kind::Comment || bk == Kind::DictSplat) continue;
    c.bases.push_back(python::collapse_ws(text(b)));
  }
  m_facts.classes.push_back(std::move(c));
}

std::string FileScanner::caught_text(TSNode clause) const {
  TSNode first{}, last{};
  std::uint32_t count = named_count(clause);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode ch = ts_node_named_child(clause, i);
    Kind ck = kind(ch);
    if (ck == Kind::Block || ck == Kind::Comment) continue;
    if (ts_node_is_null(first)) first = ch;
    last = ch;
  }
  if (ts_node_is_null(first)) return {};
  if (ts_node_eq(first, last) && kind(first) == Kind::AsPattern) {
    TSNode inner = first_named(first);
    if (!ts_node_is_null(inner)) return python::collapse_ws(text(inner));
  }
  return python::collapse_ws(span(start_byte(first), end_byte(last)));
}

std::vector<std::string> FileScanner::read_names(TSNode n) const {
  std::vector<std::string> out;
  if (ts_node_is_null(n)) return out;
  auto add = [&](std::string name) {
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
  };
  walk(n, [&](TSNode node, std::uint32_t depth, TSTreeCursor* cur) {
    TSFieldId fid = depth > 0 ? ts_tree_cursor_current_field_id(cur) : 0;
    bool descend = true;
    switch (kind(node)) {
      case Kind::Identifier:
        // keyword names in calls and attribute names are not reads
        if (depth == 0 || (fid != m_g.f_name && fid != m_g.f_attribute)) add(std::string(text(node)));
        descend = false;
        break;
      case Kind::Attribute: {
        auto t = text(node);
        if (is_dotted_name(t)) {
          add(python::collapse_ws(t));
          descend = false;
        }
        break;
      }
      case Kind::Lambda: case Kind::Comment: descend = false; break;
      default: break;
    }
    return descend;
  });
  return out;
}

Guard FileScanner::make_guard(const char* k, TSNode cond) const {
  Guard g;
  g.kind = k;
  g.condition = python::collapse_ws(text(cond));
  g.names = read_names(cond);
  g.line = ts_node_is_null(cond) ? 0 : line_of(cond);
  return g;
}

std::vector<Guard> FileScanner::guards(std::uint32_t site_byte) const {
  std::vector<Guard> out;
  auto inside = [&](TSNode block) {
    return !ts_node_is_null(block) && site_byte >= start_byte(block) &&
           site_byte < end_byte(block);
  };
  // Else guards for the branches of `if_node` that come before `stop`,
  // innermost (latest) first.
  auto earlier_branches = [&](TSNode if_node, TSNode stop) {
    std::vector<Guard> prior;
    prior.push_back(make_guard("else", child(if_node, m_g.f_condition)));
    std::uint32_t count = named_count(if_node);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode ch = ts_node_named_child(if_node, i);
      if (ts_node_eq(ch, stop)) break;
      if (kind(ch) == Kind::Elif) prior.push_back(make_guard("else", child(ch, m_g.f_condition)));
    }
    for (auto it = prior.rbegin(); it != prior.rend(); ++it) out.push_back(std::move(*it));
  };
  TSNode skip{};  // an if/while whose branch was already accounted for
  for (std::size_t i = m_ctx.size(); i-- > 0;) {
    const Ctx& c = m_ctx[i];
    if (c.kind == Kind::FunctionDef || c.kind == Kind::ClassDef) break;
    if (!ts_node_is_null(skip) && ts_node_eq(c.node, skip)) continue;
    TSNode parent = c.depth > 0 ? m_path[c.depth - 1] : TSNode{};
    switch (c.kind) {
      case Kind::If:
        if (inside(child(c.node, m_g.f_consequence))) out.push_back(make_guard("if", child(c.node, m_g.f_condition)));
        break;
      case Kind::Elif:
        if (!inside(child(c.node, m_g.f_consequence)) || kind(parent) != Kind::If) break;
        out.push_back(make_guard("elif", child(c.node, m_g.f_condition)));
        earlier_branches(parent, c.node);
        skip = parent;
        break;
      case Kind::Else:
        if (kind(parent) == Kind::If) {
          earlier_branches(parent, c.node);
          skip = parent;
        } else if (kind(parent) == Kind::While) {
          out.push_back(make_guard("else", child(parent, m_g.f_condition)));
          skip = parent;
        }
        break;
      case Kind::While:
        if (inside(child(c.node, m_g.f_body))) out.push_back(make_guard("while", child(c.node, m_g.f_condition)));
        break;
      case Kind::Except: {
        Guard g;
        g.kind = "except";
        g.condition = caught_text(c.node);
        g.line = line_of(c.node);
        std::uint32_t count = named_count(c.node);
        for (std::uint32_t k = 0; k < count; ++k) {
          TSNode ch = ts_node_named_child(c.node, k);
          Kind ck = kind(ch);
          if (ck == Kind::Block || ck == Kind::Comment) continue;
          TSNode caught = ck == Kind::AsPattern ? first_named(ch) : ch;
          for (auto& n : read_names(caught))
            if (std::find(g.names.begin(), g.names.end(), n) == g.names.end()) g.names.push_back(std::move(n));
        }
        out.push_back(std::move(g));
        break;
      }
      case Kind::Case: {
        if (!inside(child(c.node, m_g.f_consequence))) break;
        Guard g;
        g.kind = "match";
        g.line = line_of(c.node);
        TSNode body = child(c.node, m_g.f_consequence);
        std::uint32_t b = start_byte(c.node), e = start_byte(body);
        auto header = span(b, e);
        if (header.substr(0, 4) == "case") header.remove_prefix(4);
        while (!header.empty() && (header.back() == ':' || header.back() == ' ' || header.back() == '\n'))
          header.remove_suffix(1);
        g.condition = python::collapse_ws(header);
        // The subject is read by the match; a guard reads its own names.
        TSNode match = c.depth >= 2 ? m_path[c.depth - 2] : TSNode{};
        if (!ts_node_is_null(match)) g.names = read_names(child(match, m_g.f_subject));
        TSNode guard = child(c.node, m_g.f_guard);
        for (auto& n : read_names(guard))
          if (std::find(g.names.begin(), g.names.end(), n) == g.names.end()) g.names.push_back(std::move(n));
        out.push_back(std::move(g));
        break;
      }
      default: break;
    }
  }
  return out;
}

std::string FileScanner::docstring(TSNode body) const {
  TSNode first = first_named(body);
  if (kind(first) != Kind::ExprStatement || named_count(first) != 1) return {};
  TSNode s = ts_node_named_child(first, 0);
  std::vector<TemplatePart> parts;
  bool is_f = false;
  if (!literal_parts(s, parts, is_f) || is_f) return {};
  return joined_literal(parts);
}

FileScanner::FunctionInfo FileScanner::function_info(std::size_t i) const {
  const Ctx& c = m_ctx[i];
  FunctionInfo f;
  f.name = std::string(text(child(c.node, m_g.f_name)));
  f.line = line_of(c.node);
  auto params = text(child(c.node, m_g.f_parameters));
  if (params.size() >= 2 && params.front() == '(' && params.back() == ')')
    params = params.substr(1, params.size() - 2);
  f.params = python::collapse_ws(params);
  f.doc = docstring(child(c.node, m_g.f_body));
  if (i > 0 && m_ctx[i - 1].kind == Kind::DecoratedDef && m_ctx[i - 1].depth + 1 == c.depth) {
    TSNode d = m_ctx[i - 1].node;
    std::uint32_t count = named_count(d);
    for (std::uint32_t k = 0; k < count; ++k) {
      TSNode ch = ts_node_named_child(d, k);
      if (kind(ch) != Kind::Decorator) continue;
      auto t = text(ch);
      if (!t.empty() && t.front() == '@') t.remove_prefix(1);
      f.decorators.push_back(python::collapse_ws(t));
    }
  }
  return f;
}

void FileScanner::fill_context(ThrowSite& site, std::uint32_t site_byte) {
  auto g = guards(site_byte);
  site.guards.insert(site.guards.end(), std::make_move_iterator(g.begin()), std::make_move_iterator(g.end()));
  bool have_function = false, have_class = false;
  for (std::size_t i = m_ctx.size(); i-- > 0 && !(have_function && have_class);) {
    const Ctx& c = m_ctx[i];
    if (c.kind == Kind::FunctionDef && !have_function) {
      have_function = true;
      FunctionInfo f = function_info(i);
      site.function = std::move(f.name);
      site.function_params = std::move(f.params);
      site.function_doc = std::move(f.doc);
      site.decorators = std::move(f.decorators);
      site.function_line = f.line;
    } else if (c.kind == Kind::ClassDef && !have_class) {
      have_class = true;
      site.class_name = std::string(text(child(c.node, m_g.f_name)));
      auto bases = text(child(c.node, m_g.f_superclasses));
      if (bases.size() >= 2 && bases.front() == '(' && bases.back() == ')')
        bases = bases.substr(1, bases.size() - 2);
      site.class_bases = python::collapse_ws(bases);
      site.class_doc = docstring(child(c.node, m_g.f_body));
    }
  }
}

std::size_t FileScanner::innermost_function() const {
  for (std::size_t i = m_ctx.size(); i-- > 0;)
    if (m_ctx[i].kind == Kind::FunctionDef) return i;
  return std::string::npos;
}

TSNode FileScanner::scope_node() const {
  if (!ts_node_is_null(m_scope)) return m_scope;
  const std::size_t fi = innermost_function();
  return fi == std::string::npos ? m_root : child(m_ctx[fi].node, m_g.f_body);
}

void FileScanner::emit_raise(TSNode n) {
  ThrowSite site;
  site.kind = "raise";
  site.line = line_of(n);
  site.end_line = end_line_of(n);
  std::uint32_t at = start_byte(n);
  TSNode cause = child(n, m_g.f_cause);
  site.cause = expr_text(text(cause));
  TSNode expr{};
  std::uint32_t count = named_count(n);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode ch = ts_node_named_child(n, i);
    if (kind(ch) == Kind::Comment || (!ts_node_is_null(cause) && ts_node_eq(ch, cause))) continue;
    expr = ch;
    break;
  }
  if (ts_node_is_null(expr)) {
    site.reraise = true;
    for (std::size_t i = m_ctx.size(); i-- > 0;) {
      const Ctx& c = m_ctx[i];
      if (c.kind == Kind::FunctionDef || c.kind == Kind::ClassDef) break;
      if (c.kind != Kind::Except) continue;
      std::string caught = caught_text(c.node);
      if (is_dotted_name(caught)) site.error_class = std::move(caught);
      break;
    }
  } else {
    site.raised_text = std::string(text(expr));
    if (kind(expr) == Kind::Call) {
      read_exception_call(expr, site, at);
      resolve_helper(site, expr, at);
      resolve_class_display(site, expr, at);
      resolve_args_display(site, expr, at);
    } else {
      site.error_class = python::collapse_ws(text(expr));
      if (kind(expr) == Kind::Identifier) resolve_raised_name(site, expr, at);
    }
  }
  fill_context(site, at);
  m_facts.sites.push_back(std::move(site));
}

// A message worth offering as a variant: some constant text to match on.
bool has_words(const MessageTemplate& t) {
  for (const auto& p : t.parts)
    if (p.literal && std::any_of(p.text.begin(), p.text.end(), [](unsigned char c) { return std::isalpha(c); }))
      return true;
  return false;
}

void push_alternative(ThrowSite& site, MessageTemplate t) {
  constexpr std::size_t k_max_alternatives = 256;
  if (!has_words(t) || site.alternatives.size() >= k_max_alternatives) return;
  for (const auto& a : site.alternatives)
    if (same_parts(a, t)) return;
  site.alternatives.push_back(std::move(t));
}

void FileScanner::read_exception_call(TSNode call, ThrowSite& site, std::uint32_t at) {
  TSNode cls = child(call, m_g.f_function);
  site.error_class = python::collapse_ws(text(cls));
  if (kind(cls) == Kind::Identifier && ts_node_is_null(m_scope)) {
    // `def fail(self, msg, exc=TemplateSyntaxError): raise exc(msg)`: the
    // class a parameter defaults to, unless the function assigns it.
    const std::size_t fi = innermost_function();
    if (fi != std::string::npos && reaching(text(cls), at).empty()) {
      TSNode def = parameter_default(m_ctx[fi].node, text(cls));
      std::string given = python::collapse_ws(text(def));
      if (!ts_node_is_null(def) && is_dotted_name(given) && given != "None") site.error_class = std::move(given);
    }
  }
  site.args.clear();
  TSNode args = child(call, m_g.f_arguments);
  TSNode first{};
  TSNode keyword_msg{};
  TSNode splat{};  // `*args` before any positional argument
  if (kind(args) == Kind::ArgumentList) {
    each_argument(args, site, [&](TSNode a, Kind ak) {
      if (ak == Kind::KeywordArg) {
        auto name = text(child(a, m_g.f_name));
        if (ts_node_is_null(keyword_msg) && (name == "message" || name == "msg"))
          keyword_msg = child(a, m_g.f_value);
      } else if (ak == Kind::ListSplat) {
        if (ts_node_is_null(first) && ts_node_is_null(splat)) splat = a;
      } else if (ts_node_is_null(first) && ak != Kind::DictSplat) {
        first = a;
      }
    });
  } else if (!ts_node_is_null(args)) {
    site.args.push_back(expr_text(text(args)));
    first = args;
  }
  if (!ts_node_is_null(splat) && ts_node_is_null(keyword_msg)) {
    // `raise ValueError(*args)`: whatever the arguments hold is the
    // message (Python prints one as it is, several as their tuple), not
    // no message at all.
    std::string_view spread = text(splat);
    while (!spread.empty() && spread.front() == '*') spread.remove_prefix(1);
    site.message = {};
    site.message.parts.push_back(interp(expr_text(spread)));
    return;
  }
  TSNode msg = ts_node_is_null(first) ? keyword_msg : first;
  TSNode name = unwrap_parens(msg);
  if (kind(name) != Kind::Identifier) {
    site.message = message_from(msg, at);
    concat_variants(site, name, at);
    return;
  }
  // A message variable: the latest reaching assignment is the message,
  // the others are variants; a parameter's come from the callers.
  auto found = reaching(text(name), at);
  std::optional<MessageTemplate> primary;
  if (!found.empty()) primary = build_reaching(found.back(), 0);
  if (primary) {
    primary->from_literals = true;
    site.message = std::move(*primary);
  } else {
    site.message = message_from(msg, at);
  }
  if (found.empty()) add_caller_messages(site, text(name));
  for (std::size_t i = 0; i + 1 < found.size(); ++i)
    if (auto t = build_reaching(found[i], 1)) {
      t->from_literals = true;
      push_alternative(site, std::move(*t));
    }
}

void FileScanner::concat_variants(ThrowSite& site, TSNode expr, std::uint32_t at) {
  if (kind(expr) != Kind::BinaryOp || text(child(expr, m_g.f_operator)) != "+") return;
  std::string_view variable;
  for (TSNode cur = expr; kind(cur) == Kind::BinaryOp && text(child(cur, m_g.f_operator)) == "+";
       cur = child(cur, m_g.f_left)) {
    for (TSNode side : {child(cur, m_g.f_right), child(cur, m_g.f_left)}) {
      TSNode bare = unwrap_parens(side);
      if (kind(bare) != Kind::Identifier) continue;
      if (!variable.empty() && variable != text(bare)) return;  // two variables: left as they are
      variable = text(bare);
    }
  }
  if (variable.empty()) return;
  auto found = reaching(variable, at);
  if (found.size() < 2 || found.size() > 8) return;
  for (std::size_t i = found.size(); i-- > 0;) {
    std::pair<std::string_view, std::size_t> pick{variable, i};
    m_concat_pick = &pick;
    auto t = build(expr, at, 0, true);
    m_concat_pick = nullptr;
    if (!t) continue;
    t->from_literals = true;
    if (i + 1 == found.size())
      site.message = std::move(*t);
    else
      push_alternative(site, std::move(*t));
  }
}

void FileScanner::resolve_raised_name(ThrowSite& site, TSNode name, std::uint32_t at) {
  auto found = reaching(text(name), at);
  bool first = true;
  for (std::size_t i = found.size(); i-- > 0;) {
    TSNode rhs = unwrap_parens(found[i].rhs);
    if (kind(rhs) != Kind::Call || !found[i].appends.empty()) continue;
    auto callee = python::collapse_ws(text(child(rhs, m_g.f_function)));
    auto last = callee.substr(callee.rfind('.') + 1);
    if (last.empty() || !std::isupper(static_cast<unsigned char>(last[0]))) continue;
    if (first) {
      // The latest reaching construction is the one shown.
      read_exception_call(rhs, site, found[i].at);
      first = false;
    } else {
      ThrowSite other;
      read_exception_call(rhs, other, found[i].at);
      push_alternative(site, std::move(other.message));
    }
  }
}

TSNode FileScanner::enclosing_function(TSNode n) const {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
    if (kind(p) == Kind::FunctionDef) return p;
  return TSNode{};
}

// Uses of `word` as a callee (`word(`, `x.word (`), definitions left out.
std::size_t count_calls(std::string_view hay, std::string_view word) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::size_t n = 0;
  for (std::size_t pos = hay.find(word); pos != std::string_view::npos; pos = hay.find(word, pos + 1)) {
    if (pos > 0 && ident(hay[pos - 1])) continue;
    std::size_t after = pos + word.size();
    if (after < hay.size() && ident(hay[after])) continue;
    while (after < hay.size() && (hay[after] == ' ' || hay[after] == '\t')) ++after;
    if (after >= hay.size() || hay[after] != '(') continue;
    n += !(pos >= 4 && hay.substr(pos - 4, 4) == "def ");
  }
  return n;
}

namespace {
// Lines of `src` that start at the left margin with `name =` (not `==`).
std::size_t count_top_level_assignments(std::string_view src, std::string_view name) {
  std::size_t n = 0;
  for (std::size_t pos = src.find(name); pos != std::string_view::npos; pos = src.find(name, pos + 1)) {
    if (pos > 0 && src[pos - 1] != '\n') continue;
    std::size_t after = pos + name.size();
    while (after < src.size() && (src[after] == ' ' || src[after] == '\t')) ++after;
    n += after + 1 < src.size() && src[after] == '=' && src[after + 1] != '=';
  }
  return n;
}
}  // namespace

bool FileScanner::top_level_assignments_blanked(std::string_view name) {
  if (m_original.empty()) return false;
  if (count_top_level_assignments(m_src, name) == count_top_level_assignments(m_original, name)) return false;
  if (std::find(m_facts.blanked.begin(), m_facts.blanked.end(), name) == m_facts.blanked.end())
    m_facts.blanked.emplace_back(name);
  return true;
}

bool FileScanner::calls_blanked(std::string_view word) {
  if (m_original.empty()) return false;
  auto [it, added] = m_blanked_words.emplace(std::string(word), false);
  if (added) {
    // The outline only takes lines away (and adds `pass`): fewer calls
    // than in the file means some were blanked.
    it->second = count_calls(m_src, word) != count_calls(m_original, word);
    if (it->second) m_facts.blanked.emplace_back(word);
  }
  return it->second;
}

void FileScanner::index_calls() {
  if (m_calls_indexed) return;
  // One walk over the whole tree, once per file, for every call and def.
  m_calls_indexed = true;
  walk(m_root, [&](TSNode node, std::uint32_t, TSTreeCursor*) {
    Kind k = kind(node);
    if (k == Kind::Call) {
      TSNode fn = child(node, m_g.f_function);
      Kind fk = kind(fn);
      std::string_view last = fk == Kind::Identifier ? text(fn) : fk == Kind::Attribute ? text(child(fn, m_g.f_attribute)) : "";
      if (!last.empty()) m_calls[std::string(last)].push_back(node);
    } else if (k == Kind::FunctionDef) {
      m_functions.emplace(std::string(text(child(node, m_g.f_name))), node);  // the first of a name
    }
    return k != Kind::String && k != Kind::Comment;
  });
}

TSNode FileScanner::function_named(std::string_view name) {
  index_calls();
  auto it = m_functions.find(std::string(name));
  return it == m_functions.end() ? TSNode{} : it->second;
}

TSNode FileScanner::class_named(std::string_view name) {
  // Module-level classes only (where exception classes are defined), read
  // once per file from the root's statements: far cheaper than the whole
  // walk of index_calls, which every `raise ValueError(...)` would pay.
  if (!m_classes_indexed) {
    m_classes_indexed = true;
    std::uint32_t count = named_count(m_root);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode node = ts_node_named_child(m_root, i);
      if (kind(node) == Kind::DecoratedDef) node = child(node, m_g.f_definition);
      if (kind(node) == Kind::ClassDef) m_classes.emplace(std::string(text(child(node, m_g.f_name))), node);
    }
  }
  auto it = m_classes.find(std::string(name));
  return it == m_classes.end() ? TSNode{} : it->second;
}

TSNode FileScanner::init_of(TSNode cls) {
  TSNode body = child(cls, m_g.f_body);
  std::uint32_t count = named_count(body);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode def = ts_node_named_child(body, i);
    if (kind(def) == Kind::FunctionDef && text(child(def, m_g.f_name)) == "__init__") return def;
  }
  return TSNode{};
}

std::string_view FileScanner::first_base(TSNode cls) {
  TSNode bases = child(cls, m_g.f_superclasses);
  TSNode base = kind(bases) == Kind::ArgumentList ? first_named(bases) : TSNode{};
  return kind(base) == Kind::Identifier ? text(base) : std::string_view();
}

int FileScanner::self_arguments(TSNode base_call) const {
  TSNode object = child(child(base_call, m_g.f_function), m_g.f_object);
  return kind(object) == Kind::Call && text(child(object, m_g.f_function)) == "super" ? 0 : 1;
}

TSNode FileScanner::base_init_call(TSNode init_fn, std::string_view owner_base, std::string_view& callee_class) {
  TSNode found{};
  walk(child(init_fn, m_g.f_body), [&](TSNode node, std::uint32_t d, TSTreeCursor*) {
    if (!ts_node_is_null(found)) return false;
    Kind k = kind(node);
    if (d > 0 && (k == Kind::FunctionDef || k == Kind::ClassDef || k == Kind::Lambda)) return false;
    if (k == Kind::Call) {
      TSNode fn = child(node, m_g.f_function);
      if (kind(fn) == Kind::Attribute && text(child(fn, m_g.f_attribute)) == "__init__") {
        TSNode object = child(fn, m_g.f_object);
        if (kind(object) == Kind::Call && text(child(object, m_g.f_function)) == "super") callee_class = owner_base;
        else callee_class = kind(object) == Kind::Identifier ? text(object) : std::string_view();
        found = node;
        return false;
      }
    }
    return k != Kind::String;
  });
  return found;
}

int FileScanner::message_argument(std::string_view name, int hops) {
  for (; hops > 0; --hops) {
    TSNode cls = name.empty() ? TSNode{} : class_named(name);
    if (ts_node_is_null(cls)) return 0;
    TSNode init_fn = init_of(cls);
    if (ts_node_is_null(init_fn)) {
      name = first_base(cls);
      continue;
    }
    std::string_view callee;
    TSNode call = base_init_call(init_fn, first_base(cls), callee);
    if (ts_node_is_null(call)) return 0;  // BaseException keeps the arguments: the first is shown
    int inner = message_argument(callee, hops - 1);
    if (inner < 0) return -1;
    TSNode arg = argument_for(call, inner + self_arguments(call), {});
    int position = -1;
    if (kind(arg) != Kind::Identifier || !parameter_position(init_fn, text(arg), position) || position < 1) return -1;
    return position - 1;
  }
  return 0;
}

const std::vector<TSNode>& FileScanner::calls_named(std::string_view name) {
  index_calls();
  static const std::vector<TSNode> none;
  auto it = m_calls.find(std::string(name));
  return it == m_calls.end() ? none : it->second;
}

template <class F>
void FileScanner::each_parameter(TSNode fn, F&& f) const {
  TSNode params = child(fn, m_g.f_parameters);
  std::uint32_t count = named_count(params);
  bool keyword_only = false;
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode p = ts_node_named_child(params, i);
    std::string_view type = ts_node_type(p);
    std::string_view pname;
    if (type == "identifier") pname = text(p);
    else if (type == "default_parameter" || type == "typed_default_parameter") pname = text(child(p, m_g.f_name));
    else if (type == "typed_parameter") {
      TSNode inner = first_named(p);
      if (kind(inner) == Kind::Identifier) pname = text(inner);
      else keyword_only = true;  // `*args: T`
    } else if (type == "list_splat_pattern" || type == "keyword_separator") {
      keyword_only = true;
      continue;
    } else {
      continue;  // `/`, `**kwargs`, comments
    }
    if (!pname.empty() && !f(pname, keyword_only)) return;
  }
}

bool FileScanner::parameter_position(TSNode fn, std::string_view name, int& position) const {
  int pos = 0;
  bool found = false;
  each_parameter(fn, [&](std::string_view pname, bool keyword_only) {
    if (pname == name) {
      position = keyword_only ? -1 : pos;
      found = true;
      return false;
    }
    if (!keyword_only) ++pos;
    return true;
  });
  return found;
}

TSNode FileScanner::parameter_default(TSNode fn, std::string_view name) const {
  TSNode params = child(fn, m_g.f_parameters);
  std::uint32_t count = named_count(params);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode p = ts_node_named_child(params, i);
    std::string_view type = ts_node_type(p);
    if ((type == "default_parameter" || type == "typed_default_parameter") && text(child(p, m_g.f_name)) == name)
      return child(p, m_g.f_value);
  }
  return TSNode{};
}

bool FileScanner::passes_splat(TSNode call) const {
  TSNode args = child(call, m_g.f_arguments);
  std::uint32_t count = kind(args) == Kind::ArgumentList ? named_count(args) : 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    Kind k = kind(ts_node_named_child(args, i));
    if (k == Kind::ListSplat || k == Kind::DictSplat) return true;
  }
  return false;
}

TSNode FileScanner::argument_for(TSNode call, int position, std::string_view name) const {
  TSNode args = child(call, m_g.f_arguments);
  if (kind(args) != Kind::ArgumentList) return TSNode{};
  std::uint32_t na = named_count(args);
  int pos = 0;
  bool positional_known = true;
  TSNode found{};
  for (std::uint32_t i = 0; i < na; ++i) {
    TSNode a = ts_node_named_child(args, i);
    Kind ak = kind(a);
    if (ak == Kind::Comment) continue;
    if (ak == Kind::KeywordArg) {
      if (text(child(a, m_g.f_name)) == name) return child(a, m_g.f_value);
      continue;
    }
    if (ak == Kind::ListSplat) positional_known = false;
    if (ak == Kind::ListSplat || ak == Kind::DictSplat) continue;
    if (positional_known && pos == position) found = a;
    ++pos;
  }
  return found;
}

void FileScanner::add_caller_messages(ThrowSite& site, std::string_view param) {
  // The enclosing function, and whether it is a method (called as `x.f()`,
  // its first parameter bound).
  const std::size_t fi = innermost_function();
  if (fi == std::string::npos || !ts_node_is_null(m_scope)) return;
  TSNode fn = m_ctx[fi].node;
  int position = -1;
  if (!parameter_position(fn, param, position)) return;
  std::string fname(text(child(fn, m_g.f_name)));
  // Special methods are called by syntax (`x[k]`, `x.y`), not by name.
  if (fname.empty() || (fname.starts_with("__") && fname.ends_with("__"))) return;
  if (calls_blanked(fname)) return;
  std::size_t ci = fi;
  if (ci > 0 && m_ctx[ci - 1].kind == Kind::DecoratedDef) --ci;
  bool method = ci > 0 && m_ctx[ci - 1].kind == Kind::ClassDef;
  if (method && ci != fi && python::collapse_ws(text(m_ctx[ci].node)).find("@staticmethod") != std::string::npos)
    method = false;
  std::size_t read = 0;
  for (TSNode call : calls_named(fname)) {
    if (read >= k_max_callers_read) break;
    bool via_attribute = kind(child(call, m_g.f_function)) == Kind::Attribute;
    if (method != via_attribute) continue;
    TSNode arg = argument_for(call, position < 0 ? -1 : position - (method ? 1 : 0), param);
    if (ts_node_is_null(arg)) continue;
    ++read;
    TSNode caller = enclosing_function(call);
    m_scope = ts_node_is_null(caller) ? m_root : child(caller, m_g.f_body);
    if (!ts_node_is_null(m_scope)) {
      if (auto t = build(arg, start_byte(call), 1, true)) {
        t->from_literals = true;
        push_alternative(site, std::move(*t));
      }
    }
    m_scope = TSNode{};
  }
}

void FileScanner::resolve_helper(ThrowSite& site, TSNode call, std::uint32_t at) {
  TSNode callee = child(call, m_g.f_function);
  Kind ck = kind(callee);
  std::string_view name = ck == Kind::Identifier ? text(callee) : ck == Kind::Attribute ? text(child(callee, m_g.f_attribute)) : "";
  if (name.empty() || !(std::islower(static_cast<unsigned char>(name[0])) || name[0] == '_')) return;
  if (ck == Kind::Attribute) {
    auto object = text(child(callee, m_g.f_object));
    if (object != "self" && object != "cls") return;
  }
  // Only a function defined in this file is read (`def name(`).
  std::string def = "def " + std::string(name) + "(";
  if ((m_original.empty() ? m_src : m_original).find(def) == std::string_view::npos) return;
  if (m_src.find(def) == std::string_view::npos) {
    if (std::find(m_facts.blanked.begin(), m_facts.blanked.end(), name) == m_facts.blanked.end())
      m_facts.blanked.emplace_back(name);
    return;
  }
  TSNode fn = function_named(name);
  if (ts_node_is_null(fn) || !ts_node_is_null(m_scope)) return;
  // The helper's returns of a call to a class (capitalised) name, read
  // once per helper; the first few count.
  TSNode body = child(fn, m_g.f_body);
  auto [cached, added] = m_helper_returns.try_emplace(fn.id);
  std::vector<TSNode>& returns = cached->second;
  if (added) walk(body, [&](TSNode node, std::uint32_t d, TSTreeCursor*) {
    if (returns.size() >= k_max_callers_read) return false;
    Kind k = kind(node);
    bool descend = !(d > 0 && (k == Kind::FunctionDef || k == Kind::ClassDef || k == Kind::Lambda || k == Kind::DecoratedDef)) &&
                   k != Kind::String && k != Kind::Return;
    if (k == Kind::Return) {
      TSNode value = unwrap_parens(first_named(node));
      if (kind(value) == Kind::Call) {
        auto c = python::collapse_ws(text(child(value, m_g.f_function)));
        auto last = c.substr(c.rfind('.') + 1);
        if (!last.empty() && std::isupper(static_cast<unsigned char>(last[0]))) returns.push_back(value);
      }
    }
    return descend;
  });
  if (returns.empty()) return;

  // A helper's parameter in its message stands for what this call passes.
  bool method = ck == Kind::Attribute;
  auto substitute = [&](MessageTemplate t) {
    return with_arguments(std::move(t), at, false, [&](const TemplatePart& p) {
      int position = -1;
      if (!parameter_position(fn, p.text, position)) return TSNode{};
      return argument_for(call, position < 0 ? -1 : position - (method ? 1 : 0), p.text);
    });
  };
  bool first = true;
  for (TSNode value : returns) {
    ThrowSite built;
    TSNode saved = m_scope;
    m_scope = body;
    built.raised_text = site.raised_text;
    read_exception_call(value, built, start_byte(value));
    m_scope = saved;
    MessageTemplate msg = substitute(std::move(built.message));
    if (first) {
      site.error_class = std::move(built.error_class);
      site.message = std::move(msg);
      first = false;
    } else {
      push_alternative(site, std::move(msg));
    }
  }
}

namespace {

enum class Display { none, tuple, os_error };

// How a built-in exception class shows two arguments or more.
Display builtin_display(std::string_view name) {
  static const std::unordered_set<std::string_view> os_errors = {
      "OSError", "IOError", "EnvironmentError", "FileNotFoundError", "FileExistsError", "PermissionError",
      "ConnectionError", "ConnectionRefusedError", "ConnectionResetError", "ConnectionAbortedError",
      "BrokenPipeError", "TimeoutError", "IsADirectoryError", "NotADirectoryError", "InterruptedError",
      "BlockingIOError", "ChildProcessError", "ProcessLookupError", "socket.error", "os.error", "select.error"};
  // BaseException's __str__: one argument as it is, more as their tuple.
  static const std::unordered_set<std::string_view> tuples = {
      "Exception", "BaseException", "ValueError", "TypeError", "RuntimeError", "KeyError", "IndexError",
      "LookupError", "ArithmeticError", "ZeroDivisionError", "OverflowError", "FloatingPointError",
      "AssertionError", "NotImplementedError", "RecursionError", "EOFError", "MemoryError", "BufferError",
      "ReferenceError", "SystemError", "AttributeError", "NameError", "UnboundLocalError", "ImportError",
      "ModuleNotFoundError", "StopIteration", "StopAsyncIteration", "UnicodeError"};
  if (os_errors.contains(name)) return Display::os_error;
  if (tuples.contains(name)) return Display::tuple;
  return Display::none;
}

// Python's repr of a str, when it is plain: printable ASCII without a
// backslash, quoted with ' unless it holds one (and no ").
std::optional<std::string> plain_repr(const std::vector<TemplatePart>& parts) {
  bool single = false, dbl = false;
  for (const auto& p : parts) {
    if (!p.literal) continue;
    for (unsigned char c : p.text) {
      if (c < 0x20 || c >= 0x7f || c == '\\') return std::nullopt;
      single |= c == '\'';
      dbl |= c == '"';
    }
  }
  if (single && dbl) return std::nullopt;
  return std::string(single ? "\"" : "'");
}

}  // namespace

bool FileScanner::append_repr(std::vector<TemplatePart>& parts, TSNode arg, std::uint32_t at) {
  TSNode bare = unwrap_parens(arg);
  Kind k = kind(bare);
  if (k == Kind::String || k == Kind::ConcatString || k == Kind::BinaryOp || k == Kind::Call) {
    auto t = build(bare, at, 1, false);
    if (t) {
      // Text: quoted as repr quotes it, when its constant part says how.
      auto quote = plain_repr(t->parts);
      if (!quote) return false;
      append_literal(parts, *quote);
      append_parts(parts, std::move(t->parts));
      append_literal(parts, *quote);
      return true;
    }
    if (k == Kind::String || k == Kind::ConcatString) return false;
  }
  std::string e = expr_text(text(arg));
  parts.push_back(interp(e, e + "!r"));
  return true;
}

void FileScanner::resolve_args_display(ThrowSite& site, TSNode call, std::uint32_t at) {
  TSNode args = child(call, m_g.f_arguments);
  if (kind(args) != Kind::ArgumentList) return;
  std::vector<TSNode> positional;
  std::uint32_t na = named_count(args);
  for (std::uint32_t i = 0; i < na; ++i) {
    TSNode a = ts_node_named_child(args, i);
    Kind ak = kind(a);
    if (ak == Kind::Comment || ak == Kind::KeywordArg) continue;
    if (ak == Kind::ListSplat || ak == Kind::DictSplat) return;  // how many is not known
    positional.push_back(a);
  }
  if (positional.size() < 2 || positional.size() > 8) return;
  // A class of this file shows as the built-in class it derives from,
  // unless one on the way formats its own message.
  TSNode callee = child(call, m_g.f_function);
  Kind ck = kind(callee);
  if (ck != Kind::Identifier && ck != Kind::Attribute) return;
  std::string name = python::collapse_ws(text(callee));
  bool local = ck == Kind::Identifier && ts_node_is_null(m_scope);
  Display display = Display::none;
  for (int hops = 0; hops < 5 && !name.empty(); ++hops) {
    TSNode cls = local ? class_named(name) : TSNode{};
    if (ts_node_is_null(cls)) {
      display = builtin_display(name);
      break;
    }
    TSNode body = child(cls, m_g.f_body);
    std::uint32_t count = named_count(body);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode def = ts_node_named_child(body, i);
      if (kind(def) == Kind::DecoratedDef) def = child(def, m_g.f_definition);
      std::string_view fname = kind(def) == Kind::FunctionDef ? text(child(def, m_g.f_name)) : std::string_view();
      if (fname == "__init__" || fname == "__str__" || fname == "__new__") return;
      // `__str__ = __repr__` and the like.
      if (kind(def) == Kind::ExprStatement && text(def).starts_with("__str__")) return;
    }
    name = std::string(first_base(cls));
  }
  MessageTemplate t;
  t.from_literals = true;
  if (display == Display::os_error) {
    if (positional.size() > 5) return;
    if (kind(unwrap_parens(positional[0])) == Kind::String) return;  // not an errno
    auto strerror = build(positional[1], at, 1, true);
    if (strerror) {
      append_parts(t.parts, std::move(strerror->parts));
    } else {
      std::string e = expr_text(text(positional[1]));
      t.parts.push_back(interp(e));
    }
    // BlockingIOError's third is the characters written, never shown.
    if (positional.size() >= 3 && !name.ends_with("BlockingIOError")) {
      append_literal(t.parts, ": ");
      if (!append_repr(t.parts, positional[2], at)) return;
    }
    if (positional.size() == 5) {
      append_literal(t.parts, " -> ");
      if (!append_repr(t.parts, positional[4], at)) return;
    }
    t.style = "os_error";
  } else if (display == Display::tuple) {
    append_literal(t.parts, "(");
    for (std::size_t i = 0; i < positional.size(); ++i) {
      if (i > 0) append_literal(t.parts, ", ");
      if (!append_repr(t.parts, positional[i], at)) return;
    }
    append_literal(t.parts, ")");
    t.style = "args";
  } else {
    return;
  }
  push_alternative(site, std::move(t));
}

std::optional<FileScanner::ClassDisplay> FileScanner::class_display(std::string_view name, bool ask_outline) {
  if (ts_node_is_null(class_named(name))) return std::nullopt;
  // The class and its bases defined here, nearest first: the first
  // `__str__` and the first `__init__` found are the ones Python runs.
  TSNode str_fn{}, init_fn{}, init_owner{};
  std::string_view cls_name = name;
  std::vector<std::string_view> chain;
  for (int hops = 0; hops < 4 && (ts_node_is_null(str_fn) || ts_node_is_null(init_fn)); ++hops) {
    TSNode cls = class_named(cls_name);
    if (ts_node_is_null(cls)) break;
    chain.push_back(cls_name);
    TSNode body = child(cls, m_g.f_body);
    std::uint32_t count = named_count(body);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode def = ts_node_named_child(body, i);
      if (kind(def) == Kind::DecoratedDef) continue;  // a property or staticmethod, not the protocol
      if (kind(def) != Kind::FunctionDef) continue;
      std::string_view fname = text(child(def, m_g.f_name));
      if (fname == "__str__" && ts_node_is_null(str_fn)) str_fn = def;
      if (fname == "__init__" && ts_node_is_null(init_fn)) {
        init_fn = def;
        init_owner = cls;
      }
    }
    cls_name = first_base(cls);
    if (cls_name.empty()) break;
  }
  if (ts_node_is_null(str_fn) && ts_node_is_null(init_fn)) {
    // The outline may have blanked the methods: keep them next time.
    // Each class's answer is read once per file: a file raises its own
    // exception class from many places.
    auto defines_methods = [&](std::string_view c) {
      auto [it, added] = m_class_methods.emplace(std::string(c), false);
      if (added) it->second = python::class_defines_methods(m_original, c);
      return it->second;
    };
    if (ask_outline && !m_original.empty() && m_original.size() != m_src.size() &&
        std::find(m_facts.blanked.begin(), m_facts.blanked.end(), "__init__") == m_facts.blanked.end() &&
        std::any_of(chain.begin(), chain.end(), defines_methods)) {
      m_facts.blanked.emplace_back("__init__");
      m_facts.blanked.emplace_back("__str__");
    }
    return std::nullopt;
  }
  ClassDisplay d;
  d.init_fn = init_fn;
  // What `__init__` keeps: `self.msg = msg` makes `self.msg` the argument
  // given for `msg`.
  if (!ts_node_is_null(init_fn))
    walk(child(init_fn, m_g.f_body), [&](TSNode node, std::uint32_t depth, TSTreeCursor*) {
      Kind k = kind(node);
      if (depth > 0 && (k == Kind::FunctionDef || k == Kind::ClassDef || k == Kind::Lambda)) return false;
      if (k == Kind::Assignment) {
        TSNode left = child(node, m_g.f_left), right = child(node, m_g.f_right);
        int position = -1;
        if (kind(left) == Kind::Attribute && kind(right) == Kind::Identifier && text(child(left, m_g.f_object)) == "self" &&
            parameter_position(init_fn, text(right), position))
          d.kept.emplace(std::string(text(left)), std::string(text(right)));
        return false;
      }
      return k != Kind::String;
    });
  TSNode saved = m_scope;
  if (!ts_node_is_null(str_fn)) {
    TSNode body = child(str_fn, m_g.f_body);
    std::vector<TSNode> returns;
    walk(body, [&](TSNode node, std::uint32_t depth, TSTreeCursor*) {
      Kind k = kind(node);
      if (depth > 0 && (k == Kind::FunctionDef || k == Kind::ClassDef || k == Kind::Lambda)) return false;
      if (k == Kind::Return && returns.size() < 8) returns.push_back(node);
      return k != Kind::String && k != Kind::Return;
    });
    m_scope = body;
    for (TSNode r : returns) {
      TSNode value = first_named(r);
      if (ts_node_is_null(value)) continue;
      if (auto t = build(value, start_byte(r), 1, true)) d.shown.push_back(std::move(*t));
    }
    m_scope = saved;
    if (d.shown.empty()) return std::nullopt;
    return d;
  }
  // `super().__init__(msg, ...)`, `super(Cls, self).__init__(msg)`,
  // `Base.__init__(self, msg)`: the message is what the base is given, in
  // the place the base prints (`Base.__init__(self, option, section, msg)`
  // when the base hands its third on as the message).
  TSNode body = child(init_fn, m_g.f_body);
  std::string_view base_class;
  TSNode base_call = base_init_call(init_fn, first_base(init_owner), base_class);
  if (ts_node_is_null(base_call)) return std::nullopt;
  TSNode msg{};
  {
    TSNode args = child(base_call, m_g.f_arguments);
    if (kind(args) != Kind::ArgumentList) return std::nullopt;
    int shown = message_argument(base_class, 4);
    std::uint32_t skip = static_cast<std::uint32_t>(self_arguments(base_call) + std::max(shown, 0));
    std::uint32_t seen = 0, count = named_count(args);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode a = ts_node_named_child(args, i);
      Kind ak = kind(a);
      if (ak == Kind::Comment) continue;
      if (ak == Kind::KeywordArg || ak == Kind::ListSplat || ak == Kind::DictSplat) break;
      if (seen++ == skip) {
        msg = a;
        break;
      }
    }
  }
  if (ts_node_is_null(msg)) return std::nullopt;
  m_scope = body;
  auto t = build(msg, start_byte(msg), 1, true);
  m_scope = saved;
  // A parameter handed on as it is: the call's argument, or the default
  // when the call leaves it out (`def __init__(self, message="Invalid
  // file")` raised as `InvalidFileException()`).
  int position = -1;
  if (!t && kind(msg) == Kind::Identifier && parameter_position(init_fn, text(msg), position) && position > 0) {
    t.emplace();
    t->parts.push_back(interp(std::string(text(msg))));
  }
  if (!t) return std::nullopt;
  d.shown.push_back(std::move(*t));
  return d;
}

void FileScanner::resolve_class_display(ThrowSite& site, TSNode call, std::uint32_t at) {
  TSNode callee = child(call, m_g.f_function);
  if (kind(callee) != Kind::Identifier || !ts_node_is_null(m_scope)) return;
  std::string_view name = text(callee);
  if (name.empty() || !std::isupper(static_cast<unsigned char>(name[0]))) return;
  auto d = class_display(name, true);
  if (!d) return;
  // A parameter (or what `__init__` kept of one) in the message stands for
  // what this call passes.
  auto substitute = [&](MessageTemplate t) {
    // `%s` shows a string argument as it is.
    MessageTemplate out = with_arguments(std::move(t), at, true, [&](const TemplatePart& p) {
      if (ts_node_is_null(d->init_fn)) return TSNode{};
      auto it = d->kept.find(p.text);
      std::string_view param = it != d->kept.end() ? std::string_view(it->second) : std::string_view(p.text);
      int position = -1;
      if (!parameter_position(d->init_fn, param, position) || position == 0) return TSNode{};
      TSNode given = argument_for(call, position < 0 ? -1 : position - 1, param);
      // Not passed: `def __init__(self, message="Invalid file")` shows its default.
      if (!ts_node_is_null(given) || passes_splat(call)) return given;
      TSNode fallback = parameter_default(d->init_fn, param);
      Kind fk = kind(fallback);
      return fk == Kind::String || fk == Kind::ConcatString ? fallback : TSNode{};
    });
    out.from_literals = true;
    return out;
  };
  for (MessageTemplate& t : d->shown) {
    MessageTemplate shown = substitute(std::move(t));
    if (!same_parts(shown, site.message)) push_alternative(site, std::move(shown));
  }
}

bool FileScanner::exception_like(std::string_view name) {
  for (int hops = 0; hops < 6 && !name.empty(); ++hops) {
    TSNode cls = class_named(name);
    if (ts_node_is_null(cls)) break;
    TSNode bases = child(cls, m_g.f_superclasses);
    TSNode base = kind(bases) == Kind::ArgumentList ? first_named(bases) : TSNode{};
    Kind bk = kind(base);
    if (bk != Kind::Identifier && bk != Kind::Attribute) return false;
    name = text(base);
    if (auto dot = name.rfind('.'); dot != std::string_view::npos) name.remove_prefix(dot + 1);
  }
  return name.ends_with("Error") || name.ends_with("Exception") || name.ends_with("Warning");
}

void FileScanner::export_displays() {
  for (ClassDef& c : m_facts.classes) {
    TSNode node = class_named(c.name);
    if (ts_node_is_null(node) || line_of(node) != c.line) continue;  // module-level classes only
    // An exception class whose methods the outline blanked asks for them:
    // the file is read again, once, keeping them.
    auto d = class_display(c.name, exception_like(c.name));
    if (!d) continue;
    // The constructor's parameters after `self`, and the text defaults.
    if (!ts_node_is_null(d->init_fn)) {
      bool first = true;
      each_parameter(d->init_fn, [&](std::string_view pname, bool keyword_only) {
        if (std::exchange(first, false)) return true;  // self
        model::ClassParam cp;
        cp.name = std::string(pname);
        cp.keyword_only = keyword_only;
        TSNode def = parameter_default(d->init_fn, pname);
        bool is_f = false;
        std::vector<TemplatePart> parts;
        if ((kind(def) == Kind::String || kind(def) == Kind::ConcatString) && literal_parts(def, parts, is_f) &&
            all_literal(parts))
          cp.default_text = joined_literal(parts);
        c.params.push_back(std::move(cp));
        return true;
      });
    }
    for (MessageTemplate& t : d->shown) {
      // Parameters as the names the call fills: `self.reason` -> `reason`.
      for (TemplatePart& p : t.parts) {
        if (p.literal) continue;
        auto it = d->kept.find(p.text);
        if (it == d->kept.end()) continue;
        if (p.display.rfind(p.text, 0) == 0) p.display = it->second + p.display.substr(p.text.size());
        p.text = it->second;
      }
      t.from_literals = true;
      c.display.push_back(std::move(t));
    }
  }
}

void FileScanner::emit_assert(TSNode n) {
  ThrowSite site;
  site.kind = "assert";
  site.error_class = "AssertionError";
  site.line = line_of(n);
  site.end_line = end_line_of(n);
  site.raised_text = std::string(text(n));
  std::uint32_t at = start_byte(n);
  TSNode cond{}, msg{};
  std::uint32_t count = named_count(n);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode ch = ts_node_named_child(n, i);
    if (kind(ch) == Kind::Comment) continue;
    if (ts_node_is_null(cond)) cond = ch;
    else if (ts_node_is_null(msg)) msg = ch;
  }
  if (!ts_node_is_null(msg)) site.args.push_back(expr_text(text(msg)));
  site.message = message_from(msg, at);
  site.guards.push_back(make_guard("assert", cond));
  fill_context(site, at);
  m_facts.sites.push_back(std::move(site));
}

bool FileScanner::emit_warn(TSNode call) {
  TSNode fn = child(call, m_g.f_function);
  auto name = text(fn);
  Kind fk = kind(fn);
  if (!((fk == Kind::Identifier && name == "warn") || (fk == Kind::Attribute && name == "warnings.warn")))
    return false;
  TSNode args = child(call, m_g.f_arguments);
  if (kind(args) != Kind::ArgumentList) return false;
  ThrowSite site;
  site.kind = "warn";
  TSNode stmt = call;
  if (m_path.size() >= 2 && kind(m_path[m_path.size() - 2]) == Kind::ExprStatement) stmt = m_path[m_path.size() - 2];
  site.line = line_of(stmt);
  site.end_line = end_line_of(stmt);
  site.raised_text = std::string(text(call));
  TSNode msg{}, category{};
  int positional = 0;
  each_argument(args, site, [&](TSNode a, Kind ak) {
    if (ak == Kind::KeywordArg) {
      auto k = text(child(a, m_g.f_name));
      if (k == "message") msg = child(a, m_g.f_value);
      else if (k == "category") category = child(a, m_g.f_value);
    } else if (ak != Kind::ListSplat && ak != Kind::DictSplat) {
      if (positional == 0) msg = a;
      else if (positional == 1) category = a;
      ++positional;
    }
  });
  site.error_class = ts_node_is_null(category) ? "UserWarning" : python::collapse_ws(text(category));
  std::uint32_t at = start_byte(stmt);
  site.message = message_from(msg, at);
  fill_context(site, at);
  m_facts.sites.push_back(std::move(site));
  return true;
}

MessageTemplate FileScanner::message_from(TSNode expr, std::uint32_t site_byte) {
  MessageTemplate t;
  if (ts_node_is_null(expr)) return t;
  if (auto built = build(expr, site_byte, 0, true)) {
    built->from_literals = true;
    return std::move(*built);
  }
  t.style = "expression";
  t.parts.push_back(interp(expr_text(text(expr))));
  t.from_literals = false;
  return t;
}

bool FileScanner::string_parts(TSNode n, std::vector<TemplatePart>& parts, bool& is_f) const {
  std::uint32_t count = child_count(n);
  if (count == 0) return false;
  TSNode start = ts_node_child(n, 0);
  if (kind(start) != Kind::StringStart) return false;
  python::StringPrefix prefix = python::parse_prefix(text(start));
  if (prefix.fstring) is_f = true;
  std::uint32_t pos = end_byte(start);
  std::uint32_t end = end_byte(n);
  for (std::uint32_t i = 1; i < count; ++i) {
    TSNode ch = ts_node_child(n, i);
    Kind ck = kind(ch);
    if (ck == Kind::StringEnd) {
      end = start_byte(ch);
      break;
    }
    if (ck != Kind::Interpolation) continue;
    is_f = true;
    python::decode_literal(span(pos, start_byte(ch)), prefix, parts);
    pos = end_byte(ch);
    TSNode expr = child(ch, m_g.f_expression);
    std::string etext = expr_text(text(expr));
    auto conv = text(child(ch, m_g.f_type_conversion));
    auto spec = text(child(ch, m_g.f_format_specifier));
    bool self_doc = false;
    std::uint32_t eq_end = 0;
    std::uint32_t nc = child_count(ch);
    for (std::uint32_t k = 0; k < nc; ++k) {
      TSNode t = ts_node_child(ch, k);
      if (!ts_node_is_named(t) && text(t) == "=") {
        self_doc = true;
        eq_end = end_byte(t);
      }
    }
    std::string display = etext;
    if (self_doc) {
      // `{x=}` prints the expression text as written, then its repr.
      append_literal(parts, span(start_byte(ch) + 1, eq_end));
      display += !conv.empty() ? std::string(conv) : !spec.empty() ? std::string(spec) : std::string("!r");
    } else {
      display += conv;
      display += spec;
    }
    char pc = 0;
    if (conv.empty() && spec.size() > 1) pc = python::spec_conversion(spec.substr(1));
    parts.push_back(interp(std::move(etext), std::move(display), pc));
  }
  python::decode_literal(span(pos, std::max(pos, end)), prefix, parts);
  return true;
}

bool FileScanner::literal_parts(TSNode n, std::vector<TemplatePart>& parts, bool& is_f) const {
  n = unwrap_parens(n);
  Kind k = kind(n);
  if (k == Kind::String) return string_parts(n, parts, is_f);
  if (k != Kind::ConcatString) return false;
  std::uint32_t count = named_count(n);
  bool any = false;
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode s = ts_node_named_child(n, i);
    if (kind(s) != Kind::String) continue;
    if (!string_parts(s, parts, is_f)) return false;
    any = true;
  }
  return any;
}

std::optional<MessageTemplate> FileScanner::build(TSNode n, std::uint32_t site_byte, int depth, bool allow_var) {
  if (depth > k_max_depth) return std::nullopt;
  n = unwrap_gettext(n);
  switch (kind(n)) {
    case Kind::String:
    case Kind::ConcatString: {
      MessageTemplate t;
      bool is_f = false;
      if (!literal_parts(n, t.parts, is_f)) return std::nullopt;
      t.style = is_f ? "fstring" : "string";
      return t;
    }
    case Kind::BinaryOp: {
      auto op = text(child(n, m_g.f_operator));
      if (op == "+") return build_concat(n, site_byte, depth);
      if (op == "%") return build_percent(n, site_byte, depth, allow_var);
      return std::nullopt;
    }
    case Kind::Call:
      if (auto t = build_join(n, site_byte, depth, allow_var)) return t;
      return build_format(n, site_byte, depth, allow_var);
    case Kind::Identifier:
      if (!allow_var) return std::nullopt;
      return build_variable(text(n), site_byte, depth);
    default: {
      // `(msg % args)[:256]`: a cut that keeps any message of ordinary
      // length whole reads as the message.
      if (std::string_view(ts_node_type(n)) != "subscript" || named_count(n) != 2) return std::nullopt;
      TSNode cut = ts_node_named_child(n, 1);
      if (std::string_view(ts_node_type(cut)) != "slice" || named_count(cut) != 1) return std::nullopt;
      std::string_view whole = text(cut);
      TSNode stop = ts_node_named_child(cut, 0);
      if (whole.empty() || whole.front() != ':' || std::string_view(ts_node_type(stop)) != "integer") return std::nullopt;
      std::string_view digits = text(stop);
      if (digits.size() < 2 || digits.size() > 6 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
          std::stoi(std::string(digits)) < 64)
        return std::nullopt;
      return build(ts_node_named_child(n, 0), site_byte, depth + 1, allow_var);
    }
  }
}

std::optional<MessageTemplate> FileScanner::build_concat(TSNode n, std::uint32_t site_byte, int depth) {
  // `a + b + c` nests to the left; flatten without recursion.
  std::vector<TSNode> operands;
  TSNode cur = n;
  while (kind(cur) == Kind::BinaryOp && text(child(cur, m_g.f_operator)) == "+") {
    operands.push_back(child(cur, m_g.f_right));
    cur = child(cur, m_g.f_left);
  }
  operands.push_back(cur);
  std::reverse(operands.begin(), operands.end());
  MessageTemplate t;
  t.style = "concat";
  bool any_string = false;
  for (TSNode op : operands) {
    if (ts_node_is_null(op)) return std::nullopt;
    std::optional<MessageTemplate> sub;
    TSNode bare = unwrap_parens(op);
    if (kind(bare) != Kind::Identifier) {
      sub = build(op, site_byte, depth + 1, false);
    } else {
      // `msg + f': {node!r}'` where `msg = "malformed node"` on the way
      // to it: a variable assigned text once, on every path to the site,
      // reads as that text. One assigned on some paths only (a parameter
      // replaced in a branch), or anything but text, stays a value.
      auto found = reaching(text(bare), site_byte);
      const Reaching* pick = nullptr;
      if (m_concat_pick && m_concat_pick->first == text(bare)) {
        if (m_concat_pick->second < found.size()) pick = &found[m_concat_pick->second];
      } else if (found.size() == 1 && start_byte(found[0].block) <= site_byte && site_byte < end_byte(found[0].block)) {
        pick = &found[0];
      }
      if (pick) {
        sub = build_reaching(*pick, depth + 1);
        if (sub && !any_literal(sub->parts)) sub.reset();
      }
    }
    if (sub) {
      any_string = true;
      append_parts(t.parts, std::move(sub->parts));
    } else {
      t.parts.push_back(interp(expr_text(text(op))));
    }
  }
  if (!any_string) return std::nullopt;
  return t;
}

std::optional<std::string> FileScanner::format_string(TSNode n, std::uint32_t site_byte, int depth, bool allow_var) {
  n = unwrap_gettext(n);
  std::vector<TemplatePart> parts;
  if (kind(n) == Kind::Identifier) {
    if (!allow_var) return std::nullopt;
    auto var = build_variable(text(n), site_byte, depth + 1);
    if (!var) return std::nullopt;
    parts = std::move(var->parts);
  } else if (TSNode bare = unwrap_parens(n); kind(bare) == Kind::BinaryOp) {
    // `(_ERR_MSG + '; {!r} is not a package').format(...)`: text added up.
    if (text(child(bare, m_g.f_operator)) != "+") return std::nullopt;
    auto sum = build_concat(bare, site_byte, depth + 1);
    if (!sum) return std::nullopt;
    parts = std::move(sum->parts);
  } else {
    bool is_f = false;
    if (!literal_parts(n, parts, is_f)) return std::nullopt;
  }
  if (!all_literal(parts)) return std::nullopt;
  return joined_literal(parts);
}

std::optional<MessageTemplate> FileScanner::build_percent(TSNode n, std::uint32_t site_byte, int depth, bool allow_var) {
  auto fmt = format_string(child(n, m_g.f_left), site_byte, depth, allow_var);
  if (!fmt) return std::nullopt;
  auto pieces = python::parse_printf(*fmt);
  if (!pieces) return std::nullopt;
  TSNode right = unwrap_parens(child(n, m_g.f_right));
  Kind rk = kind(right);
  std::vector<TSNode> values;
  std::unordered_map<std::string, TSNode> by_key;
  if (rk == Kind::Tuple) {
    std::uint32_t count = named_count(right);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode v = ts_node_named_child(right, i);
      if (kind(v) != Kind::Comment) values.push_back(v);
    }
  } else if (rk == Kind::Dictionary) {
    std::uint32_t count = named_count(right);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode p = ts_node_named_child(right, i);
      if (kind(p) != Kind::Pair) continue;
      std::vector<TemplatePart> key;
      bool is_f = false;
      if (literal_parts(child(p, m_g.f_key), key, is_f) && all_literal(key))
        by_key.emplace(joined_literal(key), child(p, m_g.f_value));
    }
  }
  int consumed = 0;
  for (const auto& p : *pieces)
    if (!p.literal) consumed += 1 + p.star_args;
  std::string right_text = expr_text(text(right));
  MessageTemplate t;
  t.style = "percent";
  int index = 0;
  for (auto& p : *pieces) {
    if (p.literal) {
      append_literal(t.parts, p.text);
      continue;
    }
    std::string value;
    if (!p.key.empty()) {
      auto it = by_key.find(p.key);
      value = it != by_key.end() ? expr_text(text(it->second)) : p.key;
    } else {
      index += p.star_args;
      if (rk == Kind::Tuple) {
        if (index >= static_cast<int>(values.size())) return std::nullopt;
        value = expr_text(text(values[static_cast<std::size_t>(index)]));
      } else if (consumed == 1) {
        value = right_text;
      } else {
        value = right_text + "[" + std::to_string(index) + "]";
      }
      ++index;
    }
    // Padding or sign flags change the digits' surroundings: only a plain
    // conversion narrows the group.
    char conv = p.conv;
    if (!p.plain && conv != 'r' && conv != 'a') conv = 's';
    t.parts.push_back(interp(std::move(value), {}, conv));
  }
  return t;
}

std::optional<MessageTemplate> FileScanner::build_format(TSNode call, std::uint32_t site_byte, int depth, bool allow_var) {
  TSNode fn = child(call, m_g.f_function);
  if (kind(fn) != Kind::Attribute || text(child(fn, m_g.f_attribute)) != "format") return std::nullopt;
  auto fmt = format_string(child(fn, m_g.f_object), site_byte, depth, allow_var);
  if (!fmt) return std::nullopt;
  auto pieces = python::parse_format(*fmt);
  if (!pieces) return std::nullopt;
  TSNode args = child(call, m_g.f_arguments);
  if (kind(args) != Kind::ArgumentList) return std::nullopt;
  std::vector<TSNode> positional;
  std::unordered_map<std::string, TSNode> keyword;
  std::uint32_t count = named_count(args);
  for (std::uint32_t i = 0; i < count; ++i) {
    TSNode a = ts_node_named_child(args, i);
    Kind ak = kind(a);
    if (ak == Kind::KeywordArg)
      keyword.emplace(std::string(text(child(a, m_g.f_name))), child(a, m_g.f_value));
    else if (ak != Kind::Comment && ak != Kind::ListSplat && ak != Kind::DictSplat)
      positional.push_back(a);
  }
  MessageTemplate t;
  t.style = "format";
  std::size_t auto_index = 0;
  for (auto& p : *pieces) {
    if (p.literal) {
      append_literal(t.parts, p.text);
      continue;
    }
    std::string base;
    bool numeric = !p.arg.empty() && p.arg.size() < 9 &&
                   std::all_of(p.arg.begin(), p.arg.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (p.arg.empty() || numeric) {
      std::size_t idx = p.arg.empty() ? auto_index++ : static_cast<std::size_t>(std::stoul(p.arg));
      base = idx < positional.size() ? expr_text(text(positional[idx])) : std::to_string(idx);
    } else {
      auto it = keyword.find(p.arg);
      base = it != keyword.end() ? expr_text(text(it->second)) : p.arg;
    }
    std::string value = base + p.rest;
    std::string display = value;
    if (!p.conversion.empty()) display += "!" + p.conversion;
    if (!p.spec.empty()) display += ":" + p.spec;
    char pc = p.conversion.empty() ? python::spec_conversion(p.spec) : 0;
    t.parts.push_back(interp(std::move(value), std::move(display), pc));
  }
  return t;
}

const std::vector<FileScanner::Assign>* FileScanner::assignments(TSNode scope, std::string_view name) {
  // Not a structured binding: a lambda below captures it (clang 14).
  auto emplaced = m_assignments.try_emplace(scope.id);
  auto it = emplaced.first;
  if (emplaced.second) {
    // One walk per scope (not into nested functions, classes, lambdas) for
    // every assignment to a plain name, with the block that holds it.
    std::vector<TSNode> path;
    walk(scope, [&](TSNode node, std::uint32_t d, TSTreeCursor*) {
      path.resize(d);
      path.push_back(node);
      Kind k = kind(node);
      if (d > 0 && (k == Kind::FunctionDef || k == Kind::ClassDef || k == Kind::Lambda || k == Kind::DecoratedDef))
        return false;
      if (k == Kind::Call && d >= 2 && kind(path[d - 1]) == Kind::ExprStatement) {
        // `name.append(x)`, `name.extend(x)`, `name.insert(0, x)` as a
        // statement: call <- expression_statement <- block.
        TSNode fn = child(node, m_g.f_function);
        TSNode args = child(node, m_g.f_arguments);
        if (kind(fn) == Kind::Attribute && kind(child(fn, m_g.f_object)) == Kind::Identifier &&
            kind(args) == Kind::ArgumentList) {
          std::vector<TSNode> given;
          std::uint32_t count = named_count(args);
          bool plain = true;
          for (std::uint32_t i = 0; i < count; ++i) {
            TSNode a = ts_node_named_child(args, i);
            Kind ak = kind(a);
            if (ak == Kind::Comment) continue;
            plain &= ak != Kind::KeywordArg && ak != Kind::ListSplat && ak != Kind::DictSplat;
            given.push_back(a);
          }
          std::string_view method = text(child(fn, m_g.f_attribute));
          char how = !plain                                                          ? 0
                     : method == "append" && given.size() == 1                       ? 'a'
                     : method == "extend" && given.size() == 1                       ? 'e'
                     : method == "insert" && given.size() == 2 && text(given[0]) == "0" ? 'p'
                                                                                    : 0;
          if (how)
            it->second[std::string(text(child(fn, m_g.f_object)))].push_back(
                {node, given.back(), path[d - 2], start_byte(node), end_byte(node), how});
        }
        return true;
      }
      if (k != Kind::Assignment && k != Kind::AugAssignment) return k != Kind::String && k != Kind::Comment;
      TSNode left = child(node, m_g.f_left);
      TSNode right = child(node, m_g.f_right);
      bool plain = k == Kind::Assignment;
      if (kind(left) == Kind::Identifier && !ts_node_is_null(right) && (plain || text(child(node, m_g.f_operator)) == "+=")) {
        // assignment <- expression_statement <- block
        TSNode block = d >= 2 ? path[d - 2] : scope;
        it->second[std::string(text(left))].push_back({node, right, block, start_byte(node), end_byte(node), plain ? '=' : '+'});
      }
      return true;  // `a = b = ...`, and walrus inside
    });
  }
  auto found = it->second.find(std::string(name));
  return found == it->second.end() ? nullptr : &found->second;
}

namespace {
// `_ERR_MSG`, `MAX_SIZE`: written as a constant (upper case, digits and
// underscores, a letter among them).
bool constant_name(std::string_view name) {
  bool letter = false;
  for (char c : name) {
    if (c >= 'A' && c <= 'Z')
      letter = true;
    else if (c != '_' && !(c >= '0' && c <= '9'))
      return false;
  }
  return letter && !(name.front() >= '0' && name.front() <= '9');
}
}  // namespace

std::vector<FileScanner::Reaching> FileScanner::reaching(std::string_view name, std::uint32_t site_byte) {
  std::vector<Reaching> live;
  TSNode scope = scope_node();
  if (ts_node_is_null(scope)) return live;
  static const std::vector<Assign> k_none;
  const std::vector<Assign>* list = assignments(scope, name);
  for (const Assign& a : list ? *list : k_none) {
    if (a.start >= site_byte) break;  // in source order
    if (a.end > site_byte) continue;
    if (a.how == '=') {
      // Replaces the assignments before it in its own block (and the
      // blocks nested there): every path on from them passes it.
      std::uint32_t b = start_byte(a.block), e = end_byte(a.block);
      std::erase_if(live, [&](const Reaching& r) { return r.at >= b && r.at < e; });
      live.push_back({a.rhs, a.node, a.block, a.start, {}});
    } else {
      // `msg += ...` inside a branch the assignment is not in may not run:
      // the value without it reaches too (a few at most). On a branch
      // the assignment cannot reach (its `if`'s `else`), it never runs
      // after it.
      std::vector<Reaching> skipped;
      for (auto& r : live) {
        if (!may_reach(r.assignment, a.start)) continue;
        if (!ts_node_eq(a.block, r.block) && live.size() + skipped.size() < 8) skipped.push_back(r);
        r.appends.push_back({a.rhs, a.how, a.start});
      }
      live.insert(live.begin(), skipped.begin(), skipped.end());
    }
  }
  if (live.empty() && !ts_node_eq(scope, m_root) && constant_name(name)) {
    // `_ERR_MSG.format(name)` with `_ERR_MSG = _ERR_MSG_PREFIX + '{!r}'` at
    // the top of the module: a constant-style name (upper case) the
    // function never assigns, assigned once in the module, reads as that
    // value wherever the module's functions run.
    if (top_level_assignments_blanked(name)) return live;
    const std::vector<Assign>* mod = assignments(m_root, name);
    if (mod && mod->size() == 1 && mod->front().how == '=') {
      const Assign& a = mod->front();
      live.push_back({a.rhs, a.node, a.block, a.start, {}, true});
    }
    return live;
  }
  // The flow checks below climb the tree: only the latest few are weighed.
  constexpr std::size_t k_max_weighed = 64;
  if (live.size() > k_max_weighed) live.erase(live.begin(), live.end() - k_max_weighed);
  if (live.size() > 2) replaced_on_every_branch(live);
  if (live.size() > 1) {
    std::vector<Reaching> kept;
    for (auto& r : live) {
      if (may_reach(r.assignment, site_byte)) kept.push_back(std::move(r));
    }
    if (!kept.empty()) live = std::move(kept);
  }
  return live;
}

void FileScanner::replaced_on_every_branch(std::vector<Reaching>& live) const {
  // For each `if` holding an assignment directly in a branch: the branches
  // that assign, and whether that is all of them, `else` included.
  struct Branches {
    TSNode stmt;
    std::vector<std::uint32_t> assigned;  // start bytes of branch nodes
  };
  std::vector<Branches> ifs;
  for (const auto& r : live) {
    TSNode block = r.block;
    TSNode owner = ts_node_parent(block);
    TSNode stmt = owner, branch = block;
    if (kind(owner) == Kind::Elif || kind(owner) == Kind::Else) {
      stmt = ts_node_parent(owner);
      branch = owner;
    }
    if (kind(stmt) != Kind::If) continue;
    auto it = std::find_if(ifs.begin(), ifs.end(), [&](const Branches& b) { return ts_node_eq(b.stmt, stmt); });
    if (it == ifs.end()) it = ifs.insert(ifs.end(), Branches{stmt, {}});
    if (std::find(it->assigned.begin(), it->assigned.end(), start_byte(branch)) == it->assigned.end())
      it->assigned.push_back(start_byte(branch));
  }
  for (const auto& b : ifs) {
    std::size_t branches = 1;
    bool has_else = false;
    std::uint32_t count = named_count(b.stmt);
    for (std::uint32_t i = 0; i < count; ++i) {
      Kind k = kind(ts_node_named_child(b.stmt, i));
      branches += k == Kind::Elif || k == Kind::Else;
      has_else |= k == Kind::Else;
    }
    if (!has_else || b.assigned.size() != branches) continue;
    // Every path through the `if` assigns: what came before it in an
    // enclosing block does not get past it.
    TSNode block = ts_node_parent(b.stmt);
    std::uint32_t from = start_byte(block), to = start_byte(b.stmt);
    std::erase_if(live, [&](const Reaching& r) { return r.at >= from && r.at < to; });
  }
}

bool FileScanner::may_reach(TSNode assignment, std::uint32_t site_byte) const {
  // The lowest node holding both; if it is an `if` (or a `try`'s handlers)
  // whose different branches hold them, the assignment cannot reach.
  // A block left by `raise`, `return`, `break` or `continue` after the
  // assignment does not flow on to the site either.
  TSNode prev = assignment;
  for (TSNode cur = ts_node_parent(assignment); !ts_node_is_null(cur); prev = cur, cur = ts_node_parent(cur)) {
    if (!(start_byte(cur) <= site_byte && site_byte < end_byte(cur))) {
      if (kind(cur) != Kind::Block) continue;
      std::uint32_t count = named_count(cur);
      for (std::uint32_t i = 0; i < count; ++i) {
        TSNode st = ts_node_named_child(cur, i);
        if (start_byte(st) < end_byte(prev)) continue;
        std::string_view type = ts_node_type(st);
        if (type == "raise_statement" || type == "return_statement" || type == "break_statement" ||
            type == "continue_statement")
          return false;
      }
      continue;
    }
    Kind k = kind(cur);
    if (k == Kind::If) return ts_node_eq(prev, child(cur, m_g.f_condition));
    if (k == Kind::Try) return kind(prev) != Kind::Except;
    return true;
  }
  return true;
}

std::optional<MessageTemplate> FileScanner::build_reaching(const Reaching& r, int depth) {
  // The value is built as it was where it was assigned: a name it reads
  // (`msg = msg.format(...)`) is looked up before that line, a few names
  // deep at most (input decides how long a chain is).
  if (m_variable_hops >= k_max_variable_hops) return std::nullopt;
  ++m_variable_hops;
  // A module constant is built where it stands: the names it reads are the
  // module's too, not the raising function's.
  TSNode saved = m_scope;
  if (r.module_constant) m_scope = m_root;
  auto t = build(r.rhs, r.at, depth + 1, true);
  m_scope = saved;
  --m_variable_hops;
  if (!t) return std::nullopt;
  for (const Added& a : r.appends) {
    if (a.how != '+') return std::nullopt;  // a list's call: not text
    auto more = build(a.value, r.at, depth + 1, false);
    if (more)
      append_parts(t->parts, std::move(more->parts));
    else
      t->parts.push_back(interp(expr_text(text(a.value))));
  }
  t->style = "variable";
  return t;
}

std::optional<MessageTemplate> FileScanner::build_variable(std::string_view name, std::uint32_t site_byte, int depth) {
  auto found = reaching(name, site_byte);
  if (found.empty()) return std::nullopt;
  return build_reaching(found.back(), depth);
}

// `"".join(parts)`, `", ".join(["a", repr(x)])`: the items with the
// separator between them. The list is a literal, or a variable as the
// latest assignment reaching the join leaves it (`configparser` builds
// `DuplicateOptionError`'s message so, appending under `if`s: each
// addition on the way is taken).
std::optional<MessageTemplate> FileScanner::build_join(TSNode call, std::uint32_t site_byte, int depth, bool allow_var) {
  if (depth > k_max_depth) return std::nullopt;
  TSNode fn = child(call, m_g.f_function);
  if (kind(fn) != Kind::Attribute || text(child(fn, m_g.f_attribute)) != "join") return std::nullopt;
  std::vector<TemplatePart> sep;
  bool is_f = false;
  TSNode sep_node = child(fn, m_g.f_object);
  if (kind(sep_node) != Kind::String || !literal_parts(sep_node, sep, is_f) || !all_literal(sep)) return std::nullopt;
  TSNode args = child(call, m_g.f_arguments);
  if (kind(args) != Kind::ArgumentList || named_count(args) != 1) return std::nullopt;
  TSNode list = unwrap_parens(ts_node_named_child(args, 0));
  std::vector<std::vector<TemplatePart>> items;
  if (!list_items(list, site_byte, depth + 1, allow_var, items) || items.empty()) return std::nullopt;
  MessageTemplate t;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) append_parts(t.parts, sep);
    append_parts(t.parts, std::move(items[i]));
  }
  if (!any_literal(t.parts)) return std::nullopt;
  t.style = kind(list) == Kind::Identifier ? "variable" : "join";
  return t;
}

// The items of list `n` at `site_byte`: a list literal's, or a list
// variable's (its latest reaching assignment, then what is appended,
// extended and inserted at 0 on the way). False when they cannot be read.
bool FileScanner::list_items(TSNode n, std::uint32_t site_byte, int depth, bool allow_var,
                             std::vector<std::vector<TemplatePart>>& items) {
  if (depth > k_max_depth) return false;
  n = unwrap_parens(n);
  if (std::string_view(ts_node_type(n)) == "list") {
    std::uint32_t count = named_count(n);
    for (std::uint32_t i = 0; i < count; ++i) {
      TSNode item = ts_node_named_child(n, i);
      Kind k = kind(item);
      if (k == Kind::Comment) continue;
      if (k == Kind::ListSplat) return false;
      items.push_back(item_parts(item, site_byte, depth + 1));
    }
    return true;
  }
  if (kind(n) != Kind::Identifier || !allow_var || m_variable_hops >= k_max_variable_hops) return false;
  auto found = reaching(text(n), site_byte);
  if (found.empty()) return false;
  const Reaching& r = found.back();
  ++m_variable_hops;
  bool ok = list_items(r.rhs, r.at, depth + 1, true, items);
  for (std::size_t k = 0; ok && k < r.appends.size(); ++k) {
    const Added& a = r.appends[k];
    if (a.how == 'a') {
      items.push_back(item_parts(a.value, a.at, depth + 1));
    } else if (a.how == 'p') {
      items.insert(items.begin(), item_parts(a.value, a.at, depth + 1));
    } else {
      ok = list_items(a.value, a.at, depth + 1, true, items);  // `extend(x)`, `+= x`
    }
  }
  --m_variable_hops;
  return ok;
}

// One item of a joined list as text: `repr(x)` as `{x!r}`, `str(x)` as
// `{x}`, a message expression as built, anything else as an interpolation.
std::vector<TemplatePart> FileScanner::item_parts(TSNode item, std::uint32_t site_byte, int depth) {
  item = unwrap_parens(item);
  std::vector<TemplatePart> parts;
  if (kind(item) == Kind::Call) {
    std::string_view callee = text(child(item, m_g.f_function));
    TSNode args = child(item, m_g.f_arguments);
    if ((callee == "repr" || callee == "str") && kind(args) == Kind::ArgumentList && named_count(args) == 1) {
      std::string e = expr_text(text(ts_node_named_child(args, 0)));
      parts.push_back(callee == "repr" ? interp(e, e + "!r") : interp(e));
      return parts;
    }
  }
  if (auto t = build(item, site_byte, depth + 1, false)) return std::move(t->parts);
  parts.push_back(interp(expr_text(text(item))));
  return parts;
}

}  // namespace

namespace {

// `original`: the whole file when `source` is its outline, else empty.
model::FileFacts scan_source(std::string_view source, std::string_view original) {
  if (source.size() > k_max_source || python::too_deeply_indented(source)) {
    model::FileFacts facts;
    facts.had_syntax_errors = true;
    return facts;
  }
  thread_local TsParser parser(language().lang);
  TSTree* tree = ts_parser_parse_string(parser.get(), nullptr, source.data(),
                                        static_cast<std::uint32_t>(source.size()));
  if (!tree) {
    ts_parser_reset(parser.get());
    model::FileFacts facts;
    facts.had_syntax_errors = true;
    return facts;
  }
  model::FileFacts facts = FileScanner(source, ts_tree_root_node(tree), original).run();
  ts_tree_delete(tree);
  return facts;
}

}  // namespace

namespace {

model::FileFacts scan_python_sites(const PythonLines& lines) {
  const std::string_view source = lines.source();
  if (source.size() <= k_max_source) {
    if (auto outline = blank_unreachable(lines)) {
      auto facts = scan_source(*outline, source);
      if (facts.blanked.empty()) return facts;
      // A message read from code the outline blanked: again, keeping it.
      if (auto wider = blank_unreachable(lines, facts.blanked)) {
        facts = scan_source(*wider, source);
        if (facts.blanked.empty()) return facts;
      }
    }
  }
  return scan_source(source, {});
}

}  // namespace

model::FileFacts scan_python(std::string_view source) { return scan_python(PythonLines(source)); }

model::FileFacts scan_python(const PythonLines& lines) {
  model::FileFacts facts = scan_python_sites(lines);
  facts.docstrings = read_docstrings(lines);
  return facts;
}

model::FileFacts scan_python_whole(std::string_view source) { return scan_source(source, {}); }

namespace {

// `site` raises `cls`, defined in another file: its display filled with the
// site's arguments, as an alternative.
void apply_class_display(model::ThrowSite& site, const model::ClassDef& cls) {
  if (cls.display.empty() || site.kind != "raise") return;
  // The arguments as written: positional ones in order, keywords by name.
  std::vector<std::size_t> positional;  // indexes into site.args
  std::vector<std::pair<std::string_view, std::string_view>> keywords;
  for (std::size_t i = 0; i < site.args.size(); ++i) {
    std::string_view a = site.args[i];
    if (a.starts_with("*")) return;  // which parameters it fills is not known
    std::size_t n = 0;
    while (n < a.size() && (std::isalnum(static_cast<unsigned char>(a[n])) || a[n] == '_')) ++n;
    if (n > 0 && !std::isdigit(static_cast<unsigned char>(a[0])) && n < a.size() && a[n] == '=' &&
        (n + 1 == a.size() || a[n + 1] != '=')) {
      keywords.emplace_back(a.substr(0, n), a.substr(n + 1));
      continue;
    }
    if (!keywords.empty()) return;  // not Python
    positional.push_back(i);
  }
  for (const MessageTemplate& t : cls.display) {
    MessageTemplate out;
    out.style = t.style;
    out.from_literals = true;
    for (const TemplatePart& p : t.parts) {
      if (p.literal) {
        append_literal(out.parts, p.text);
        continue;
      }
      std::size_t k = 0;
      while (k < cls.params.size() && cls.params[k].name != p.text) ++k;
      if (k == cls.params.size()) {
        out.parts.push_back(p);
        continue;
      }
      // The argument for it: by position, by name, else the default.
      std::optional<std::string_view> given;
      bool first_argument = false;
      if (!cls.params[k].keyword_only && k < positional.size()) {
        given = site.args[positional[k]];
        first_argument = positional[k] == 0;
      }
      for (const auto& [name, value] : keywords)
        if (!given && name == p.text) given = value;
      if (!given) {
        if (cls.params[k].default_text.empty()) {
          out.parts.push_back(p);
        } else {
          append_literal(out.parts, cls.params[k].default_text);
        }
        continue;
      }
      // Shown as it is: the site's message when it is the first argument.
      const bool as_is = (p.display.empty() || p.display == p.text) && (p.printf_conv == 0 || p.printf_conv == 's');
      if (as_is && first_argument && site.message.style != "none" && site.message.style != "expression") {
        append_parts(out.parts, std::vector<TemplatePart>(site.message.parts));
        continue;
      }
      out.parts.push_back(filled_with(p, std::string(*given)));
    }
    if (!same_parts(out, site.message)) push_alternative(site, std::move(out));
  }
}

}  // namespace

void link_class_displays(std::vector<model::FileFacts>& files) {
  struct Defined {
    std::size_t file = 0;
    const model::ClassDef* cls = nullptr;  // nullptr: defined more than once
  };
  std::unordered_map<std::string_view, Defined> by_name;
  for (std::size_t i = 0; i < files.size(); ++i)
    for (const model::ClassDef& c : files[i].classes) {
      auto [it, added] = by_name.emplace(c.name, Defined{i, &c});
      if (!added) it->second.cls = nullptr;
    }
  for (std::size_t i = 0; i < files.size(); ++i)
    for (model::ThrowSite& site : files[i].sites) {
      std::string_view name = site.error_class;
      if (auto dot = name.rfind('.'); dot != std::string_view::npos) name.remove_prefix(dot + 1);
      auto it = by_name.find(name);
      // Raised where it is defined: the file's own scan followed it.
      if (it == by_name.end() || !it->second.cls || it->second.file == i) continue;
      apply_class_display(site, *it->second.cls);
    }
}

bool may_define_classes(std::string_view source) { return source.find("class") != std::string_view::npos; }

bool may_have_sites(std::string_view source) {
  return source.find("raise") != std::string_view::npos || source.find("warn") != std::string_view::npos ||
         source.find("assert") != std::string_view::npos;
}

}  // namespace errdex::scan
