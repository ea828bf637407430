// What compiled and older JavaScript writes a message with that the
// frontend reads as the text it makes: an error class called without
// `new` in a helper the throw calls, a TypeScript enum's member.
#include "scan/javascript/frontend.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scan/template.h"

namespace errdex::scan {
namespace {

model::FileFacts js(const std::string& src) { return scan_javascript(src, Dialect::javascript); }

// protobufjs: `throw indexOutOfRange(this)`, `throw illegal(token)`, whose
// helpers `return RangeError("index out of range: " + reader.pos + …)`,
// an error class called without `new`: the site is that class and message,
// the call's arguments in the parameters' places. A capitalised function
// the file defines is read through as before, and a call of something
// that names no error (`String(x)`) is no error made.
TEST(JavaScriptCompiledTexts, AHelperReturningAnErrorClassCalledWithoutNewIsReadThrough) {
  auto f = js("function indexOutOfRange(reader, writeLength) {\n"
              "  return RangeError(\"index out of range: \" + reader.pos + \" + \" + (writeLength || 1) + \" > \" + reader.len);\n"
              "}\n"
              "function illegal(token) { return Error(\"illegal token '\" + token + \"'\"); }\n"
              "function MakeError(m) { return new TypeError('made: ' + m); }\n"
              "function wrap(m) { return MakeError(m); }\n"
              "function named(x) { return String(x); }\n"
              "function read(r, t) {\n"
              "  if (r.pos > r.len) throw indexOutOfRange(r);\n"
              "  if (t) throw illegal(t);\n"
              "  if (r.x) throw wrap('bad');\n"
              "  throw named(r);\n"
              "}\n");
  std::vector<std::string> made;  // each site's class and message
  for (const auto& site : f.sites) made.push_back(site.error_class + ": " + template_text(site.message));
  // The call passes no writeLength: its written default, 1, is what prints.
  EXPECT_EQ(made, (std::vector<std::string>{"RangeError: index out of range: {reader.pos} + 1 > {reader.len}",
                                            "Error: illegal token '{t}'", "TypeError: made: bad", "named: {r}"}));
}

// ulid's `throw new ULIDError(ULIDErrorCode.DecodeTimeValueMalformed,
// "Malformed ULID")`, whose class prints `${message} (${errorCode})`: a
// member of a string enum the file defines is its text, in tsc's output
// (ES module and CommonJS, `exports.E.K`) and in TypeScript itself, as the
// message or a later argument. A number, a member not defined, another
// object's member and an enum of another name stay names.
TEST(JavaScriptCompiledTexts, AStringEnumsMemberIsItsText) {
  const std::string compiled =
      "var ULIDErrorCode;\n"
      "(function (ULIDErrorCode) {\n"
      "    ULIDErrorCode[\"DecodeTimeValueMalformed\"] = \"DEC_TIME_MALFORMED\";\n"
      "    ULIDErrorCode[\"Count\"] = 3;\n"
      "})(ULIDErrorCode || (ULIDErrorCode = {}));\n";
  const std::string throws =
      "function decodeTime(id) {\n"
      "  if (id.length !== 26) throw new ULIDError(ULIDErrorCode.DecodeTimeValueMalformed, \"Malformed ULID\");\n"
      "  if (id.x) throw new Error(ULIDErrorCode.DecodeTimeValueMalformed);\n"
      "  if (id.y) throw new Error(ULIDErrorCode.Count);\n"
      "  if (id.z) throw new Error(ULIDErrorCode.Nope);\n"
      "  if (id.w) throw new Error(Other.DecodeTimeValueMalformed);\n"
      "}\n";
  const std::vector<std::string> want = {"DEC_TIME_MALFORMED", "DEC_TIME_MALFORMED", "{ULIDErrorCode.Count}",
                                         "{ULIDErrorCode.Nope}", "{Other.DecodeTimeValueMalformed}"};
  auto read = [](const model::FileFacts& f) {
    std::vector<std::string> out;
    for (const auto& site : f.sites) out.push_back(template_text(site.message));
    return out;
  };
  auto module = js(compiled + throws);
  EXPECT_EQ(read(module), want);
  ASSERT_FALSE(module.sites.empty());
  ASSERT_GE(module.sites[0].arg_messages.size(), 2u);
  EXPECT_EQ(template_text(module.sites[0].arg_messages[1]), "Malformed ULID");
  auto typescript = scan_javascript("export enum ULIDErrorCode { DecodeTimeValueMalformed = \"DEC_TIME_MALFORMED\", Count = 3 }\n" + throws,
                                    Dialect::typescript);
  EXPECT_EQ(read(typescript), want);
  auto cjs = js("exports.ULIDErrorCode = void 0;\n"
                "(function (ULIDErrorCode) {\n"
                "    ULIDErrorCode[\"DecodeTimeValueMalformed\"] = \"DEC_TIME_MALFORMED\";\n"
                "})(exports.ULIDErrorCode || (exports.ULIDErrorCode = {}));\n"
                "function decodeTime(id) {\n"
                "  throw new Error(exports.ULIDErrorCode.DecodeTimeValueMalformed);\n"
                "}\n");
  EXPECT_EQ(read(cjs), std::vector<std::string>{"DEC_TIME_MALFORMED"});
}

}  // namespace
}  // namespace errdex::scan
