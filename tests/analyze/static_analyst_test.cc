// The static analyst over small repositories written here: what the
// documentation and the code fields say, and that the code fields parse.
#include <gtest/gtest.h>

#include "analyze/analyst.h"
#include "analyze/class_index.h"
#include "analyze/lints.h"
#include "analyze/python_check.h"
#include "analyze/static_prose.h"
#include "model/record_json.h"
#include "scan/frontend.h"
#include "scan/python/frontend.h"
#include "util/text.h"

namespace errdex::analyze {
namespace {

// The repository-wide pass of `errdex scan`, in small: classes of every
// file first, then each file analyzed with the index.
// With `prose`, each file's sites may take their prose from the file's
// last analysis through it (a scan of many revisions).
std::vector<model::ErrorRecord> analyze_repo(const std::vector<std::pair<std::string, std::string>>& files,
                                             ProseMemo* prose = nullptr) {
  ClassIndex index;
  std::vector<model::FileFacts> facts;
  for (const auto& [path, src] : files) {
    facts.push_back(scan::scan_python(src));
    index.add(path, facts.back().classes);
  }
  std::vector<model::ErrorRecord> out;
  for (std::size_t i = 0; i < files.size(); ++i) {
    FileContext ctx{"acme/app", files[i].first, std::string(40, 'a'), "", "2026-01-01T00:00:00.000Z", files[i].second, &index,
                    &facts[i].docstrings, prose};
    for (auto& r : analyze_file(ctx, facts[i].sites)) out.push_back(std::move(r));
  }
  std::vector<model::ErrorRecord*> ptrs;
  for (auto& r : out) ptrs.push_back(&r);
  lint_duplicates(ptrs);
  return out;
}

void expect_code_parses(const model::ErrorRecord& r) {
  EXPECT_TRUE(parses_as_python(r.example_fix)) << r.example_fix;
  if (r.validation_code) EXPECT_TRUE(parses_as_python(*r.validation_code)) << *r.validation_code;
  if (r.type_guard) EXPECT_TRUE(parses_as_python(*r.type_guard)) << *r.type_guard;
  if (r.try_catch_pattern) EXPECT_TRUE(parses_as_python(*r.try_catch_pattern)) << *r.try_catch_pattern;
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

// A line of thousands of bytes (a data table, minified code) is cut in the
// excerpt: around the raise on the raising line, from its start elsewhere,
// with "…" where it was cut; short lines are kept whole.
TEST(StaticAnalyst, LongLinesAreCutInTheExcerptAroundTheRaise) {
  std::string table = "TABLE = [" ;
  for (int i = 0; i < 2000; ++i) table += std::to_string(i) + ", ";
  table += "]\n";
  std::string guard = "def check(x):\n    ";
  for (int i = 0; i < 300; ++i) guard += "x = x + " + std::to_string(i) + "; ";
  guard += "raise ValueError('bad x in the long line')\n";
  auto records = analyze_repo({{"pkg/long.py", table + guard}});
  ASSERT_EQ(records.size(), 1u);
  const auto& r = records[0];
  auto lines = util::split_lines(r.source_code);
  ASSERT_EQ(lines.size(), 3u) << r.source_code.size();
  EXPECT_TRUE(lines[0].starts_with("TABLE = [0, 1, 2")) << lines[0].substr(0, 40);
  EXPECT_TRUE(lines[0].ends_with("…"));
  EXPECT_LE(lines[0].size(), 1000u + 3);
  EXPECT_EQ(lines[1], "def check(x):");
  EXPECT_TRUE(lines[2].starts_with("…")) << lines[2].substr(0, 40);
  EXPECT_TRUE(contains(std::string(lines[2]), "raise ValueError('bad x in the long line')")) << lines[2];
  EXPECT_LE(lines[2].size(), 1000u + 3);
  EXPECT_EQ(r.line_number, 3);
}

// typing's `f"Too {'many' if alen > elen else 'few'} arguments for {cls}"`:
// the record's message is the first text the conditional chooses, the
// other a variant, each with its own pattern (no `{…}` of the condition).
TEST(StaticAnalyst, AConditionalBetweenTextsIsTheMessageAndAVariant) {
  auto rs = analyze_repo({{"pkg/check.py", "def check(cls, alen, elen):\n"
                                           "    if alen != elen:\n"
                                           "        raise TypeError(f\"Too {'many' if alen > elen else 'few'} arguments for {cls}\")\n"}});
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].error_message, "Too many arguments for {cls}");
  EXPECT_EQ(rs[0].message_pattern, "Too many arguments for (.+?)");
  ASSERT_EQ(rs[0].message_variants.size(), 1u);
  EXPECT_EQ(rs[0].message_variants[0].error_message, "Too few arguments for {cls}");
  EXPECT_EQ(rs[0].message_variants[0].message_pattern, "Too few arguments for (.+?)");
}

TEST(StaticAnalyst, ElseBranchStatesTheNegatedCondition) {
  auto rs = analyze_repo({{"app/sizes.py", R"(class Buffer:
    def resize(self, n):
        if n >= 0:
            self.n = n
        else:
            raise ValueError(f"n must be non-negative, got {n}")
)"}});
  ASSERT_EQ(rs.size(), 1u);
  const auto& r = rs[0];
  EXPECT_TRUE(contains(r.documentation, "Buffer.resize() raises ValueError when `n < 0`")) << r.documentation;
  EXPECT_TRUE(contains(r.documentation, "(`n` is less than `0`)")) << r.documentation;
  EXPECT_TRUE(contains(r.trigger_scenarios, "Calling `buffer.resize(..., n=n)` with `n` such that `n < 0`"))
      << r.trigger_scenarios;
  ASSERT_TRUE(r.validation_code);
  EXPECT_EQ(*r.validation_code,
            "if n < 0:\n    raise ValueError(\"n would be rejected by Buffer.resize(): n < 0\")\nbuffer.resize(..., n=n)");
  EXPECT_EQ(r.solutions.at(0), "Keep `n` at least `0` before calling Buffer.resize()");
  EXPECT_EQ(r.schema_version, 3);
  ASSERT_TRUE(r.analysis);
  EXPECT_EQ(r.analysis->analyst, "static");
  expect_code_parses(r);
}

TEST(StaticAnalyst, NotIsinstanceGuardGivesATypeGuardAndAConvertingFix) {
  auto rs = analyze_repo({{"app/conf.py", R"(def set_port(port):
    """Sets the port the server listens on."""
    if not isinstance(port, int):
        raise TypeError("port must be an int, got %s" % type(port).__name__)
    return port
)"}});
  ASSERT_EQ(rs.size(), 1u);
  const auto& r = rs[0];
  EXPECT_EQ(r.error_type, "type");
  EXPECT_EQ(r.handling_strategy, "type-guard");
  EXPECT_TRUE(contains(r.documentation, "set_port() raises TypeError when `not isinstance(port, int)` (`port` is not an instance of int)"))
      << r.documentation;
  // The docstring's summary names the call in triggerScenarios (and is not
  // repeated in documentation).
  EXPECT_TRUE(contains(r.trigger_scenarios, "Calling `set_port`, whose docstring reads: Sets the port the server listens on."))
      << r.trigger_scenarios;
  EXPECT_FALSE(contains(r.documentation, "Sets the port")) << r.documentation;
  ASSERT_TRUE(r.type_guard);
  EXPECT_EQ(*r.type_guard,
            "if not isinstance(port, int):\n    raise TypeError(f\"port must be an int, got {type(port).__name__}\")\n"
            "set_port(..., port=port)");
  EXPECT_EQ(r.solutions.at(0), "Pass `port` as an int before calling set_port()");
  EXPECT_TRUE(contains(r.example_fix, "# after\nset_port(..., port=int(port))")) << r.example_fix;
  // The check tests `port`, and the message shows its type: not a lint.
  EXPECT_TRUE(r.lints.empty());
  expect_code_parses(r);
}

TEST(StaticAnalyst, RaiseInExceptSaysWhatItTurnsIntoWhat) {
  auto rs = analyze_repo({{"app/store.py", R"(class Store:
    def fetch(self, key):
        try:
            return self.data[key]
        except KeyError as e:
            raise LookupError(f"no entry {key!r} in the store") from e
)"}});
  ASSERT_EQ(rs.size(), 1u);
  const auto& r = rs[0];
  EXPECT_TRUE(contains(r.documentation,
                       "Store.fetch() raises LookupError while handling KeyError from its try block: it turns that KeyError into LookupError"))
      << r.documentation;
  EXPECT_TRUE(contains(r.documentation, "It is chained from `e`.")) << r.documentation;
  EXPECT_TRUE(contains(r.trigger_scenarios, "the operation in its try block fails with KeyError")) << r.trigger_scenarios;
  EXPECT_FALSE(r.validation_code);  // nothing a caller can check beforehand
  ASSERT_TRUE(r.try_catch_pattern);
  EXPECT_TRUE(contains(*r.try_catch_pattern, "except LookupError as exc:")) << *r.try_catch_pattern;
  EXPECT_TRUE(contains(*r.try_catch_pattern, "exc.__cause__")) << *r.try_catch_pattern;
  expect_code_parses(r);
}

TEST(StaticAnalyst, CustomClassHierarchyResolvesAcrossFilesToItsBase) {
  auto rs = analyze_repo({
      {"app/errors.py", "class AppError(Exception):\n    pass\n\n\nclass ConfigError(AppError, ValueError):\n    pass\n\n\n"
                        "class MissingKey(ConfigError):\n    pass\n"},
      {"app/load.py", R"(from app.errors import MissingKey


def load(cfg, name):
    if name not in cfg:
        raise MissingKey(f"setting {name!r} is missing")
    return cfg[name]
)"},
  });
  ASSERT_EQ(rs.size(), 1u);
  const auto& r = rs[0];
  EXPECT_EQ(r.error_class, "MissingKey");
  // Categorised like its built-in base, not by its name.
  EXPECT_EQ(r.error_type, "validation");
  EXPECT_TRUE(contains(r.documentation, "MissingKey is defined in this repository (app/errors.py:9) and derives from "
                                        "ConfigError → ValueError."))
      << r.documentation;
  EXPECT_EQ(r.solutions.at(0), "Use a value of `name` that is in `cfg` before calling load()");
  ASSERT_TRUE(r.validation_code);
  EXPECT_EQ(*r.validation_code,
            "if name not in cfg:\n    raise ValueError(\"name, cfg would be rejected by load(): name not in cfg\")\n"
            "load(..., name=name, cfg=cfg)");
  EXPECT_NE(std::find(r.tags.begin(), r.tags.end(), "valueerror"), r.tags.end());
  expect_code_parses(r);
}

// A built-in base whose name is too long to sit inside a std::string
// (ConnectionResetError) is named whole in the documentation and the tags.
TEST(StaticAnalyst, LongBuiltinBaseNameIsKeptWhole) {
  auto rs = analyze_repo({
      {"app/net.py", "class PeerDisconnected(ConnectionResetError):\n    pass\n\n\n"
                     "def read(sock):\n    if sock is None:\n        raise PeerDisconnected('peer closed the connection')\n"},
  });
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_TRUE(contains(rs[0].documentation, "derives from ConnectionResetError")) << rs[0].documentation;
  EXPECT_NE(std::find(rs[0].tags.begin(), rs[0].tags.end(), "connectionreseterror"), rs[0].tags.end());
  for (const auto& t : rs[0].tags)
    for (char c : t) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') << t;
}

TEST(StaticAnalyst, AClassNameDefinedInSeveralModulesResolvesOnlyInItsOwn) {
  auto rs = analyze_repo({
      {"app/a.py", "class error(OSError):\n    pass\n\n\ndef f(p):\n    if not p:\n        raise error('no path given here')\n"},
      {"app/b.py", "class error(KeyError):\n    pass\n"},
      {"app/c.py", "import a\n\n\ndef g(s):\n    if s is None:\n        raise s.error('no source given here')\n"},
  });
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0].error_type, "io");  // a.py's own `error`
  EXPECT_TRUE(contains(rs[0].documentation, "defined in this repository (app/a.py:1) and derives from OSError"))
      << rs[0].documentation;
  EXPECT_EQ(rs[1].error_type, "internal");  // which `error`? not said
  EXPECT_FALSE(contains(rs[1].documentation, "defined in this repository")) << rs[1].documentation;
}

TEST(StaticAnalyst, MessageVariableIsNamedAndTheStateCheckRenamesSelf) {
  auto rs = analyze_repo({{"app/conn.py", R"(class Connection:
    def send(self, data):
        if self.closed:
            msg = "cannot send on a closed connection"
            raise RuntimeError(msg)
        self.sock.sendall(data)
)"}});
  ASSERT_EQ(rs.size(), 1u);
  const auto& r = rs[0];
  EXPECT_EQ(r.error_message, "cannot send on a closed connection");
  EXPECT_TRUE(contains(r.documentation,
                       "The message reads \"cannot send on a closed connection\", built in a variable before the raise."))
      << r.documentation;
  EXPECT_TRUE(contains(r.documentation, "Connection.send() raises RuntimeError when `self.closed`")) << r.documentation;
  ASSERT_TRUE(r.validation_code);
  EXPECT_EQ(*r.validation_code, "if not connection.closed:\n    connection.send(...)");
  EXPECT_TRUE(contains(r.trigger_scenarios, "while `connection.closed`")) << r.trigger_scenarios;
  expect_code_parses(r);
}

TEST(StaticAnalyst, PrivateHelperNamesItsPublicEntryPoints) {
  auto rs = analyze_repo({{"app/parse.py", R"(def _check(width):
    if width <= 0:
        raise ValueError(f"width must be positive, got {width}")


def render(text, width):
    _check(width)
    return text[:width]
)"}});
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].trigger_scenarios,
            "Calling render() (in this file, the public entry point that calls _check()), which reaches "
            "`_check(..., width=width)` with `width` such that `width <= 0`.")
      << rs[0].trigger_scenarios;
}

TEST(StaticAnalyst, HttpStatusAndErrorCodeComeFromTheArguments) {
  auto rs = analyze_repo({{"app/api.py", R"(import errno


class NotFound(Exception):
    pass


def get(item_id):
    if item_id is None:
        raise HTTPException(status_code=404, detail="no such item")
    if item_id < 0:
        raise OSError(errno.EINVAL, "negative id")
    if item_id > 10:
        raise NotFound("E042: item beyond the catalogue")
)"}});
  ASSERT_EQ(rs.size(), 3u);
  EXPECT_EQ(rs[0].http_status, 404);
  EXPECT_EQ(rs[1].error_code, "EINVAL");
  EXPECT_EQ(rs[2].http_status, 404);
  EXPECT_EQ(rs[2].error_code, "E042");
  for (const auto& r : rs) expect_code_parses(r);
}

TEST(StaticAnalyst, DeprecationFixCallsTheReplacementTheMessageNames) {
  auto rs = analyze_repo({{"app/cond.py", R"(import warnings


class Condition:
    def notifyAll(self):
        warnings.warn("notifyAll() is deprecated, use notify_all() instead", DeprecationWarning, stacklevel=2)
        self.notify_all()

    def wait(self):
        warnings.warn("wait is deprecated; use a better API", DeprecationWarning)
)"}});
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0].severity, "warning");
  EXPECT_EQ(rs[0].handling_strategy, "upgrade");
  EXPECT_EQ(rs[0].solutions.at(0), "Call notify_all() instead of notifyAll(), as the message says");
  EXPECT_TRUE(contains(rs[0].example_fix, "# after\ncondition.notify_all(...)")) << rs[0].example_fix;
  // "use a better API" names no call: no replacement is made up.
  EXPECT_EQ(rs[1].solutions.at(0), "Move to the replacement the warning names");
  for (const auto& r : rs) expect_code_parses(r);
}

TEST(StaticAnalyst, ConstructorChecksOfStoredArgumentsBecomeChecksOfTheArguments) {
  auto rs = analyze_repo({{"app/layer.py", R"(class Base:
    def __init__(self, nbits):
        self.nbits = nbits


class Layer(Base):
    def __init__(self, nbits=4, axis=0):
        super().__init__(
            nbits=nbits,
        )
        self.axis = axis
        if self.nbits not in [2, 4]:
            raise ValueError(f"nbits must be 2 or 4, got {self.nbits}")
        if self.axis not in [0, -1]:
            raise ValueError(f"axis must be 0 or -1, got {self.axis}")
)"}});
  ASSERT_EQ(rs.size(), 2u);
  ASSERT_TRUE(rs[0].validation_code);
  EXPECT_EQ(*rs[0].validation_code,
            "if nbits not in [2, 4]:\n    raise ValueError(\"nbits would be rejected by Layer.__init__(): nbits not in [2, 4]\")\n"
            "Layer(..., nbits=nbits)");
  EXPECT_EQ(rs[0].solutions.at(0), "Use a value of `nbits` that is in `[2, 4]` when constructing Layer");
  EXPECT_TRUE(contains(rs[0].common_situations, "unsupported value as `nbits` to `Layer(..., nbits=nbits)`"))
      << rs[0].common_situations;
  ASSERT_TRUE(rs[1].validation_code);
  EXPECT_TRUE(contains(*rs[1].validation_code, "if axis not in [0, -1]:")) << *rs[1].validation_code;
  for (const auto& r : rs) expect_code_parses(r);
}

bool has_rule(const model::ErrorRecord& r, const std::string& rule) {
  return std::any_of(r.lints.begin(), r.lints.end(), [&](const model::Lint& l) { return l.rule == rule; });
}

TEST(Lints, SeedTwoShapeIsFlaggedAndLookAlikesAreNot) {
  auto rs = analyze_repo({{"app/layers.py", R"(class Done(StopIteration):
    pass


def configure(self, num_heads, head_dim, name):
    if len(head_dim) != len(self.layers):
        raise ValueError(f"`head_dim` has length {len(num_heads)}, expected {len(self.layers)}")
    if len(num_heads) != len(self.layers):
        raise ValueError(f"`num_heads` has length {len(num_heads)}, expected {len(self.layers)}")
    if head_dim is None:
        raise ValueError(f"`head_dim` is required for {name}")
    if not name:
        raise Done
    if name == "x":
        raise KeyError
)"}});
  ASSERT_EQ(rs.size(), 5u);
  EXPECT_TRUE(has_rule(rs[0], k_rule_misleading));
  EXPECT_FALSE(has_rule(rs[1], k_rule_misleading));  // shows what it tests
  EXPECT_FALSE(has_rule(rs[2], k_rule_misleading));  // a bare other name is context, not a slip
  EXPECT_FALSE(has_rule(rs[2], k_rule_unshown));     // `is None` says the value
  EXPECT_FALSE(has_rule(rs[3], k_rule_terse));       // a StopIteration needs no message
  EXPECT_TRUE(has_rule(rs[4], k_rule_terse));
  EXPECT_TRUE(has_rule(rs[4], k_rule_unshown));      // name == "x" is tested, not shown
  EXPECT_TRUE(contains(rs[0].solutions.at(0), "Check `len(head_dim)` rather than the `len(num_heads)` the message prints"));
}

// One file of any language, scanned by its frontend and analyzed alone.
std::vector<model::ErrorRecord> analyze_one(const std::string& path, const std::string& src) {
  const auto facts = scan::frontend_for(path)->scan(src);
  ClassIndex index;
  FileContext ctx{"acme/app", path, std::string(40, 'a'), "", "2026-01-01T00:00:00.000Z", src, &index, nullptr};
  return analyze_file(ctx, facts.sites);
}

// JavaScript: a throw under two conditions (ajv's validateSchema) names
// both, and the fix it advises is the `if` whose condition is the cause,
// not the `else` of a logging option around the throw.
TEST(StaticAnalyst, JavaScriptThrowUnderTwoConditionsAdvisesTheCause) {
  const std::string path = "lib/core.ts", src = R"(export class Ajv {
  validateSchema(schema: object, throwOrLogError?: boolean): boolean {
    const valid = this.validate(schema)
    if (!valid && throwOrLogError) {
      const message = "schema is invalid: " + this.errorsText()
      if (this.opts.validateSchema === "log") this.logger.error(message)
      else throw new Error(message)
    }
    return valid
  }
}
)";
  auto rs = analyze_one(path, src);
  ASSERT_EQ(rs.size(), 1u);
  const auto& r = rs[0];
  EXPECT_EQ(r.trigger_scenarios,
            "Calling `validateSchema(schema, throwOrLogError)` with `!valid && throwOrLogError` holding and without "
            "`this.opts.validateSchema === \"log\"` holding reaches line 7.");
  EXPECT_TRUE(contains(r.documentation, "throws Error when `!valid && throwOrLogError`, and this does not: "
                                        "`this.opts.validateSchema === \"log\"`"))
      << r.documentation;
  EXPECT_EQ(r.solutions.at(0),
            "Make sure `!valid && throwOrLogError` does not hold before the call: check the input where it is read.");
}

// JavaScript: what callers are doing names a parameter the condition reads
// (or a part of one), else the object's state; a local is no caller's.
TEST(StaticAnalyst, JavaScriptSituationNamesWhatTheCallerPassesOrTheObjectsState) {
  const std::string path = "src/semver.js", src = R"(class SemVer {
  inc(release, options) {
    if (this.prerelease.length === 0) throw new Error('invalid increment argument: identifier is empty')
    if (options.port < 0) throw new RangeError('port must be positive')
    const m = release.match(/^pre/)
    if (!m) throw new TypeError(`Invalid release: ${release}`)
  }
}
class Range {
  constructor(range) {
    if (this.set.length === 0) throw new TypeError(`Invalid SemVer Range: ${range}`)
  }
}
)";
  auto rs = analyze_one(path, src);
  ASSERT_EQ(rs.size(), 4u);
  EXPECT_EQ(rs[0].common_situations, "Calling `SemVer.inc` on an object whose `this.prerelease.length` does not allow it.");
  EXPECT_EQ(rs[1].common_situations, "Passing a value of `options.port` that the code does not accept.");
  EXPECT_EQ(rs[2].common_situations, "Calling `SemVer.inc` in a state or with input it does not support.");
  // A constructor is told as one, and called with `new`.
  EXPECT_EQ(rs[3].common_situations, "Calling the `Range` constructor on an object whose `this.set.length` does not allow it.");
  EXPECT_TRUE(rs[3].documentation.starts_with("The `Range` constructor in src/semver.js throws TypeError")) << rs[3].documentation;
  EXPECT_TRUE(rs[3].trigger_scenarios.starts_with("Calling `new Range(range)`")) << rs[3].trigger_scenarios;
}

TEST(StaticAnalyst, NegationOfConditions) {
  EXPECT_EQ(negate_condition("a != b"), "a == b");
  EXPECT_EQ(negate_condition("not isinstance(x, int)"), "isinstance(x, int)");
  EXPECT_EQ(negate_condition("x is None"), "x is not None");
  EXPECT_EQ(negate_condition("a < b < c"), "not (a < b < c)");
  EXPECT_EQ(negate_condition("not a and b"), "a or not b");
  // De Morgan over one operator's chain of up to three parts that each
  // negate cleanly (the standard library's open(), _pydecimal, ...).
  EXPECT_EQ(negate_condition("n <= 0 or a <= 0"), "n > 0 and a > 0");
  EXPECT_EQ(negate_condition("encoding is not None and not isinstance(encoding, str)"),
            "encoding is None or isinstance(encoding, str)");
  EXPECT_EQ(negate_condition("text and binary"), "not text or not binary");
  EXPECT_EQ(negate_condition("a and b and c and d"), "not (a and b and c and d)");  // four parts: kept whole
  EXPECT_EQ(negate_condition("a and (b or c)"), "not (a and (b or c))");           // a part that needs `not (…)`
  EXPECT_EQ(negate_condition("a < b < c or d"), "not (a < b < c or d)");
  EXPECT_EQ(negate_condition("a and b or c"), "not (a and b or c)");               // two operators
  EXPECT_EQ(negate_condition("s == '!='"), "s != '!='");
  EXPECT_EQ(negate_condition("ready"), "not ready");
}

using Files = std::vector<std::pair<std::string, std::string>>;

std::string records_json(const std::vector<model::ErrorRecord>& rs) {
  std::string out;
  for (const auto& r : rs) out += model::to_json(r) + "\n";
  return out;
}

// Two revisions of a repository in one command: the second analysis takes
// a site's prose from the first only when all the prose read is the same,
// and its records are then those of an analysis from scratch.
struct TwoRevisions {
  std::vector<model::ErrorRecord> first, second, scratch;
  std::size_t reused = 0;  // sites of the second whose prose came from the first
};
TwoRevisions analyze_twice(const Files& before, const Files& after) {
  ProseMemo memo;
  TwoRevisions out;
  out.first = analyze_repo(before, &memo);
  EXPECT_EQ(memo.reused.load(), 0u);
  EXPECT_EQ(records_json(out.first), records_json(analyze_repo(before)));
  out.second = analyze_repo(after, &memo);
  out.reused = memo.reused.load();
  out.scratch = analyze_repo(after);
  return out;
}

// In each pair the raising statement and its function's signature and
// docstring are the same, and its lines move; what changes is one thing
// the prose reads elsewhere. With a key that left that read out, the
// second revision would keep the first's prose.
TEST(ProseMemo, ASiteTakesItsEarlierProseOnlyWhenWhatItReadIsUnchanged) {
  struct Case {
    const char* read;
    Files before, after;
  };
  const std::vector<Case> cases = {
      {"the public callers of a private function",
       {{"app/parse.py", "def _check(width):\n    if width <= 0:\n        raise ValueError(\"width must be positive\")\n\n\n"
                         "def render(text, width):\n    _check(width)\n"}},
       {{"app/parse.py", "import os\n\n\ndef _check(width):\n    if width <= 0:\n        raise ValueError(\"width must be positive\")\n\n\n"
                         "def draw(text, width):\n    _check(width)\n"}}},
      {"the documented caller it is reached from",
       {{"app/parse.py", "def _check(width):\n    if width <= 0:\n        raise ValueError(\"width must be positive\")\n\n\n"
                         "def render(text, width):\n    \"\"\"Render text in columns.\"\"\"\n    _check(width)\n"}},
       {{"app/parse.py", "def _check(width):\n    if width <= 0:\n        raise ValueError(\"width must be positive\")\n\n\n"
                         "def render(text, width):\n    \"\"\"Wrap text to a width.\"\"\"\n    _check(width)\n"}}},
      {"an assignment before the guard",
       {{"app/bag.py", "def add(items):\n    n = len(items)\n    if n > 3:\n        raise ValueError(\"too many items\")\n"}},
       {{"app/bag.py", "\ndef add(items):\n    n = sum(items)\n    if n > 3:\n        raise ValueError(\"too many items\")\n"}}},
      {"an argument stored before the guard",
       {{"app/layer.py", "class Layer:\n    def __init__(self, nbits):\n        self.nbits = nbits\n"
                         "        if self.nbits not in [2, 4]:\n            raise ValueError(\"nbits must be 2 or 4\")\n"}},
       {{"app/layer.py", "class Layer:\n    def __init__(self, nbits):\n        self.nbits = 4\n"
                         "        if self.nbits not in [2, 4]:\n            raise ValueError(\"nbits must be 2 or 4\")\n"}}},
      {"the module's docstring",
       {{"app/bag.py", "\"\"\"Bags of items.\"\"\"\n\n\ndef add(items):\n    if len(items) > 3:\n        raise ValueError(\"too many items\")\n"}},
       {{"app/bag.py", "\"\"\"Sacks of things.\"\"\"\n\n\ndef add(items):\n    if len(items) > 3:\n        raise ValueError(\"too many items\")\n"}}},
      {"the raised class's resolution (another file)",
       {{"app/errors.py", "class BagError(ValueError):\n    pass\n"},
        {"app/bag.py", "from app.errors import BagError\n\n\ndef add(items):\n    if len(items) > 3:\n        raise BagError(\"too many items\")\n"}},
       {{"app/errors.py", "class BagError(KeyError):\n    pass\n"},
        {"app/bag.py", "from app.errors import BagError\n\n\ndef add(items):\n    if len(items) > 3:\n        raise BagError(\"too many items\")\n"}}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.read);
    TwoRevisions t = analyze_twice(c.before, c.after);
    ASSERT_EQ(t.first.size(), 1u);
    ASSERT_EQ(t.second.size(), 1u);
    EXPECT_NE(StaticProse::of(t.first[0]), StaticProse::of(t.scratch[0])) << "the read does not change the prose";
    EXPECT_EQ(t.reused, 0u);
    EXPECT_EQ(records_json(t.second), records_json(t.scratch));
  }
}

// A changed file's sites whose prose reads the same take it from its last
// analysis, lines moved: the records are those of an analysis from scratch.
TEST(ProseMemo, AChangedFilesUnchangedSitesTakeTheirEarlierProse) {
  const std::string body =
      "def _check(width):\n    if width <= 0:\n        raise ValueError(\"width must be positive\")\n\n\n"
      "class Box:\n    \"\"\"A box of text.\"\"\"\n\n    def __init__(self, size):\n        self.size = size\n"
      "        if self.size > 10:\n            raise ValueError(f\"size {size} is too big\")\n\n"
      "    def render(self, text, width):\n        _check(width)\n        return text[:width]\n";
  TwoRevisions t = analyze_twice({{"app/box.py", body}}, {{"app/box.py", "import os\n\n\n" + body}});
  ASSERT_EQ(t.second.size(), 2u);
  EXPECT_EQ(t.reused, 2u);
  EXPECT_NE(t.first[0].line_number, t.second[0].line_number);
  EXPECT_EQ(records_json(t.second), records_json(t.scratch));
}

// The callers of a private function: the innermost def around each call of
// it, once each, in line order; none from a class body, from the function
// itself, from a comment line or the def line; `f (x)` and `x_f(x)` are no
// calls of `f`.
TEST(FileCallers, TheInnermostDefAroundACallIsItsCaller) {
  const std::string src =
      "def _helper(x):\n"
      "    return _helper(x - 1)\n"
      "\n"
      "class Box:\n"
      "    size = _helper(3)\n"
      "\n"
      "    def render(self):\n"
      "        # _helper(0)\n"
      "        return self._helper(1) + _helper(2)\n"
      "\n"
      "    def _inner(self):\n"
      "        return _helper(2)\n"
      "\n"
      "def public():\n"
      "    def nested():\n"
      "        _helper(4)\n"
      "    x_helper(5)\n"
      "    return _helper (7)\n"
      "\n"
      "def again(): _helper(8)\n"
      "def more():\n"
      "    return _helper(9)\n";
  const auto lines = util::split_lines(src);
  FileCallers callers;
  EXPECT_EQ(callers.of(lines, "_helper", false), (std::vector<std::string>{"Box.render()", "nested()", "more()"}));
  EXPECT_EQ(callers.of(lines, "_helper", true),
            (std::vector<std::string>{"Box.render()", "Box._inner()", "nested()", "more()"}));
  EXPECT_EQ(callers.of(lines, "x_helper", false), (std::vector<std::string>{"public()"}));
  EXPECT_TRUE(callers.of(lines, "_missing", true).empty());
}

}  // namespace
}  // namespace errdex::analyze
