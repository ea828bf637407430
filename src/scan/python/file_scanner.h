#pragma once
// Internal to scan/python/: FileScanner, which reads one parsed file into
// throw-site facts for scan_python (frontend.h), and what its parts share.
// Its members are defined by concept: the walk that finds the sites
// (sites.cc), the exception a raise constructs (exception_call.cc), a
// message built from an expression (message.cc) or from the names bound
// before it (reaching.cc), the calls of the file (calls.cc) and what its
// exception classes print (class_display.cc).
#include <tree_sitter/api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "model/throw_site.h"
#include "scan/python/earlier_trees.h"
#include "scan/tree_walk.h"

namespace errdex::scan::python::detail {

using model::ClassDef;
using model::FileFacts;
using model::Guard;
using model::MessageTemplate;
using model::TemplatePart;
using model::ThrowSite;

// A message variable built from another variable, and so on: followed this
// many names deep.
constexpr int k_max_variable_hops = 4;

enum class Kind : std::uint8_t {
  Other, Raise, Assert, Call, FunctionDef, ClassDef, DecoratedDef, Decorator,
  If, Elif, Else, While, For, Try, Except, Case, String, ConcatString,
  BinaryOp, Paren, Identifier, Attribute, Interpolation, TypeConversion,
  FormatSpecifier, ArgumentList, KeywordArg, ExprStatement, Assignment,
  AugAssignment, Tuple, Dictionary, Pair, Block, AsPattern, StringStart,
  StringEnd, Lambda, Comment, ListSplat, DictSplat, Parameters, IfClause,
  Return, BoolOp,
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

// The grammar's symbols and fields, read once (frontend.cc).
const Language& language();

// Null-safe accessors: tree-sitter dereferences null nodes, and fields
// are missing wherever the parser recovered from a syntax error.
inline std::uint32_t named_count(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_named_child_count(n); }
inline std::uint32_t child_count(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_child_count(n); }
inline std::uint32_t start_byte(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_start_byte(n); }
inline std::uint32_t end_byte(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_end_byte(n); }

// Whether `t` reads as a name or a dotted name (`a.b.c`), as a raised or
// caught class is written.
bool is_dotted_name(std::string_view t);

// Expression text for templates and class names: verbatim unless it spans
// lines, then whitespace-collapsed so the brace form stays on one line.
std::string expr_text(std::string_view t);

bool all_literal(const std::vector<TemplatePart>& parts);

// Interpolation `p` with its expression replaced by the source text of the
// argument that fills it, keeping its conversion and format (`{x!r}` of
// argument `a + b` shows as `{a + b!r}`).
TemplatePart filled_with(const TemplatePart& p, std::string arg);

// A display joined from items (`'\n'.join(lines)`) holds no None (join
// would raise): an interpolation standing as a whole line that a call fills
// with `None` (or leaves to its `None` default: `left_none`) was never
// appended (`if self.context is not None: lines.append(self.context)`,
// pyyaml's MarkedYAMLError). Such lines go, with one line break each.
void drop_none_lines(MessageTemplate& t, const std::vector<std::string>& left_none);

// Whether interpolation `p` filled with `arg`, a whole number written in
// decimal (`raise HTTPError(403)` into `"HTTP %d: %s"`), prints its digits.
bool shows_as_digits(const TemplatePart& p, std::string_view arg);

bool any_literal(const std::vector<TemplatePart>& parts);

std::string joined_literal(const std::vector<TemplatePart>& parts);

// Python's whitespace off the literal ends of a message: both ends for
// `trim` 'b', the left for 'l', the right for 'r' (message.cc).
void strip_ends(std::vector<TemplatePart>& parts, char trim);

// A message's literal text as a layout call leaves it (`layout` as
// relaid_text says): 'd' (textwrap.dedent, inspect.cleandoc) takes the
// indentation its lines share off each; 'f' (textwrap.fill, sympy's
// filldedent) makes each run of whitespace one space. Both trim the ends
// (message.cc).
void relay(std::vector<TemplatePart>& parts, char layout);

// Adds `t` to the site's other messages unless it has no constant words
// to match on or is there already (exception_call.cc).
// The style of a class display that is a constructor parameter shown as
// a call gives it, the class having a default text for it when left out
// (`if message is None: message = …`): passed, it is the only display.
inline constexpr std::string_view k_as_given = "as_given";

// A message worth offering as a variant: some constant text to match on.
bool has_words(const MessageTemplate& t);
void push_alternative(ThrowSite& site, MessageTemplate t);

// What the raised class shows, filled with the raise's arguments: the
// site's message when it is the class's only display (`only`), or the
// raise gives no message of its own, and it holds some text
// (`{prefix}{self.args[0]}` tells nothing), the message read from the
// raise's arguments then an alternative; else an alternative
// (exception_call.cc).
void offer_class_display(ThrowSite& site, MessageTemplate shown, bool only);

// Each of the texts a class shows (its displays, filled), offered in turn:
// with several, the last with some text is the message where the raise's
// argument holds none (tornado's `raise HTTPError(403)` prints "HTTP 403:
// Forbidden", never "403"; a `__str__` returns its general text last,
// after the special cases), the others alternatives.
void offer_class_displays(ThrowSite& site, std::vector<MessageTemplate> shown);

// What the walk of a file found, unit by unit (a module-level statement,
// or a statement of a module-level class's body), for a scan of the file's
// next content (definition_memo.cc). A unit's sites and classes are a
// function of its own text, of the classes around it, of the names it
// looked up elsewhere in the file while it was walked (a class, a helper,
// a function's callers, a module constant, a blanked line, by name) and of
// the texts those names are found in: the statements holding the name at
// each level around the unit, where they stand against it, and the lines
// of the whole file (before the outline blanked it) around the name.
struct DefinitionMemo final : EarlierScan {
  struct Key {
    std::uint64_t a = 0, b = 0;
    bool operator==(const Key&) const = default;
  };
  // A unit's findings, shared by the memos of the revisions it is found
  // unchanged in; lines counted from the unit's first (1), 0 left 0.
  struct Found {
    std::vector<std::string> words;  // the names it looked up, sorted, once each
    Key key;                         // FileScanner::dependency_key of `words`
    std::vector<ThrowSite> sites;
    std::vector<ClassDef> classes;
  };
  struct Entry {
    std::uint32_t begin = 0, end = 0;  // the unit's bytes in `source`
    int line = 0;                      // its first line, 1-based
    std::shared_ptr<const Found> found;
  };
  std::string source;  // the text scanned
  std::vector<Entry> entries;
  // Unit text (in `source`) -> index in `entries`.
  std::unordered_multimap<std::string_view, std::size_t> by_text;
};

class FileScanner {
 public:
  // `original` is the file before python/outline.h blanked it (empty when
  // `src` is the whole file): messages built in blanked code are not
  // looked for; the scan asks for the whole file instead.
  // With `earlier` (the memo of a scan of the same path's earlier
  // content), a unit whose text and dependencies are unchanged takes its
  // sites and classes from there, lines moved, and is not walked. With `record`, run() also fills `next_memo()`.
  FileScanner(std::string_view src, TSNode root, std::string_view original = {},
              std::shared_ptr<const DefinitionMemo> earlier = nullptr, bool record = false)
      : m_src(src), m_original(original), m_root(root), m_g(language()), m_earlier(std::move(earlier)),
        m_next(record ? std::make_shared<DefinitionMemo>() : nullptr) {}

  FileFacts run();
  // The memo of this scan (after run(); null unless asked for).
  std::shared_ptr<DefinitionMemo> next_memo() const { return m_next; }
  // Units whose sites came from the earlier memo.
  std::size_t reused_statements() const { return m_reused; }

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

  Kind kind(TSNode n) const { return node_kind(m_g.kinds, n, Kind::Other); }
  std::string_view text(TSNode n) const { return node_text(m_src, n); }
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
  // `(x)` → `x`, a comment beside it (`("a "  # why\n "b")`) or not.
  TSNode unwrap_parens(TSNode n) const {
    while (kind(n) == Kind::Paren) {
      TSNode inner{};
      std::uint32_t held = 0;
      for (std::uint32_t i = 0, all = named_count(n); i < all; ++i) {
        TSNode c = ts_node_named_child(n, i);
        if (kind(c) == Kind::Comment) continue;
        inner = c;
        ++held;
      }
      if (held != 1) break;
      n = inner;
    }
    return n;
  }
  // `cast(str, x)`, `t.cast(str, x)`, `typing.cast(...)`: `x` at run time.
  TSNode unwrap_cast(TSNode n) const {
    n = unwrap_parens(n);
    for (int hops = 0; hops < 4 && kind(n) == Kind::Call; ++hops) {
      std::string_view fn = text(child(n, m_g.f_function));
      if (fn != "cast" && fn != "typing.cast" && fn != "t.cast" && fn != "tp.cast" && fn != "typ.cast") break;
      TSNode args = child(n, m_g.f_arguments);
      if (kind(args) != Kind::ArgumentList || named_count(args) != 2) break;
      TSNode value = ts_node_named_child(args, 1);
      if (kind(value) == Kind::KeywordArg || kind(ts_node_named_child(args, 0)) == Kind::KeywordArg) break;
      n = unwrap_parens(value);
    }
    return n;
  }
  // `_("text")`, `gettext("text")`, sphinx's `__("text")`: translation
  // leaves the text as written in an untranslated run, so the call reads
  // as its literal.
  TSNode unwrap_gettext(TSNode n) const {
    n = unwrap_cast(n);
    if (kind(n) != Kind::Call) return n;
    std::string_view fn = text(child(n, m_g.f_function));
    auto dot = fn.rfind('.');
    std::string_view name = dot == std::string_view::npos ? fn : fn.substr(dot + 1);
    const bool underscores = !name.empty() && name.find_first_not_of('_') == std::string_view::npos;
    if (!underscores && name != "gettext" && name != "N_" && name != "gettext_lazy" && name != "ugettext" &&
        name != "lazy_gettext" && name != "_l")
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
  // The pre-order visit of run()'s walk.
  bool visit(TSNode n, std::uint32_t depth);
  // Statement `i` of `body` (the root, or a class's body within such a
  // statement), at `depth`: taken from the earlier memo, else walked and
  // remembered; a class's statement is walked to its body, whose
  // statements are units of their own.
  void walk_unit(TSNode body, std::uint32_t i, std::uint32_t depth);
  void walk_class(TSNode n, std::uint32_t depth);
  // The unit `st` (m_chain's last): its sites and classes from the earlier
  // memo when an entry of the same text has the same dependency key here
  // (lines moved by as many as the statement moved); false otherwise.
  bool replay(TSNode st);
  // The unit m_chain names, and the names it looked up elsewhere: the
  // headers and docstrings of the classes around it, and for each
  // name the texts of the statements holding it at each level of m_chain
  // (the unit's own place marked there), and of the whole file's top-level
  // chunks holding it (definition_memo.cc).
  DefinitionMemo::Key dependency_key(const std::vector<std::string>& words);
  // Unit `st` just walked, having looked up `words` and found the sites
  // and classes from index `sites` and `classes` on: into the next memo,
  // unless its findings name a line outside it or it shares a line with
  // another statement (lines could not be moved with it).
  void remember(TSNode st, std::vector<std::string> words, std::size_t sites, std::size_t classes);
  // The lookup of `word` outside the statement being walked: recorded for
  // the memo.
  void depends_on(std::string_view word) {
    if (m_deps) m_deps->emplace_back(word);
  }
  // The lookup of module-level class `name` (class_named): what it
  // depends on is the classes of that name at module level alone.
  void depends_on_class(std::string_view name) {
    if (m_deps) m_deps->emplace_back(std::string(k_class_dependency) + std::string(name));
  }
  static constexpr std::string_view k_class_dependency = "\x01class ";
  void visit_class(TSNode n);
  void emit_raise(TSNode n);
  // site.arg_messages: the messages the exception call's arguments after
  // the first build, `given` holding each argument's value as site.args
  // holds its text.
  void read_argument_messages(ThrowSite& site, const std::vector<TSNode>& given, std::uint32_t at);
  void emit_assert(TSNode n);
  bool emit_warn(TSNode call);
  void fill_context(ThrowSite& site, std::uint32_t site_byte);
  std::vector<Guard> guards(std::uint32_t site_byte) const;
  Guard make_guard(const char* kind, TSNode cond) const;
  std::vector<std::string> read_names(TSNode n) const;
  std::string caught_text(TSNode except_clause) const;
  std::string_view caught_alias(TSNode except_clause) const;
  std::string_view caught_with_traceback(TSNode call) const;
  // Whether raised call `call` hands on an exception an object holds
  // (`exc_info[1].with_traceback(tb)`, `future.exception()`), not one it
  // makes (sites.cc).
  bool raises_what_it_holds(TSNode call) const;
  // `raise self.parse_error(UnexpectedCharError, char)`: a call the file's
  // helpers left unresolved, to a function named for making errors
  // (`…err…`, `…exc…`), given a class first, raises that class (sites.cc).
  void factory_given_class(ThrowSite& site, TSNode call) const;
  bool reraise_caught(ThrowSite& site, std::string_view name);
  // `except E as e: e.args = (f"…: {e}", *e.args[1:]); raise` (or `raise
  // e`, `name`): the message set on the caught exception before the raise
  // at `at`, on every path to it; the site untouched when none is.
  void read_args_set(ThrowSite& site, std::string_view name, std::uint32_t at);
  // Whether `raise name` at byte `at` raises an exception the function got
  // from elsewhere: a lower-case local it assigns or a parameter.
  bool handed_on(std::string_view name, std::uint32_t at);
  // Whether `scope` (not its nested definitions) binds `name` in a pattern:
  // a `for` target, an unpacking assignment, `with … as`, `:=`.
  bool bound_by_pattern(TSNode scope, std::string_view name) const;
  // Whether raised expression `expr` (not a call) holds an exception made
  // elsewhere rather than naming a class: an item of a collection, or an
  // attribute in lower case of `self` or of a local or parameter.
  bool holds_exception(TSNode expr, std::uint32_t at);
  // The class an exception held in `held` (an expression's text) has where
  // the innermost `if` at `at` tests `isinstance(held, Cls)`: "Cls", else
  // "" (not known). Not `Exception` or `BaseException`.
  std::string tested_class(std::string_view held, std::uint32_t at) const;
  FunctionInfo function_info(std::size_t ctx_index) const;
  std::string docstring(TSNode body) const;

  // The scope a message variable is looked up in: the innermost function's
  // body, else the module.
  TSNode scope_node() const;
  // Index in m_ctx of the innermost enclosing function; npos when none.
  std::size_t innermost_function() const;
  MessageTemplate message_from(TSNode expr, std::uint32_t site_byte);
  // `{expr}`: the expression as written, when nothing builds it.
  MessageTemplate expression_message(TSNode expr) const;
  // A message that is one of several texts (`"unknown flag" if c else
  // "missing flag"`, `{OPENED: "…", CLOSED: "…"}[state]`, directly or in
  // the variable raised): each text built, the first the site's message,
  // the others alternatives. Empty when no choice builds; `build_once`
  // builds the message with the choice points' current picks.
  std::vector<MessageTemplate> each_choice(const std::function<std::optional<MessageTemplate>()>& build_once);
  // The site's message from `expr` with each choice it offers.
  void message_with_choices(ThrowSite& site, TSNode expr, std::uint32_t site_byte);
  // each_choice's texts taken by the site: the first its message, the
  // others alternatives; false when there is none.
  bool take_choices(ThrowSite& site, std::vector<MessageTemplate> built);
  // While each_choice runs: `n`'s picked option when it is a choice point
  // (counted in the order met), else `n`.
  TSNode chosen(TSNode n);
  std::optional<MessageTemplate> build(TSNode n, std::uint32_t site_byte, int depth, bool allow_var);
  bool string_parts(TSNode n, std::vector<TemplatePart>& parts, bool& is_f) const;
  bool literal_parts(TSNode n, std::vector<TemplatePart>& parts, bool& is_f) const;
  std::optional<MessageTemplate> build_concat(TSNode n, std::uint32_t site_byte, int depth);
  TSNode stripped_object(TSNode call, char& trim) const;
  // The text a layout call is given (`dedent(x)`, `cleandoc(x)`,
  // `fill(x, width=...)`, `filldedent(x)`, under any module), with
  // `layout` 'd' for a dedent, 'f' for a fill; else null.
  TSNode relaid_text(TSNode call, char& layout) const;
  std::optional<std::string> format_string(TSNode n, std::uint32_t site_byte, int depth, bool allow_var);
  std::optional<MessageTemplate> build_percent(TSNode n, std::uint32_t site_byte, int depth, bool allow_var);
  std::optional<MessageTemplate> build_format(TSNode call, std::uint32_t site_byte, int depth, bool allow_var);
  std::optional<MessageTemplate> build_variable(std::string_view name, std::uint32_t site_byte, int depth);
  // `plural = "path" if len(paths) == 1 else "paths"`, the one value name
  // `name` holds on every path to `site_byte`: the conditional's source
  // text (each branch a string, or a conditional of strings), else "".
  // Interpolated, the analyst reads it as each of its texts
  // (scan/conditional_text.h), as if written inline. Not `self.code if
  // self.code is not None else "???"`: the value is what it shows.
  std::string conditional_local(std::string_view name, std::uint32_t site_byte);
  // Whether `n` is a string, or a conditional whose branches are.
  bool texts_only(TSNode n, int depth) const;
  // Each plain `{name}` of `parts` that conditional_local reads, the
  // conditional in its place.
  void inline_conditional_locals(std::vector<TemplatePart>& parts, std::uint32_t site_byte);
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
    // Read in this scope (an enclosing function's body: the raising
    // closure's free variable), not the raising function's; null: its own.
    TSNode scope{};
  };
  std::vector<Reaching> reaching(std::string_view name, std::uint32_t site_byte);
  // Whether parameter `param` of `init_fn` is given each of the values
  // `found` reaching a use only under an `if` testing it (`if message is
  // None: message = …`): a call passing it shows what it passes.
  bool set_only_under_if(TSNode init_fn, std::string_view param, const std::vector<Reaching>& found) const;
  // `message or self.message`, `message if message is not None else
  // "text"`, `"text" if message is None else message`, where `message` is
  // a parameter of `init_fn`: the value shown when a call leaves it out
  // (`param` set to its name); null for any other value.
  TSNode parameter_or_default(TSNode value, TSNode init_fn, std::string_view& param) const;
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
  // What a raise constructs when its expression offers a default:
  // `raise (too_short or ValueError('too few items')) from e` raises the
  // call when the caller passed no exception of its own (more_itertools'
  // `one`); parentheses are looked through. Otherwise `expr` itself.
  TSNode default_exception(TSNode expr) const;
  // `T` of `typing.cast(T, value)` (or `cast`, or `t.cast`) given two
  // values, else null.
  TSNode cast_type(TSNode expr) const;
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
  // The function of this file `call` calls by a lower-case name
  // (`helper(…)`; `self.helper(…)`, `cls.helper(…)`: `method`, the class's
  // own), or null. When the outline blanked its `def`, the file is asked
  // to be read again keeping it.
  TSNode called_helper(TSNode call, bool& method);
  // `raise ValueError(_bad_name(name))`, `msg = self._formatMessage(msg,
  // standardMsg)`: a function or method of this file whose returns are
  // text reads as what it returns, its parameters replaced by the call's
  // arguments. Several returns are a choice (each_choice); a class it
  // returns is resolve_helper's.
  std::optional<MessageTemplate> build_text_helper(TSNode call, std::uint32_t site_byte, int depth);
  // `self.name(…)` called at `from`: the method of the class holding it,
  // or of its bases defined in the file, or null (another class's method
  // of that name is not it).
  TSNode method_named(TSNode from, std::string_view name);
  // While each_choice runs: which of `count` options the next choice point
  // takes (counted in the order met); 0 outside.
  std::size_t choice_of(std::size_t count);
  // `raise Cls(args)` of a class defined in this file whose `__str__`
  // returns a message, or whose `__init__` passes one to its base
  // (`super().__init__("No section: %r" % section)`): what Python prints,
  // with the class's parameters replaced by this call's arguments, becomes
  // an alternative. Bases defined in the file are followed.
  void resolve_class_display(ThrowSite& site, TSNode call, std::uint32_t at);
  // What the class `call` constructs prints, filled with the call's
  // arguments read in the current scope (a helper's body, for the
  // construction it returns); empty when the file does not say.
  // `given`, when not null, is set when the call passes the parameter a
  // display shows as given (k_as_given): that display is then the message.
  std::vector<MessageTemplate> class_display_texts(TSNode call, std::uint32_t at, bool* given = nullptr);
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
    // Text the class or a base here sets in its body (werkzeug's `NotFound`:
    // `description = "The requested URL was not found…"`), nearest first:
    // "self.description" -> the value, what the instance shows where the
    // raise passes nothing for it.
    std::unordered_map<std::string, TSNode> attributes;
    // Attributes `__init__` sets to a parameter or else a text (`self.x =
    // x or self.gettext("…")`): the text shows only when a caller leaves
    // the parameter out.
    std::unordered_set<std::string> given_or_text;
  };
  // The string a class body assigns to a name (`description = (…)`,
  // `code: int = 404`), as `d.attributes` keeps it, for each class of `chain`.
  void read_class_attributes(const std::vector<std::string_view>& chain, ClassDisplay& d);
  // `self.x` of a class's method (`__init__` leaving it as the class body
  // sets it) in the message of a site there: what the class, and a
  // subclass here, set it to (class_attributes.cc).
  void fill_class_texts();
  void read_init_assignments(TSNode init_fn, ClassDisplay& d);
  // A property of the class or its bases returning what `__init__` kept
  // (`self.args[0]`), kept under its own `self.name`.
  void read_kept_properties(const std::vector<std::string_view>& chain, ClassDisplay& d);
  // What the `__init__`s of the bases of `init_owner` (defined here) keep of
  // what `init_fn` hands them: click's `BadOptionUsage(option_name, message)`
  // passes `message` to `UsageError.__init__`, which keeps `self.message`,
  // shown by its `__str__`. Added to `d.kept` in `init_fn`'s parameters.
  void keep_through_bases(TSNode init_fn, TSNode init_owner, ClassDisplay& d);
  // Whether class `name` has `base` among its bases here (first bases, a few hops).
  bool derives_from(std::string_view name, std::string_view base);
  // Whether `n` runs under an `if` of `body` (a function's).
  bool under_if(TSNode n, TSNode body) const;
  // Whether `n` runs in an `except` handler of `body` (a function's).
  bool under_except(TSNode n, TSNode body) const;
  // A string literal's text when it holds no interpolation, else nullopt.
  std::optional<std::string> plain_text(TSNode value) const;
  std::optional<ClassDisplay> class_display(std::string_view name, bool ask_outline);
  // `self.name()` (no arguments) in a `__str__`: the method `name` of the
  // class or a base of `chain` (defined here), or null.
  TSNode self_method(TSNode value, const std::vector<std::string_view>& chain);
  // What `fn` returns, as messages, appended to `shown`; with `chain`, a
  // returned `self.name()` stands for what that method returns.
  void returns_of(TSNode fn, std::vector<MessageTemplate>& shown, const std::vector<std::string_view>* chain);
  // Each module-level class's display and constructor parameters, into
  // FileFacts::classes, for the files that raise it (apply_class_display).
  void export_displays();
  // Whether module-level class `name` is named like an exception
  // (...Error, ...Exception, ...Warning) or derives, through any of its
  // bases defined here, from one so named.
  bool exception_like(std::string_view name, int hops = 0);
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
  // Whether class `cls` of the file defines `__init__` or `__str__` in its
  // text before the outline (python::class_defines_methods), read once per
  // class: a file raises its own exception class from many places.
  bool defines_methods(std::string_view cls);
  // Whether `call` constructs a class: its callee's last name is
  // capitalised (`ValueError(…)`, `errors.ParseError(…)`).
  bool constructs_class(TSNode call) const;
  // The function a class body's statement `def` defines as a method Python
  // calls by name (plain, or under decorators that wrap it), or null.
  TSNode protocol_method(TSNode def) const;
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
      if (shows_as_digits(p, text(arg))) {
        append_literal(out.parts, std::string(text(arg)));
        continue;
      }
      out.parts.push_back(filled_with(p, expr_text(text(arg))));
    }
    return out;
  }
  // Each argument that callers in this file pass for parameter `param` of
  // the enclosing function, as messages.
  // With `splat`, `param` is the function's `*param`: a caller passing
  // one argument in its place passes the message.
  // With `frame`, the message holds `{param}` among other text: each text a
  // caller passes fills a copy of `frame` (pluggy's `_raise_wrapfail(gen,
  // "did not yield")` into `f"wrap_controller at … {msg}"`).
  // With `formatted`, the message formats the parameter (`msg % (value,
  // options)`, `msg.format(**args)`): each text a caller passes for it,
  // formatted so (`formatted` built as at `at`).
  void add_caller_messages(ThrowSite& site, std::string_view param, bool splat = false,
                           const MessageTemplate* frame = nullptr, TSNode formatted = {}, std::uint32_t at = 0);
  // The text parameter `name` of the function the walk is in defaults to
  // (`def assert_config(value, options, msg='Got %r, expected one of
  // %s')`), or nullopt: not a parameter, no written text, or not in the
  // function that holds `at`.
  std::optional<MessageTemplate> parameter_default_text(std::string_view name, std::uint32_t at);
  // `msg` of a message `msg % args` or `msg.format(…)`, else null.
  TSNode formatted_name(TSNode message) const;
  // add_caller_messages for each parameter the site's message shows among
  // other text, which the function does not assign.
  void fill_parameters_from_callers(ThrowSite& site, std::uint32_t at);
  // How many positional parameters come before `*name` in `fn`'s, or -1
  // when `*name` is not one of them.
  int splat_position(TSNode fn, std::string_view name) const;
  // The call's one positional argument at `position` when it passes
  // exactly one from there on (and no `*x`), else null.
  TSNode only_argument_from(TSNode call, int position) const;
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
  // The name of `fn`'s `**kwargs` parameter, or empty.
  std::string_view keywords_parameter(TSNode fn) const;
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
  // The module-level names bound to function `name` as they are (`error =
  // _fail`): their calls are the function's.
  const std::vector<std::string>& aliases_of(std::string_view name);
  // `TABLE["key"]`, `self.messages["key"]`: the value a message table of
  // this file holds under the key, or null.
  TSNode table_entry(TSNode subscript);
  // `self.fmt`, `Cls.MESSAGE` (a class of this file): the text the class
  // attribute holds, or null.
  TSNode class_attribute(TSNode attribute);
  // `self.failureException`: whatever value the class body (or an in-file
  // base's) gives it, with class_attribute's conditions, or null.
  TSNode class_attribute_value(TSNode attribute);
  TSNode enclosing_class(TSNode n) const;
  // The first base of `cls` that this file defines at module level, or null.
  TSNode base_in_file(TSNode cls);
  // The value of `name = …` among the statements of the class body, or null.
  TSNode assigned_in_class_body(TSNode cls, std::string_view name) const;
  // True when the outline blanked a call of `word`: it is added to
  // FileFacts::blanked, and the site is resolved on the next scan.
  bool calls_blanked(std::string_view word);
  // True when the outline blanked a module-level `name = ...`: the name is
  // added to FileFacts::blanked, and the site is resolved on the next scan.
  bool top_level_assignments_blanked(std::string_view name);

  std::string_view m_src;
  std::string_view m_original;
  TSNode m_scope{};  // overrides scope_node() while building in another function
  // While resolve_helper reads a helper's returns: the helper, the call
  // read through it, whether it is a method, and the class of the method
  // making the call.
  struct HelperCall {
    TSNode fn{}, call{};
    bool method = false;
    TSNode caller_class{};
  } m_helper_call;
  // While class_display describes a class: its name, whose class
  // attributes `self.x` reads (a subclass's `fmt`, not its base's).
  std::string_view m_display_class;
  bool m_calls_indexed = false;
  std::unordered_map<std::string, std::vector<TSNode>> m_calls;
  std::unordered_map<std::string, TSNode> m_functions;
  std::unordered_map<std::string, std::vector<std::string>> m_aliases;  // by the function's name
  bool m_aliases_indexed = false;
  // While a caller's text is formatted as the site formats its parameter:
  // the parameter and the text (add_caller_messages).
  std::pair<std::string_view, TSNode> m_given_format{};
  std::unordered_map<std::string, TSNode> m_classes;  // the first module-level class of a name
  bool m_classes_indexed = false;
  std::unordered_map<std::string, bool> m_blanked_words;  // calls_blanked's answers; class_attribute's by "self.x"
  std::unordered_map<std::string, bool> m_class_methods;  // class_defines_methods' answers, by class
  std::unordered_map<const void*, std::vector<TSNode>> m_helper_returns;  // by helper function node
  mutable std::unordered_map<const void*, std::vector<TSNode>> m_elifs;  // guards' cache: an if's elifs, in order
  std::unordered_map<const void*, std::unordered_map<std::string, std::vector<Assign>>> m_assignments;  // by scope node
  int m_variable_hops = 0;  // variables followed to build the current message
  int m_inlined = 0;        // conditionals inline_conditional_locals put in place, ever
  // While a concatenation's variants are built: the variable whose
  // reaching value build_concat takes, and which of them.
  const std::pair<std::string_view, std::size_t>* m_concat_pick = nullptr;
  // While each_choice builds: the option each choice point met takes, and
  // how many each offers, in the order they are met.
  struct Choices {
    std::vector<std::uint8_t> pick, options;
    std::size_t met = 0;
  };
  Choices* m_choices = nullptr;
  int m_text_helpers_open = 0;  // build_text_helper's reads in progress
  TSNode m_root;
  const Language& m_g;
  std::shared_ptr<const DefinitionMemo> m_earlier;
  std::shared_ptr<DefinitionMemo> m_next;
  std::size_t m_reused = 0;
  std::vector<std::string>* m_deps = nullptr;  // the current unit's lookups, while recorded
  // Where the unit being walked stands: each body around it (the root's
  // first) and its statement's index there.
  struct Place {
    TSNode body;
    std::uint32_t index;
  };
  std::vector<Place> m_chain;
  // For dependency_key, by body node: its statements' byte ranges, their
  // text hashes once computed, and which statements hold each name.
  struct Level {
    std::vector<std::uint32_t> starts, ends;
    std::vector<DefinitionMemo::Key> hashes;
    std::unordered_map<std::string, std::vector<std::uint32_t>> words;
  };
  std::unordered_map<const void*, Level> m_levels;
  Level& level(TSNode body);
  DefinitionMemo::Key class_texts(std::string_view name);
  // The whole file's top-level chunks (before the outline), their hashes
  // once computed, and the hash of the chunks holding each name.
  std::vector<std::uint32_t> m_chunk_starts;
  std::vector<DefinitionMemo::Key> m_chunk_hashes;
  std::unordered_map<std::string, DefinitionMemo::Key> m_word_chunks;
  // The hash of the texts of the module-level classes of each name, in
  // order (for depends_on_class), once computed.
  std::unordered_map<std::string, DefinitionMemo::Key> m_class_texts;
  bool m_class_texts_read = false;
  std::vector<std::uint32_t> m_keywords;  // sorted byte offsets
  std::vector<TSNode> m_path;             // ancestors of the current node, by depth
  std::vector<Ctx> m_ctx;                 // enclosing scopes and branches
  FileFacts m_facts;
};

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

}  // namespace errdex::scan::python::detail
