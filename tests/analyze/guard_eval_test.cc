// The literal-argument evaluator behind test links (issue 29, item 2):
// Python literals, guards decided on them, a call's arguments bound to a
// parameter list, and a call found in a test's code.
#include "analyze/call_text.h"
#include "analyze/guard_eval.h"

#include <gtest/gtest.h>

namespace errdex::analyze {
namespace {

std::optional<bool> eval(std::string_view cond, const std::string& params, std::string_view args) {
  auto b = bind_call(params, args, false);
  if (!b) return std::nullopt;
  return evaluate_condition(cond, *b);
}

TEST(GuardEval, LiteralsOfEveryKind) {
  EXPECT_EQ(literal_value("'x' * 300")->s.size(), 300u);
  EXPECT_EQ(literal_value("3 * b'ab'")->s, "ababab");
  EXPECT_EQ(literal_value("-1")->i, -1);
  EXPECT_EQ(literal_value("0x1F")->i, 31);
  EXPECT_DOUBLE_EQ(literal_value("-2.5e1")->f, -25.0);
  EXPECT_EQ(literal_value("None")->kind, PyValue::Kind::none);
  EXPECT_EQ(literal_value("('r', 'w')")->items.size(), 2u);
  EXPECT_EQ(literal_value("{1, 1, 2}")->items.size(), 2u);
  EXPECT_EQ(literal_value("'a' 'b'")->s, "ab");
  EXPECT_EQ(literal_value("'a\\nb'")->s, "a\nb");
  EXPECT_EQ(literal_value("r'a\\d'")->s, "a\\d");
  // Repetition as Python does it: an empty string stays empty however large
  // the count (the fuzzer found the loop that ran the count), a count below
  // one gives "", and a count whose product overflows is refused.
  EXPECT_EQ(literal_value("'' * 999999999999999999")->s, "");
  EXPECT_EQ(literal_value("b'' * 99999999999")->s, "");
  EXPECT_EQ(literal_value("'ab' * -3")->s, "");
  EXPECT_FALSE(literal_value("'abc' * 6148914691236517206").has_value());
  // Not literals: names, calls, f-strings, dicts, huge repetitions.
  for (std::string_view t : {"x", "f(1)", "f'{x}'", "{}", "{'a': 1}", "'x' * 10**9", "'x' * 100000000", "[i for i in y]",
                             "lambda: 1", "", "(", "'open"})
    EXPECT_FALSE(literal_value(t).has_value()) << t;
}

TEST(GuardEval, ComparisonsAndBooleans) {
  EXPECT_EQ(eval("len(s) > 255", "s", "'x' * 300"), true);
  EXPECT_EQ(eval("len(s) > 255", "s", "'abc'"), false);
  EXPECT_EQ(eval("not name", "name", "''"), true);
  EXPECT_EQ(eval("not name", "name", "'a'"), false);
  EXPECT_EQ(eval("x < 0", "x", "-1"), true);
  EXPECT_EQ(eval("0 <= x < 10", "x", "10"), false);
  EXPECT_EQ(eval("0 <= x < 10", "x", "3"), true);
  EXPECT_EQ(eval("mode not in ('r', 'w')", "mode", "'x'"), true);
  EXPECT_EQ(eval("mode not in ('r', 'w')", "mode", "'r'"), false);
  EXPECT_EQ(eval("mode in {'r', 'w'}", "mode", "'w'"), true);
  EXPECT_EQ(eval("'=' in s", "s", "'a=b'"), true);
  EXPECT_EQ(eval("x is None", "x", "None"), true);
  EXPECT_EQ(eval("x is not None", "x", "None"), false);
  EXPECT_EQ(eval("x == 1.0", "x", "1"), true);
  EXPECT_EQ(eval("x == '1'", "x", "1"), false);
  EXPECT_EQ(eval("isinstance(x, int)", "x", "True"), true);
  EXPECT_EQ(eval("not isinstance(x, (int, float))", "x", "'3'"), true);
  EXPECT_EQ(eval("isinstance(x, str)", "x", "b'3'"), false);
  EXPECT_EQ(eval("a < 0 or b < 0", "a, b", "1, -1"), true);
  EXPECT_EQ(eval("a < 0 and b < 0", "a, b", "1, -1"), false);
  EXPECT_EQ(eval("len(items) == 0", "items", "[]"), true);
  EXPECT_EQ(eval("step == 0", "start, stop=None, step=1", "10, 20, 0"), true);
  EXPECT_EQ(eval("step == 0", "start, stop=None, step=1", "10"), false);
  EXPECT_EQ(eval("len(s) > 2", "s", "'éé'"), false);  // characters, not bytes
  // No literal is callable (`copyreg.pickle(t, f, "not a callable")`).
  EXPECT_EQ(eval("not callable(f)", "f", "'not a callable'"), true);
  EXPECT_EQ(eval("callable(f)", "f", "None"), false);
  EXPECT_FALSE(eval("callable(f)", "f", "int").has_value());
}

TEST(GuardEval, WhatItCannotReadIsUnknown) {
  // Unbound names, attributes, other calls, mixed orderings, a known side
  // of `and` that does not decide.
  EXPECT_FALSE(eval("x < 0", "x", "y").has_value());
  EXPECT_FALSE(eval("self.closed", "x", "1").has_value());
  EXPECT_FALSE(eval("x.isdecimal()", "x", "'1'").has_value());
  EXPECT_FALSE(eval("x.isdigit()", "x", "'\u0661'").has_value());  // not ASCII
  EXPECT_FALSE(eval("int(x) > 0", "x", "'1'").has_value());           // int() of a str: not read
  EXPECT_FALSE(eval("int(x, 16) > 0", "x", "1").has_value());
  EXPECT_FALSE(eval("x.lower", "x", "'A'").has_value());               // a method, not called
  EXPECT_FALSE(eval("x < 'a'", "x", "1").has_value());
  EXPECT_FALSE(eval("isinstance(x, Path)", "x", "'a'").has_value());
  EXPECT_FALSE(eval("x > 0 and y", "x, y", "1, z").has_value());
  EXPECT_EQ(eval("x < 0 and y", "x, y", "1, z"), false);
  EXPECT_EQ(eval("x > 0 or y", "x, y", "1, z"), true);
  EXPECT_FALSE(eval("x if y else z", "x", "1").has_value());
  EXPECT_FALSE(eval("x[1] == 1", "x", "(1,)").has_value());  // IndexError
  EXPECT_FALSE(eval("x[i] == 1", "x", "(1,)").has_value());
  EXPECT_FALSE(eval("x[::2] == 1", "x", "(1,)").has_value());
  EXPECT_FALSE(eval("x[0] == 'a'", "x", "'\u00e9a'").has_value());  // not ASCII
  // A parameter named like a builtin is not the builtin.
  EXPECT_FALSE(eval("len(x) > 1", "x, len", "'ab', 3").has_value());
}

// Locals computed from parameters (`n = len(s)`, `step =
// operator.index(step)`) are read through the built-ins that cannot do
// anything else with the values they get.
TEST(GuardEval, PureBuiltinsAndStrMethods) {
  Bindings b{{"x", *literal_value("-2")}, {"f", *literal_value("2.7")}, {"s", *literal_value("' Ab1 '")}};
  EXPECT_EQ(evaluate_value("int(f)", b)->i, 2);
  EXPECT_DOUBLE_EQ(evaluate_value("float(x)", b)->f, -2.0);
  EXPECT_EQ(evaluate_value("abs(x)", b)->i, 2);
  EXPECT_EQ(evaluate_value("operator.index(x)", b)->i, -2);
  EXPECT_FALSE(evaluate_value("operator.index(f)", b).has_value());
  EXPECT_EQ(evaluate_value("max(x, 0, -5)", b)->i, 0);
  EXPECT_EQ(evaluate_value("min(x, 0)", b)->i, -2);
  EXPECT_EQ(evaluate_value("s.strip()", b)->s, "Ab1");
  EXPECT_EQ(evaluate_value("s.strip().lower()", b)->s, "ab1");
  EXPECT_EQ(evaluate_value("s.upper()", b)->s, " AB1 ");
  EXPECT_EQ(evaluate_condition("s.strip().isalnum()", b), true);
  EXPECT_EQ(evaluate_condition("s.isdigit()", b), false);
  EXPECT_EQ(evaluate_condition("s.strip().startswith(('x', 'A'))", b), true);
  EXPECT_EQ(evaluate_condition("s.endswith(' ')", b), true);
  EXPECT_EQ(evaluate_condition("bool(s) and str(s) == s", b), true);
  EXPECT_EQ(evaluate_value("len(tuple([1, 2]))", b)->i, 2);
  EXPECT_EQ(evaluate_value("len(set())", b)->i, 0);
  EXPECT_EQ(evaluate_value("s.split()", b)->items.size(), 1u);
  EXPECT_EQ(evaluate_value("len('a::b'.split(':'))", b)->i, 3);
  EXPECT_EQ(evaluate_value("'a::b'.split(':')[1]", b)->s, "");
  EXPECT_FALSE(evaluate_value("s.split('')", b).has_value());  // ValueError
  // Subscripts and slices of known values, as Python gives them.
  EXPECT_EQ(evaluate_value("s[1]", b)->s, "A");
  EXPECT_EQ(evaluate_value("s[-2]", b)->s, "1");
  EXPECT_EQ(evaluate_value("s[1:3]", b)->s, "Ab");
  EXPECT_EQ(evaluate_value("s[:-1]", b)->s, " Ab1");
  EXPECT_EQ(evaluate_value("s[3:100]", b)->s, "1 ");
  EXPECT_EQ(evaluate_value("b'ab'[0]", b)->i, 97);
  EXPECT_EQ(evaluate_value("(1, 2, 3)[1:][0]", b)->i, 2);
  // A name bound by the test shadows the built-in.
  Bindings shadow{{"int", *literal_value("1")}, {"x", *literal_value("1")}};
  EXPECT_FALSE(evaluate_value("int(x)", shadow).has_value());
}

TEST(GuardEval, BindsACallToItsParameters) {
  auto b = bind_call("self, a, b: int = 2, *args, key=None, **kw", "1, key='k', other=3", true);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->at("a").i, 1);
  EXPECT_EQ(b->at("b").i, 2);
  EXPECT_EQ(b->at("key").s, "k");
  EXPECT_FALSE(b->contains("self"));
  EXPECT_TRUE(b->at("args").items.empty());
  auto star = bind_call("a, *args", "1, 'x', 2", false);
  ASSERT_TRUE(star);
  EXPECT_EQ(star->at("args").items.size(), 2u);
  EXPECT_EQ(evaluate_condition("len(args) > 1 and args[0] == 'x'", *star), true);
  EXPECT_EQ(evaluate_condition("len(args) > 1", *star), true);
  EXPECT_FALSE(bind_call("a, *args", "1, x", false)->contains("args"));
  // Too many positionals, unknown keywords, splats, a value twice: no fit.
  EXPECT_FALSE(bind_call("a", "1, 2", false));
  EXPECT_FALSE(bind_call("a", "b=1", false));
  EXPECT_FALSE(bind_call("a", "*xs", false));
  EXPECT_FALSE(bind_call("a", "1, a=2", false));
  EXPECT_FALSE(bind_call("a, *, b", "1, 2", false));
  // A value that is no literal leaves its parameter unbound.
  auto c = bind_call("a, b", "x, 'y'", false);
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->contains("a"));
  EXPECT_EQ(c->at("b").s, "y");
}

// A helper's call inside a function (`_check(s.lower(), limit + 1)`) read
// on what the caller's names hold there; defaults stay literals.
TEST(GuardEval, BindsACallOnTheCallersNames) {
  Bindings caller{{"s", *literal_value("'ABC'")}, {"limit", *literal_value("3")}};
  auto b = bind_call("name, size, strict=False", "s.lower(), limit + 1, flag", false, nullptr, &caller);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->at("name").s, "abc");
  EXPECT_EQ(b->at("size").i, 4);
  // `flag` is no name the caller holds.
  EXPECT_FALSE(b->contains("strict"));
  auto d = bind_call("name, strict=False", "s", false, nullptr, &caller);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->at("strict").kind, PyValue::Kind::boolean);
  EXPECT_EQ(d->at("strict").i, 0);
}

TEST(GuardEval, SaysWhenPythonRefusesACall) {
  auto refused = [](const std::string& params, std::string_view args, bool skip_first = false) {
    bool misfit = false;
    auto b = bind_call(params, args, skip_first, &misfit);
    EXPECT_EQ(b.has_value(), false) << params << " <- " << args;
    return misfit;
  };
  EXPECT_TRUE(refused("a", "1, 2"));                 // too many positionals
  EXPECT_TRUE(refused("a", "1, b=2"));               // an unknown keyword
  EXPECT_TRUE(refused("a", "1, a=2"));               // a value twice
  EXPECT_TRUE(refused("self, a, b", "1", true));     // a required parameter not given
  EXPECT_TRUE(refused("a, *, key", "1"));            // a required keyword-only one
  EXPECT_TRUE(refused("cls, f", "1.1, context=x", true));
  // What cannot be read is not a refusal: a splat may hold anything.
  EXPECT_FALSE(refused("a, b", "*xs"));
  EXPECT_FALSE(refused("a", "**kw"));
  bool misfit = true;
  // A positional-only parameter's name as a keyword goes to `**kwargs`.
  auto b = bind_call("typename, fields=None, /, *, total=True, **kwargs", "'TD', typename=str, fields=list", false, &misfit);
  ASSERT_TRUE(b);
  EXPECT_FALSE(misfit);
  EXPECT_EQ(b->at("typename").s, "TD");
  EXPECT_EQ(b->at("fields").kind, PyValue::Kind::none);
  EXPECT_TRUE(refused("typename, /", "typename='x'"));
  // Defaults fill what a call leaves out; `*args` takes extra positionals.
  EXPECT_TRUE(bind_call("self, a, b=2, *rest", "1, 2, 3, 4", true, &misfit));
  EXPECT_FALSE(misfit);
}

TEST(GuardEval, FindsTheCallInATestsCode) {
  EXPECT_EQ(call_arguments("with self.assertRaises(ValueError):\n    mod.parse('x' * 300)", "parse"), "'x' * 300");
  EXPECT_EQ(call_arguments("self.assertRaises(ValueError, random.randrange, 10, 20, 0)", "randrange"), "10, 20, 0");
  EXPECT_EQ(call_arguments("pytest.raises(ValueError, parse, '', match='empty')", "parse"), "''");
  EXPECT_EQ(call_arguments("self.assertRaises(ValueError, lambda: p.with_name(''))", "with_name"), "''");
  // A receiver that is a call itself: the arguments after it in the
  // assertRaises call, not in the receiver's.
  EXPECT_EQ(call_arguments("self.assertRaises(ValueError, P('/').with_suffix, '.gz')", "with_suffix"), "'.gz'");
  // Two calls, none, a name only mentioned: no answer.
  EXPECT_FALSE(call_arguments("with self.assertRaises(ValueError):\n    parse(1)\n    parse(2)", "parse"));
  EXPECT_FALSE(call_arguments("with self.assertRaises(ValueError):\n    load(1)", "parse"));
  EXPECT_FALSE(call_arguments("with self.assertRaises(ValueError):\n    reparse(1)", "parse"));
  EXPECT_FALSE(call_arguments("check(parse, 1)", "parse"));
}

TEST(GuardEval, FindsEveryCallInOrder) {
  EXPECT_EQ(call_argument_lists("with self.assertRaises(ValueError):\n    parse(1)\n    m.parse(b=2)", "parse"),
            (std::vector<std::string>{"1", "b=2"}));
  EXPECT_EQ(call_argument_lists("self.assertRaises(E, parse, 1)\nparse(2)", "parse"),
            (std::vector<std::string>{"1", "2"}));
  // Handed to a helper: not followed.
  EXPECT_FALSE(call_argument_lists("parse(1)\ncheck(parse, 2)", "parse"));
  EXPECT_FALSE(call_argument_lists("reparse(1)", "parse"));
}

TEST(GuardEval, ASiteIsReachedWhenAllItsGuardsHold) {
  model::ThrowSite s;
  s.guards = {{"if", "len(s) > 255", {"s"}, 5}, {"else", "s is None", {"s"}, 3}};
  Bindings long_s{{"s", *literal_value("'x' * 300")}};
  Bindings short_s{{"s", *literal_value("'x'")}};
  Bindings none_s{{"s", *literal_value("None")}};
  EXPECT_EQ(site_reached(s, long_s), true);
  EXPECT_EQ(site_reached(s, short_s), false);
  EXPECT_EQ(site_reached(s, none_s), false);
  // An except guard, or no guard at all, never decides it reached.
  s.guards.push_back({"except", "KeyError", {"KeyError"}, 2});
  EXPECT_FALSE(site_reached(s, long_s).has_value());
  EXPECT_EQ(site_reached(s, short_s), false);
  s.guards.clear();
  EXPECT_FALSE(site_reached(s, long_s).has_value());
}


// An attribute bound by its dotted name (what `__init__` set `self.mode`
// to) is read; a method of it called, or another attribute, is not.
TEST(GuardEval, AttributesBoundByTheirDottedName) {
  Bindings bound;
  bound.emplace("self.mode", *literal_value("'w'"));
  bound.emplace("self.size", *literal_value("0"));
  bound.emplace("n", *literal_value("3"));
  EXPECT_EQ(evaluate_condition("self.mode == 'w'", bound), true);
  EXPECT_EQ(evaluate_condition("n > self.size and self.mode in ('r', 'w')", bound), true);
  EXPECT_EQ(evaluate_condition("not self.size", bound), true);
  EXPECT_EQ(evaluate_condition("self.mode.upper() == 'W'", bound), true);
  EXPECT_EQ(evaluate_condition("len(self.mode) == 1", bound), true);
  EXPECT_FALSE(evaluate_condition("self.closed", bound).has_value());
  EXPECT_FALSE(evaluate_condition("self.mode.encoding", bound).has_value());
  EXPECT_FALSE(evaluate_condition("other.mode == 'w'", bound).has_value());
  EXPECT_FALSE(evaluate_condition("self.size() == 0", bound).has_value());
}

}  // namespace
}  // namespace errdex::analyze
