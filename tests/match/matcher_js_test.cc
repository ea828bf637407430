// JavaScript records in the matcher: where V8 says an error was made and
// where the package throws it; the builds a package ships of one module.
#include <gtest/gtest.h>

#include "match/excerpt.h"
#include "match/matcher.h"

namespace errdex::match {
namespace {

// command-line-args 6.0.2's index.js, lines 55 to 64: each error is made
// first, named, then thrown.
const char* const k_made_then_thrown =
    "      if (argInfo.event === 'unknown_value') {\n"
    "        const err = new Error(`Unknown value: ${arg}`)\n"
    "        err.name = 'UNKNOWN_VALUE'\n"
    "        err.value = arg\n"
    "        throw err\n"
    "      } else if (argInfo.event === 'unknown_option') {\n"
    "        const err = new Error(`Unknown option: ${arg}`)\n"
    "        err.name = 'UNKNOWN_OPTION'\n"
    "        err.optionName = arg\n"
    "        throw err\n";

model::ErrorRecord site(std::string id, std::string message, std::string pattern, std::string file, int line, int start) {
  model::ErrorRecord r;
  r.id = std::move(id);
  r.repo = "npm/command-line-args";
  r.error_class = "Error";
  r.error_message = std::move(message);
  r.message_pattern = std::move(pattern);
  r.file_path = std::move(file);
  r.line_number = line;
  r.source_code = k_made_then_thrown;
  r.source_code_start = start;
  r.source_code_end = start + 9;
  return r;
}

TEST(ExcerptMadeAbove, TheBindingOfTheThrownNameAboveTheThrow) {
  std::uint32_t made = 0;
  EXPECT_EQ(excerpt_made_above(k_made_then_thrown, 55, 64, made), 3);
  EXPECT_EQ(made, statement_hash("const err = new Error(`Unknown option: ${arg}`)"));
  EXPECT_EQ(excerpt_made_above(k_made_then_thrown, 55, 59, made), 3);  // the nearest binding, not the one above it
  EXPECT_EQ(excerpt_made_above(k_made_then_thrown, 55, 61, made), 0);  // no throw
  EXPECT_EQ(excerpt_made_above("err = lookup(code)\nthrow err\n", 1, 2, made), 0);  // not bound to a new error
  EXPECT_EQ(excerpt_made_above("const err = new Error('x')\nerr = other\nthrow err\n", 1, 3, made), 0);  // bound again
  EXPECT_EQ(excerpt_made_above("throw err\n", 1, 1, made), 0);
}

// An ES module's uncaught error: Node's header names the line its stack
// names, where the error was made (V8 records that, not the throw), three
// lines above `throw err`. The frame names the statement; the same throw
// in the package's CommonJS bundle is not the answer.
TEST(Matcher, AJavaScriptFrameOnTheLineTheThrownErrorWasMadeNamesTheThrow) {
  const std::vector<model::ErrorRecord> records = {
      site("value", "Unknown value: {arg}", "Unknown value: (.+?)", "index.js", 59, 55),
      site("option", "Unknown option: {arg}", "Unknown option: (.+?)", "index.js", 64, 55),
      site("bundle", "Unknown option: {arg}", "Unknown option: (.+?)", "dist/index.cjs", 964, 955)};
  auto m = Matcher::build(records, {{"npm/command-line-args", {""}}});
  const std::string error = "UNKNOWN_OPTION: Unknown option: --b\n";
  for (const std::string text :
       {error + "    at Module.commandLineArgs (file:///app/node_modules/command-line-args/index.js:61:21)\n",
        "file:///app/node_modules/command-line-args/index.js:61\n"
        "        const err = new Error(`Unknown option: ${arg}`)\n"
        "                    ^\n\n" +
            error + "    at Module.commandLineArgs (file:///app/node_modules/command-line-args/index.js:61:21)\n"}) {
    auto r = m.match(text);
    ASSERT_FALSE(r.candidates.empty()) << text;
    EXPECT_EQ(r.candidates.front().id, "option") << text;
    EXPECT_TRUE(r.candidates.front().reasons.frame_line) << text;
    EXPECT_FALSE(r.raised_below) << text;
    EXPECT_FALSE(r.ambiguous) << text;
  }
  // The line below the binding made nothing: no statement of the file.
  auto r = m.match(error + "    at Module.commandLineArgs (file:///app/node_modules/command-line-args/index.js:62:9)\n");
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_FALSE(r.candidates.front().reasons.frame_line);
}

// @msgpack/msgpack 3.1 ships its TypeScript source and three builds in
// folders named with their format (`dist.cjs/`, `dist.esm/`, `dist.umd/`);
// tsc's CommonJS output names the class and the helper through the import
// (`DecodeError_ts_1.DecodeError`, `(0, prettyByte_ts_1.prettyByte)(…)`).
// One statement, one answer.
TEST(Matcher, ABuildFolderNamedWithItsFormatIsABuild) {
  auto site_at = [](std::string id, std::string cls, std::string message, std::string file, int line) {
    model::ErrorRecord r;
    r.id = std::move(id);
    r.repo = "npm/@msgpack__msgpack";
    r.error_class = std::move(cls);
    r.error_message = std::move(message);
    r.message_pattern = "Unrecognized type byte: (.+?)";
    r.file_path = std::move(file);
    r.line_number = line;
    return r;
  };
  auto m = Matcher::build({site_at("ts", "DecodeError", "Unrecognized type byte: {prettyByte(headByte)}", "src/Decoder.ts", 635),
                           site_at("cjs", "DecodeError_ts_1.DecodeError", "Unrecognized type byte: {(0, prettyByte_ts_1.prettyByte)(headByte)}",
                                   "dist.cjs/Decoder.cjs", 527),
                           site_at("esm", "DecodeError", "Unrecognized type byte: {prettyByte(headByte)}", "dist.esm/Decoder.mjs", 524),
                           site_at("umd", "DecodeError", "Unrecognized type byte: {prettyByte(headByte)}", "dist.umd/msgpack.js", 1556)});
  auto r = m.match("DecodeError: Unrecognized type byte: 0xc1");
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_EQ(r.candidates.size(), 1u) << r.candidates.size() << " " << r.candidates.back().id;
  EXPECT_FALSE(r.ambiguous);
  // A folder that only looks like one (`v2.cjs/` is no build) is a module of its own.
  auto other = Matcher::build({site_at("a", "DecodeError", "Unrecognized type byte: {b}", "src/v2.cjs/Decoder.ts", 1),
                               site_at("b", "DecodeError", "Unrecognized type byte: {b}", "src/Decoder.ts", 1)});
  EXPECT_EQ(other.match("DecodeError: Unrecognized type byte: 0xc1").candidates.size(), 2u);
}

// A caught error thrown again with a message the site wrote (`err.message
// = \`Cannot load config ${file}: ${err.message}\`; throw err`) has no class
// of its own: Node prints whatever was caught (`Error: Cannot load config
// …`). Its message ranks it above a site that only the class ties to the
// text; a Python site with no class is not read so.
TEST(Matcher, ACaughtErrorThrownWithAMessageOfItsOwnTakesThePrintedClass) {
  auto record = [](std::string id, std::string cls, std::string message, std::string pattern, std::string file) {
    model::ErrorRecord r;
    r.id = std::move(id);
    r.repo = "npm/loader";
    r.error_class = std::move(cls);
    r.error_message = std::move(message);
    r.message_pattern = std::move(pattern);
    r.file_path = std::move(file);
    r.line_number = 7;
    return r;
  };
  auto m = Matcher::build({record("again", "", "Cannot load config {file}: {err.message}", "Cannot load config (.+?): (.+?)", "lib/load.js"),
                           record("other", "Error", "{name}:{line} {err.message}", "(.+?):(.+?) (.+?)", "lib/render.js")});
  auto r = m.match("Error: Cannot load config /etc/app.json: ENOENT: no such file or directory");
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_EQ(r.candidates.front().id, "again");
  EXPECT_TRUE(r.candidates.front().reasons.error_class);
  auto py = Matcher::build({record("again", "", "Cannot load config {file}: {err}", "Cannot load config (.+?): (.+?)", "app/load.py"),
                            record("other", "Error", "{name}:{line} {err}", "(.+?):(.+?) (.+?)", "app/render.py")});
  auto p = py.match("Error: Cannot load config /etc/app.json: ENOENT: no such file or directory");
  ASSERT_FALSE(p.candidates.empty());
  EXPECT_FALSE(p.candidates.front().id == "again" && p.candidates.front().reasons.error_class);
}

}  // namespace
}  // namespace errdex::match
