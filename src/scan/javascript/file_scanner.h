#pragma once
// What the JavaScript/TypeScript scanner's parts share (frontend.cc: the
// grammar, the parse and the walk over throw sites and their context;
// message.cc: message templates from expressions and the names bound
// earlier): the node kinds, the dialect's grammar, and FileScanner, which
// reads one file. Internal to src/scan/javascript/.
#include <tree_sitter/api.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/throw_site.h"
#include "scan/javascript/frontend.h"
#include "scan/tree_walk.h"
#include "util/text.h"

namespace errdex::scan::javascript_detail {

using model::ClassDef;
using model::FileFacts;
using model::Guard;
using model::MessageTemplate;
using model::TemplatePart;
using model::ThrowSite;

// Recursion over expressions (nested `+`, a message variable built from
// another) stops here; deeper input becomes opaque.
constexpr int k_max_depth = 100;
// A message variable built from another variable: followed this deep.
constexpr int k_max_variable_hops = 4;
// tree-sitter addresses bytes with 32 bits.
constexpr std::size_t k_max_source = 0xFFFFFFF0u;
// Guards kept per site, innermost first.
constexpr std::size_t k_max_guards = 8;

enum class Kind : std::uint8_t {
  Other, Throw, Call, New, Function, Arrow, Method, ClassDecl, ClassHeritage, ExtendsClause,
  If, Else, Catch, While, String, Template, Substitution, Fragment, Escape, Binary, Paren,
  Identifier, Member, Declarator, Assign, Arguments, Number, Comment, Return, Pair, Field,
  Regex, Cast, TypeAssertion, Await, Super, Parameters, Statement, AugAssign, Branch, Block,
  Object, Shorthand,
};

struct Language {
  const TSLanguage* lang = nullptr;
  std::vector<Kind> kinds;  // indexed by symbol id
  TSFieldId f_function = 0, f_arguments = 0, f_constructor = 0, f_name = 0, f_body = 0,
            f_parameters = 0, f_parameter = 0, f_condition = 0, f_consequence = 0,
            f_alternative = 0, f_left = 0, f_right = 0, f_operator = 0, f_value = 0,
            f_object = 0, f_property = 0, f_key = 0, f_pattern = 0, f_declaration = 0;
};

// The dialect's grammar: its language, node kinds and field ids.
const Language& language(Dialect d);

// Null-safe accessors: fields are missing wherever the parser recovered
// from a syntax error.
inline std::uint32_t named_count(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_named_child_count(n); }
inline std::uint32_t start_byte(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_start_byte(n); }
inline std::uint32_t end_byte(TSNode n) { return ts_node_is_null(n) ? 0 : ts_node_end_byte(n); }

using util::collapse_ws;

class FileScanner {
 public:
  FileScanner(std::string_view src, const Language& g, TSNode root) : m_src(src), m_g(g), m_root(root) {}
  FileFacts run();
  // A test file's expectations (tests.cc).
  FileFacts read_tests();

 private:
  struct Ctx {
    Kind kind;
    TSNode node;
    std::uint32_t depth;
  };
  // A name given a value in a scope: `const m = …`, `m = …`, or more
  // text appended to it: `m += …` (`append`).
  struct Assign {
    std::string_view name;
    TSNode value;
    std::uint32_t at;
    bool append = false;
    TSNode node{};
  };

  Kind kind(TSNode n) const { return node_kind(m_g.kinds, n, Kind::Other); }
  std::string_view text(TSNode n) const { return node_text(m_src, n); }
  TSNode child(TSNode n, TSFieldId f) const {
    return ts_node_is_null(n) || f == 0 ? TSNode{} : ts_node_child_by_field_id(n, f);
  }
  int line_of(TSNode n) const { return static_cast<int>(ts_node_start_point(n).row) + 1; }
  bool is_function(Kind k) const { return k == Kind::Function || k == Kind::Arrow || k == Kind::Method; }
  // Parentheses, `await`, TypeScript's `as`/`!`/`satisfies` around a value.
  TSNode unwrap(TSNode n) const;
  // The receiver of a `concat` Babel calls through core-js's instance
  // helper (`(0, _concat["default"])(_context = r).call(_context, …)`: r),
  // `fn` being the call's function; null when `fn` is no such call.
  TSNode corejs_concat_receiver(TSNode fn) const;
  // `MESSAGES.badInput` where `MESSAGES` is bound to an object literal
  // giving that key a string: the string; nullopt otherwise.
  std::optional<MessageTemplate> table_entry(TSNode member, std::uint32_t at, int depth);
  std::optional<MessageTemplate> table_entries(TSNode subscript, std::uint32_t at, int depth);
  TSNode message_table(TSNode name, std::uint32_t at);
  TSNode argument(TSNode call, std::uint32_t i) const;
  std::vector<std::string> argument_texts(TSNode call) const;

  void find_keywords();
  bool subtree_has_keyword(TSNode n) const;
  void visit_class(TSNode n);
  bool names_itself(TSNode cls, std::string_view name);
  // Sorted byte offsets of `word` in the file (overlapping ones too),
  // found once per file.
  const std::vector<std::uint32_t>& occurrences(std::string_view word);
  // Whether one of `sorted` (byte offsets) lies inside `n`.
  bool holds(const std::vector<std::uint32_t>& sorted, TSNode n) const;
  void emit_throw(TSNode n);
  // Whether the thrown `n` is a name or a member in lower case (`output`,
  // `output.cause`): an error kept elsewhere, not a class.
  bool kept_error(TSNode n) const;
  void check_call(TSNode call);
  bool read_code_entry(TSNode call);
  void emit_made(TSNode call, TSNode made, int line, const char* kind);
  void emit_bound_error(TSNode call, TSNode name, bool rejects);
  // The error a value makes: `new X(…)`, or the one branch of a
  // conditional that makes one (`cond ? undefined : new TimeoutError(…)`).
  TSNode made_error(TSNode value) const;
  // Errors a module makes once, at its top level, and throws or rejects
  // later by name (`exports.E_TIMEOUT = new Error('…')`).
  void emit_module_errors();
  bool read_construction(TSNode expr, ThrowSite& site, std::uint32_t at, int depth);
  bool read_helper(TSNode call, ThrowSite& site, std::uint32_t at, int depth);
  struct HelperError {
    std::string error_class;
    MessageTemplate message;
  };
  std::vector<HelperError> helper_errors(TSNode call, std::uint32_t at, int depth);
  // The argument `call` passes for the parameter its function, of this
  // file, hands back on every return without binding it again (`function
  // fatal(e) { e.code = 'SOCKS'; return e }`), or null.
  TSNode handed_back(TSNode call);
  std::vector<HelperError> returned_errors(TSNode fn, TSNode callee, int depth);
  // Whether `call` calls an error class by its bare name, which makes an
  // error as `new` does (protobufjs' `return RangeError(…)`, or
  // `const err = ParseError(…)` above `return err`): a name ending in Error
  // or Exception that no function of the file has.
  bool error_call(TSNode call);
  void export_factories();
  // `function DimensionError(actual, expected) { this.message = … }` with
  // `DimensionError.prototype = new RangeError()` (or `Object.create(
  // RangeError.prototype)`, `util.inherits(DimensionError, RangeError)`):
  // an error class written as a constructor function, its display the
  // texts it sets as `this.message` (classes.cc).
  void read_constructor_function(std::string_view name, TSNode fn, TSNode at);
  // `ERROR_CODES[code] || code`, `errorMessages[code]`: a constructor's
  // message looked up in a table of texts by its parameter. Then `c`
  // displays that parameter alone, which keeps the table's entries
  // (ClassParam::texts); false, `c` untouched, for any other message.
  bool keyed_display(TSNode given, std::uint32_t at, ClassDef& c);
  // The error class a constructor function's prototype is made from, as
  // the file says; empty when it says none.
  std::string prototype_base(std::string_view name) const;
  TSNode own_method(TSNode n, std::string_view name) const;
  // The function of this file `call` calls: `helper(…)` by name, or
  // `this.m(…)` the method of the class around it; null otherwise.
  TSNode called_function(TSNode call);
  // The function a statement of the module assigns to `dotted`
  // (`webidl.errors.exception = function (message) {…}`), or null.
  TSNode member_function(std::string_view dotted);
  // What object literal `object` gives `key` (a pair's value, or the
  // shorthand itself); null when it is not one or gives none.
  TSNode object_property(TSNode object, std::string_view key) const;
  void add_caller_messages(ThrowSite& site, std::uint32_t at);
  bool called_with_texts(ThrowSite& site, const std::string& param, TSNode fn, std::uint32_t position, int depth);
  void read_thrown_name(TSNode name, ThrowSite& site, std::uint32_t at, int depth);
  // `err.message = \`Cannot load ${file}: ${err.message}\`` (or `+=`) after
  // `from` and before the throw at `at`, in a block the throw is in: the
  // message thrown.
  void read_message_set(std::string_view id, ThrowSite& site, std::uint32_t from, std::uint32_t at);
  bool emit_node_assert(TSNode call, std::string_view callee);
  void fill_context(ThrowSite& site, std::uint32_t at) const;
  std::vector<Guard> guards(std::uint32_t at) const;
  Guard guard_of(const char* kind, TSNode cond, TSNode at_node) const;
  void add_guard_names(Guard& g, TSNode cond) const;
  std::string function_name(TSNode fn) const;
  std::vector<std::string> parameter_names(TSNode fn) const;
  bool promise_reject_name(std::string_view name) const;
  bool parameter_of_enclosing(std::string_view name) const;
  bool callback_of_outer_function(std::string_view name) const;
  static bool names_error(std::string_view cls);
  bool throws_its_argument(std::string_view name, std::uint32_t at);
  bool hands_on_first_parameter(TSNode fn);

  // The text an enum member of the file's top level stands for, written
  // `E.K` or `exports.E.K`: TypeScript's `enum E { K = "text" }`, or what
  // tsc makes of it, `(function (E) { E["K"] = "text"; })(E || (E = {}))`
  // (ulid's `ULIDErrorCode.DecodeTimeValueMalformed`, "DEC_TIME_MALFORMED");
  // null for any other name, or a member given no plain text.
  const std::string* enum_text(std::string_view dotted);
  MessageTemplate message_from(TSNode expr, std::uint32_t at);
  // A throw's `msg || 'Assertion failed'` (and `??`, `p != null ? p : …`)
  // of a parameter: the parameter as the message, and the text.
  std::optional<std::pair<MessageTemplate, MessageTemplate>> parameter_or_default(TSNode n, std::uint32_t at);
  std::optional<MessageTemplate> build(TSNode n, std::uint32_t at, int depth);
  // `formatMessage(opt, ' has been removed')` where this file's
  // `function formatMessage(opt, desc)` returns text (one return, or an
  // arrow's body): that text, its parameters filled with what the call
  // passes. Not a function that returns an error (helper_errors').
  std::optional<MessageTemplate> build_text_helper(TSNode call, std::uint32_t at, int depth);
  bool literal_parts(TSNode n, std::vector<TemplatePart>& parts) const;
  // Each `${name}` of `parts` whose name holds at byte `at` one value, a
  // conditional whose every branch is text (`const plural = n === 1 ? '' :
  // ' one of'`): that conditional's text in its place, which the analyst
  // reads as each of its texts (scan/conditional_text.h), as a `+`
  // operand already is.
  void inline_conditional_locals(std::vector<TemplatePart>& parts, std::uint32_t at);
  std::vector<TemplatePart> operand(TSNode s, std::uint32_t at, int depth, bool& literal);
  std::uint32_t branch_of(TSNode n, std::uint32_t at) const;
  // The innermost function holding byte `at`, else the file's root.
  TSNode scope_of(std::uint32_t at) const;
  // The function around function `fn`, else the file's root.
  TSNode outer_function(TSNode fn) const;
  // The node `up` levels above context `c`'s, from the walk's path
  // (ts_node_parent walks down from the root: a callback nested n deep
  // would cost n² per look); null when the path does not reach so high.
  TSNode ancestor_on_path(const Ctx& c, std::uint32_t up) const {
    if (c.depth < up || c.depth >= m_path.size() || !ts_node_eq(m_path[c.depth], c.node)) return {};
    return m_path[c.depth - up];
  }
  struct FunctionSpan;
  const std::vector<FunctionSpan>& function_spans() const;
  int last_function_from(std::uint32_t at) const;

  bool declares_only(TSNode value) const;
  std::optional<std::string> plain_string(TSNode n) const;
  void read_expected(TSNode a, model::TestExpectation& e, bool strings) const;
  void read_subject(TSNode subject, model::TestExpectation& e) const;
  void read_receivers(TSNode subject, model::TestExpectation& e);
  std::string test_title(TSNode n) const;
  void read_expectation(TSNode call);
  const std::vector<Assign>& assignments(TSNode scope);
  const std::vector<Assign>& assignments_reaching(std::string_view name, std::uint32_t at, const Assign*& last);
  TSNode function_named(std::string_view name);
  TSNode function_declared_at(std::uint32_t at, std::string_view name) const;
  void apply_own_displays();

  std::string_view m_src;
  const Language& m_g;
  TSNode m_root;
  std::vector<std::uint32_t> m_keywords;  // sorted byte offsets of keyword hits
  std::vector<Ctx> m_ctx;                 // enclosing functions, classes, branches
  std::vector<TSNode> m_path;             // the walk's node and its ancestors, by depth
  std::unordered_map<std::uint32_t, std::vector<Assign>> m_assigns;  // by scope start
  // scope_of's index, made on its first call: every function, by start,
  // with the index of the function around it (-1: none).
  struct FunctionSpan {
    std::uint32_t start, end;
    TSNode node;
    int outer;
  };
  mutable std::vector<FunctionSpan> m_function_spans;
  mutable bool m_function_spans_made = false;
  std::unordered_map<std::string_view, TSNode> m_functions;  // function_named's answers
  std::unordered_map<std::string_view, TSNode> m_member_functions;  // member_function's, by the member's text
  bool m_members_indexed = false;
  std::unordered_map<std::string, std::string> m_enum_texts;  // enum_text's, by "E.K"
  bool m_enums_read = false;
  std::unordered_map<std::string_view, std::vector<std::uint32_t>> m_occurrences;
  // Messages a message variable shows when its conditional `+=` do not
  // run, gathered by build() for the caller (message_from clears it).
  std::vector<MessageTemplate> m_variants;
  // Message variables being followed (`invalidArgument` whose value names
  // `decimalError`): counted apart from the nesting of `+`, so a long
  // concatenation still reads the names it starts with.
  int m_hops = 0;
  bool m_node_assert = false;  // the file requires or imports Node's assert
  FileFacts m_facts;
};

// A file's parse tree and the text it was parsed from: the file's bytes,
// or (TypeScript whose parse failed) those bytes with a `;` in the
// indentation of each line starting with `<` when that parse reads more of
// the file (frontend.cc says why). `tree` is null when the parser gave none.
struct ParsedJavaScript {
  struct DeleteTree {
    void operator()(TSTree* t) const { ts_tree_delete(t); }
  };
  std::unique_ptr<TSTree, DeleteTree> tree;
  std::string_view text;
  std::unique_ptr<std::string> repaired;
};
ParsedJavaScript parse_javascript(std::string_view source, Dialect dialect);

}  // namespace errdex::scan::javascript_detail
