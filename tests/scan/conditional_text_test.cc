#include "scan/conditional_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scan/template.h"

namespace errdex::scan {
namespace {

using model::MessageTemplate;
using model::TemplatePart;

MessageTemplate tmpl(std::vector<TemplatePart> parts) {
  MessageTemplate t;
  t.style = "fstring";
  t.from_literals = true;
  t.parts = std::move(parts);
  return t;
}
TemplatePart lit(std::string s) { return TemplatePart{true, std::move(s), {}, 0}; }
TemplatePart expr(std::string s) { return TemplatePart{false, std::move(s), {}, 0}; }

std::vector<std::string> texts(const MessageTemplate& t) {
  std::vector<std::string> out;
  for (const auto& m : conditional_texts(t)) out.push_back(template_text(m));
  return out;
}

// Python's `{'s' if n != 1 else ''}` and JavaScript's `${n !== 1 ? 's' :
// ''}` show one of their texts: each combination is a template, the first
// branches first.
TEST(ConditionalText, AChoiceBetweenTextsIsEachText) {
  EXPECT_EQ(texts(tmpl({lit("Too "), expr("'many' if alen > elen else 'few'"), lit(" arguments for "), expr("cls")})),
            (std::vector<std::string>{"Too many arguments for {cls}", "Too few arguments for {cls}"}));
  EXPECT_EQ(texts(tmpl({expr("min"), lit(" argument"), expr("min !== 1 ? 's' : ''"), lit(" required, but"),
                        expr("length ? ' only' : ''"), lit(" "), expr("length"), lit(" found.")})),
            (std::vector<std::string>{"{min} arguments required, but only {length} found.",
                                      "{min} arguments required, but {length} found.",
                                      "{min} argument required, but only {length} found.",
                                      "{min} argument required, but {length} found."}));
  // A branch that is not text stays an interpolation of that branch.
  EXPECT_EQ(texts(tmpl({lit("got "), expr("opts === null ? 'null' : typeof opts")})),
            (std::vector<std::string>{"got null", "got {typeof opts}"}));
  // A branch formatting text: an f-string, a template literal, a
  // concatenation with text.
  EXPECT_EQ(texts(tmpl({lit("("), expr("key[:5]"), expr("f'... [{len(key)}]' if len(key) > 5 else ''"), lit(")")})),
            (std::vector<std::string>{"({key[:5]}... [{len(key)}])", "({key[:5]})"}));
  EXPECT_EQ(texts(tmpl({expr("n > 1 ? `${n} items` : 'one item'"), lit(" left")})),
            (std::vector<std::string>{"{n} items left", "one item left"}));
  EXPECT_EQ(texts(tmpl({lit("removed"), expr("version ? ' in ' + version : ''")})),
            (std::vector<std::string>{"removed in {version}", "removed"}));
  // Nested conditionals, parentheses, double quotes and escapes.
  EXPECT_EQ(texts(tmpl({lit("set "), expr("('difference' if this == '-' else \"inter\\\"section\" if this == '&' else 'union')")})),
            (std::vector<std::string>{"set difference", "set inter\"section", "set union"}));
}

// Not expanded: no conditional, no literal branch, optional chaining and
// `??`, a conversion (`!r`), a lambda, a comprehension's `if`, a template
// literal with substitutions as a branch.
TEST(ConditionalText, OnlyAConditionalWithTextIsExpanded) {
  auto one = [](TemplatePart p) { return texts(tmpl({lit("x "), std::move(p)})).size(); };
  EXPECT_EQ(one(expr("a.b(c)")), 1u);
  EXPECT_EQ(one(expr("a ? b : c")), 1u);
  EXPECT_EQ(one(expr("a?.b ?? 'none'")), 1u);
  EXPECT_EQ(one(TemplatePart{false, "'a' if x else 'b'", "'a' if x else 'b'!r", 0}), 1u);
  EXPECT_EQ(one(expr("(lambda: 'a' if x else 'b')()")), 1u);
  EXPECT_EQ(one(expr("[v for v in vs if v]")), 1u);
  EXPECT_EQ(one(expr("{ a: 1 ? 'x' : 'y' }")), 1u);
}

// Past 8 templates, the later choices stay interpolations.
TEST(ConditionalText, ExpansionIsBounded) {
  std::vector<TemplatePart> parts;
  for (int i = 0; i < 5; ++i) parts.push_back(expr("c" + std::to_string(i) + " ? 'a' : 'b'"));
  auto all = texts(tmpl(parts));
  EXPECT_EQ(all.size(), 8u);
  EXPECT_EQ(all.front(), "aaa{c3 ? 'a' : 'b'}{c4 ? 'a' : 'b'}");
}

// Parentheses around a choice are read through, up to 32 layers; more,
// which only generated code nests, are left on, since each layer reads the
// whole text again.
TEST(ConditionalText, ParenthesesAreReadThroughToABound) {
  auto wrapped = [](int layers) {
    return expr(std::string(static_cast<std::size_t>(layers), '(') + "'a' if x else 'b'" +
                std::string(static_cast<std::size_t>(layers), ')'));
  };
  EXPECT_EQ(texts(tmpl({lit("x "), wrapped(3)})), (std::vector<std::string>{"x a", "x b"}));
  EXPECT_EQ(texts(tmpl({lit("x "), wrapped(32)})), (std::vector<std::string>{"x a", "x b"}));
  EXPECT_EQ(texts(tmpl({lit("x "), wrapped(33)})).size(), 1u);
}

}  // namespace
}  // namespace errdex::scan
