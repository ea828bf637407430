#include "model/record_json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "analyze/analyst.h"
#include "analyze/class_index.h"
#include "analyze/lints.h"
#include "scan/python/frontend.h"
#include "support/process.h"

namespace errdex::model {
namespace {

std::vector<std::string> fixture_lines() {
  std::ifstream in(std::string(ERRDEX_SOURCE_DIR) + "/tests/fixtures/dataset_lines.jsonl",
                   std::ios::binary);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) lines.push_back(line);
  return lines;
}

DatasetLine first_line() {
  auto lines = fixture_lines();
  auto parsed = dataset_line_from_json(lines.at(0));
  EXPECT_TRUE(parsed) << parsed.error();
  return *parsed;
}

// Replaces the first `"key":<value>` of `json` with `"key":replacement`
// (or removes the member when `replacement` is empty). Only for flat scalar
// values, which is all the tests need.
std::string edit_member(std::string json, const std::string& key, const std::string& replacement) {
  std::string needle = "\"" + key + "\":";
  auto pos = json.find(needle);
  if (pos == std::string::npos) ADD_FAILURE() << "no member " << key;
  auto value = pos + needle.size();
  std::size_t end = value;
  if (json[value] == '"') {
    for (end = value + 1; json[end] != '"'; ++end)
      if (json[end] == '\\') ++end;
    ++end;
  } else {
    while (json[end] != ',' && json[end] != '}') ++end;
  }
  if (replacement.empty()) {
    // Drop the member with the comma that separates it from a neighbour.
    if (json[end] == ',') return json.erase(pos, end - pos + 1);
    return json.erase(pos - 1, end - pos + 1);
  }
  return json.replace(value, end - value, replacement);
}

TEST(RecordJson, FixtureRoundTripsByteForByte) {
  auto lines = fixture_lines();
  ASSERT_EQ(lines.size(), 2u);
  for (const auto& line : lines) {
    auto parsed = dataset_line_from_json(line);
    ASSERT_TRUE(parsed) << parsed.error();
    EXPECT_EQ(to_json(*parsed), line);
  }
}

TEST(RecordJson, RecordPartIsToJsonOfRecord) {
  auto lines = fixture_lines();
  auto parsed = dataset_line_from_json(lines.at(0));
  ASSERT_TRUE(parsed);
  std::string rec = to_json(parsed->record);
  EXPECT_EQ(lines[0].substr(std::string("{\"record\":").size(), rec.size()), rec);
  auto again = record_from_json(rec);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(*again, parsed->record);
}

TEST(RecordJson, EveryFieldIsParsed) {
  auto lines = fixture_lines();
  auto a = dataset_line_from_json(lines.at(0));
  auto b = dataset_line_from_json(lines.at(1));
  ASSERT_TRUE(a && b);
  const ErrorRecord& r = a->record;
  EXPECT_EQ(a->dataset_version, "2026-03-01T10:00:00.000Z");
  EXPECT_EQ(r.id, "3fa9c0d2b17e4a58");
  EXPECT_EQ(r.repo, "acme/widgets");
  EXPECT_EQ(r.slug, "expected-a-toml-file-got-path-r");
  EXPECT_EQ(r.error_code, std::nullopt);
  EXPECT_EQ(r.error_message, "expected a .toml file, got {path!r}");
  EXPECT_EQ(r.message_pattern, "expected a \\.toml file, got (.+?)");
  EXPECT_EQ(r.error_type, "configuration");
  EXPECT_EQ(r.error_class, "ConfigError");
  EXPECT_EQ(r.http_status, std::nullopt);
  EXPECT_EQ(r.severity, "error");
  EXPECT_EQ(r.file_path, "widgets/config/loader.py");
  EXPECT_EQ(r.line_number, 4);
  EXPECT_NE(r.source_code.find("\"\"\"Read a config \xE2\x80\x94 strictly.\"\"\"\n"), std::string::npos);
  EXPECT_EQ(r.source_code_start, 1);
  EXPECT_EQ(r.source_code_end, 5);
  EXPECT_EQ(r.github_url,
            "https://github.com/acme/widgets/blob/0123456789abcdef0123456789abcdef01234567/"
            "widgets/config/loader.py#L1-L5");
  EXPECT_NE(r.documentation.find("C:\\cfg\\app.ini"), std::string::npos);
  EXPECT_NE(r.trigger_scenarios.find(";\npassing"), std::string::npos);
  EXPECT_NE(r.common_situations.find("YAML configs\tor"), std::string::npos);
  ASSERT_EQ(r.solutions.size(), 3u);
  EXPECT_EQ(r.solutions[0], "Rename the file to end in .toml");
  EXPECT_EQ(r.example_fix.substr(0, 9), "# before\n");
  EXPECT_EQ(r.handling_strategy, "validation");
  ASSERT_TRUE(r.validation_code);
  EXPECT_EQ(r.validation_code->substr(0, 7), "if not ");
  EXPECT_EQ(r.type_guard, std::nullopt);
  ASSERT_TRUE(r.try_catch_pattern);
  EXPECT_EQ(r.try_catch_pattern->substr(0, 5), "try:\n");
  EXPECT_EQ(r.prevention_tips.size(), 2u);
  EXPECT_EQ(r.tags, (std::vector<std::string>{"config", "toml", "path", "configerror"}));
  EXPECT_EQ(r.background_tag, "configuration-files");
  EXPECT_EQ(r.analyzed_sha, "0123456789abcdef0123456789abcdef01234567");
  EXPECT_EQ(r.analyzed_at, "2026-03-01T09:15:42.007Z");
  EXPECT_EQ(r.schema_version, 2);

  // The second line has the opposite null pattern.
  const ErrorRecord& s = b->record;
  EXPECT_EQ(s.error_code, "E_PORT");
  EXPECT_EQ(s.http_status, 400);
  EXPECT_EQ(s.validation_code, std::nullopt);
  EXPECT_EQ(s.type_guard, "assert isinstance(port, int), \"port must be int\"");
  EXPECT_EQ(s.try_catch_pattern, std::nullopt);
  EXPECT_EQ(s.background_tag, std::nullopt);
  EXPECT_TRUE(s.solutions.empty());
  EXPECT_NE(s.source_code.find("\r\n"), std::string::npos);
  EXPECT_NE(s.documentation.find('\x01'), std::string::npos);
}

TEST(RecordJson, KeysComeOutInSeedOrder) {
  ErrorRecord r;
  r.id = "0000000000000000";
  std::string json = to_json(r);
  const char* keys[] = {"id", "repo", "slug", "errorCode", "errorMessage", "messagePattern", "errorType",
                        "errorClass", "httpStatus", "severity", "filePath", "lineNumber", "sourceCode",
                        "sourceCodeStart", "sourceCodeEnd", "githubUrl", "documentation",
                        "triggerScenarios", "commonSituations", "solutions", "exampleFix",
                        "handlingStrategy", "validationCode", "typeGuard", "tryCatchPattern",
                        "preventionTips", "tags", "backgroundTag", "analyzedSha", "analyzedAt",
                        "schemaVersion"};
  std::size_t last = 0;
  for (const char* k : keys) {
    auto pos = json.find(std::string("\"") + k + "\":");
    ASSERT_NE(pos, std::string::npos) << k;
    EXPECT_GE(pos, last) << k;
    last = pos;
  }
  EXPECT_NE(json.find("\"errorCode\":null"), std::string::npos);
  EXPECT_NE(json.find("\"solutions\":[]"), std::string::npos);
  EXPECT_NE(json.find("\"schemaVersion\":2}"), std::string::npos);
}

TEST(RecordJson, InvalidJsonIsAnError) {
  for (std::string bad : {"", "{", "{\"record\":", "nul", "[1,2", "{\"id\":\"a\"", "\xff\xfe"}) {
    auto r = dataset_line_from_json(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().find("invalid JSON"), std::string::npos) << r.error();
  }
}

TEST(RecordJson, NonObjectsAreErrors) {
  auto a = dataset_line_from_json("[]");
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().find("must be an object"), std::string::npos);
  auto b = dataset_line_from_json("{\"record\":3,\"datasetVersion\":\"x\"}");
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().find("\"record\" must be an object"), std::string::npos) << b.error();
  EXPECT_FALSE(record_from_json("\"text\""));
}

TEST(RecordJson, MissingFieldIsNamed) {
  std::string line = fixture_lines().at(0);
  for (std::string key : {"repo", "lineNumber", "sourceCode", "analyzedSha", "schemaVersion"}) {
    auto r = dataset_line_from_json(edit_member(line, key, ""));
    ASSERT_FALSE(r) << key;
    EXPECT_EQ(r.error(), "missing field \"record." + key + "\"");
  }
  auto no_version = dataset_line_from_json(line.substr(0, line.find(",\"datasetVersion\"")) + "}");
  ASSERT_FALSE(no_version);
  EXPECT_EQ(no_version.error(), "missing field \"datasetVersion\"");
  EXPECT_FALSE(dataset_line_from_json("{\"datasetVersion\":\"x\"}"));
}

TEST(RecordJson, OptionalFieldsMayBeAbsent) {
  std::string line = fixture_lines().at(0);
  auto r = dataset_line_from_json(edit_member(line, "errorCode", ""));
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->record.error_code, std::nullopt);
}

TEST(RecordJson, WrongTypeIsNamed) {
  std::string line = fixture_lines().at(0);
  struct Case {
    std::string key, value, message;
  };
  std::vector<Case> cases = {
      {"lineNumber", "\"4\"", "field \"record.lineNumber\" must be an integer, got string"},
      {"lineNumber", "4.5", "field \"record.lineNumber\" must be an integer, got number"},
      {"lineNumber", "99999999999", "field \"record.lineNumber\" is out of range"},
      {"repo", "null", "field \"record.repo\" must be a string, got null"},
      {"errorCode", "7", "field \"record.errorCode\" must be a string or null, got number"},
      {"httpStatus", "\"404\"", "field \"record.httpStatus\" must be an integer or null, got string"},
      {"id", "\"3FA9C0D2B17E4A58\"", "field \"record.id\" must be 16 lowercase hex digits, got \"3FA9C0D2B17E4A58\""},
      {"id", "\"abc\"", "field \"record.id\" must be 16 lowercase hex digits, got \"abc\""},
      {"datasetVersion", "1", "field \"datasetVersion\" must be a string, got number"},
  };
  for (const auto& c : cases) {
    auto r = dataset_line_from_json(edit_member(line, c.key, c.value));
    ASSERT_FALSE(r) << c.key << "=" << c.value;
    EXPECT_EQ(r.error(), c.message);
  }
  auto tags = line;
  tags.replace(tags.find("\"toml\""), 6, "{}");
  auto r = dataset_line_from_json(tags);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "field \"record.tags[1]\" must be a string, got object");
  auto sol = line;
  sol.replace(sol.find("\"solutions\":[") + 12, 0, "\"x\"");
  EXPECT_FALSE(dataset_line_from_json(sol));
}

TEST(RecordJson, InvalidUtf8SerializesWithoutThrowing) {
  DatasetLine line = first_line();
  line.record.documentation = "bad \xC3\x28 byte and \xFF end";
  line.record.tags.push_back("\xE2\x82");
  line.dataset_version = "\x80";
  std::string out;
  ASSERT_NO_THROW(out = to_json(line));
  EXPECT_NE(out.find("bad \xEF\xBF\xBD"), std::string::npos);
  auto back = dataset_line_from_json(out);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->dataset_version, "\xEF\xBF\xBD");
}

TEST(RecordJson, DeepNestingIsRejectedNotCrashing) {
  std::string deep(100000, '[');
  auto r = record_from_json(deep);
  ASSERT_FALSE(r);
  std::string ok_depth = "{\"record\":" + std::string(50, '[') + std::string(50, ']') + "}";
  EXPECT_FALSE(dataset_line_from_json(ok_depth));
}

TEST(RecordJson, UnknownFieldsAreIgnored) {
  std::string line = fixture_lines().at(0);
  std::string extended = line;
  extended.insert(extended.find("\"schemaVersion\""), "\"lints\":[{\"kind\":\"x\"}],");
  auto r = dataset_line_from_json(extended);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(to_json(*r), line);
}

// Version 3's messageVariants: written only when present, read back equal,
// malformed entries dropped without failing the record.
TEST(RecordJson, MessageVariantsRoundTrip) {
  auto parsed = dataset_line_from_json(fixture_lines().at(0));
  ASSERT_TRUE(parsed) << parsed.error();
  ErrorRecord r = parsed->record;
  EXPECT_EQ(to_json(r).find("messageVariants"), std::string::npos);
  r.schema_version = 3;
  r.message_variants = {{"unexpected end of plural form", "unexpected end of plural form"},
                        {"x / {x}", "x / (.+?)"}};
  std::string json = to_json(r);
  EXPECT_NE(json.find(R"("messageVariants":[{"errorMessage":"unexpected end of plural form","messagePattern":)"),
            std::string::npos);
  auto back = record_from_json(json);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(*back, r);
  std::string bad = json;
  bad.replace(bad.find("{\"errorMessage\":\"x / "), 0, "7,{\"errorMessage\":1},");
  auto lenient = record_from_json(bad);
  ASSERT_TRUE(lenient) << lenient.error();
  EXPECT_EQ(lenient->message_variants, r.message_variants);
}

}  // namespace
}  // namespace errdex::model

namespace errdex::model {
namespace {

// Version 3's evidence: absent when nothing was found (a record serializes
// as before), after messageVariants when present, read back equal, and a
// malformed entry dropped rather than failing the record.
TEST(RecordJson, EvidenceTestsWrittenOnlyWhenFoundAndRoundTrip) {
  ErrorRecord r;
  r.id = "0123456789abcdef";
  r.schema_version = 3;
  const std::string before = to_json(r);
  EXPECT_EQ(before.find("evidence"), std::string::npos);
  r.message_variants = {{"a", "a"}};
  r.evidence.tests = {{"Lib/test/test_textwrap.py", 436, "WrapTestCase.test_bad_width",
                       "self.assertRaises(ValueError, wrap, text, 0)"}};
  const std::string json = to_json(r);
  EXPECT_NE(json.find(R"x("messageVariants":[{"errorMessage":"a","messagePattern":"a"}],"evidence":{"tests":[{"filePath":"Lib/test/test_textwrap.py","lineNumber":436,"name":"WrapTestCase.test_bad_width","code":"self.assertRaises(ValueError, wrap, text, 0)"}]}})x"),
            std::string::npos)
      << json;
  auto back = record_from_json(json);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(*back, r);
  EXPECT_EQ(to_json(*back), json);
  std::string bad = json;
  bad.replace(bad.find("\"lineNumber\":436"), 16, "\"lineNumber\":\"x\"");
  auto dropped = record_from_json(bad);
  ASSERT_TRUE(dropped) << dropped.error();
  EXPECT_TRUE(dropped->evidence.empty());
}

// Every part of evidence in the order the record format gives, each key only
// when found, read back equal; an entry of the wrong shape is dropped.
TEST(RecordJson, EvidenceEntryPointsDocsIntroducedRoundTrip) {
  ErrorRecord r;
  r.id = "0123456789abcdef";
  r.schema_version = 3;
  r.evidence.entry_points = {{"textwrap.wrap", {"textwrap.wrap", "textwrap.TextWrapper.wrap", "textwrap.TextWrapper._wrap_chunks"}}};
  std::string json = to_json(r);
  EXPECT_NE(json.find(R"x("evidence":{"entryPoints":[{"name":"textwrap.wrap","chain":["textwrap.wrap","textwrap.TextWrapper.wrap","textwrap.TextWrapper._wrap_chunks"]}]})x"),
            std::string::npos)
      << json;
  r.evidence.tests = {{"Lib/test/test_textwrap.py", 436, "WrapTestCase.test_bad_width", "wrap(text, 0)"}};
  r.evidence.docs = {{"Doc/library/textwrap.rst", 12}};
  r.evidence.introduced = Introduced{"0123456789abcdef0123456789abcdef01234567", "Add width check", "2009-01-02T03:04:05Z"};
  json = to_json(r);
  const auto tests = json.find("\"tests\""), entry = json.find("\"entryPoints\""), docs = json.find("\"docs\""),
             introduced = json.find("\"introduced\"");
  ASSERT_NE(introduced, std::string::npos) << json;
  EXPECT_LT(tests, entry);
  EXPECT_LT(entry, docs);
  EXPECT_LT(docs, introduced);
  EXPECT_NE(json.find(R"x("docs":[{"filePath":"Doc/library/textwrap.rst","lineNumber":12}])x"), std::string::npos);
  EXPECT_NE(json.find(R"x("introduced":{"sha":"0123456789abcdef0123456789abcdef01234567","summary":"Add width check","date":"2009-01-02T03:04:05Z"})x"),
            std::string::npos);
  auto back = record_from_json(json);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(*back, r);
  EXPECT_EQ(to_json(*back), json);
  std::string bad = json;
  bad.replace(bad.find("\"lineNumber\":12"), 15, "\"lineNumber\":null");
  bad.replace(bad.find("\"name\":\"textwrap.wrap\""), 22, "\"name\":7");
  auto dropped = record_from_json(bad);
  ASSERT_TRUE(dropped) << dropped.error();
  EXPECT_TRUE(dropped->evidence.docs.empty());
  EXPECT_TRUE(dropped->evidence.entry_points.empty());
  EXPECT_EQ(dropped->evidence.tests, r.evidence.tests);
  EXPECT_EQ(dropped->evidence.introduced, r.evidence.introduced);
}

}  // namespace
}  // namespace errdex::model

// Records are written as JSON text directly (to_json): the bytes nlohmann's
// dump() gave of the same values in an ordered object, as the stored bodies
// and the records cache hold them, and they read back to the same record.
namespace errdex::model {
namespace {

// nlohmann's own dump of the text it parses, in its order: the form the
// records had when nlohmann wrote them.
std::string canonical(const std::string& text) {
  return nlohmann::ordered_json::parse(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void expect_written_as_nlohmann_and_read_back(const ErrorRecord& r) {
  const std::string text = to_json(r);
  EXPECT_EQ(text, canonical(text));
  auto back = record_from_json(text);
  ASSERT_TRUE(back.has_value()) << back.error();
  EXPECT_EQ(*back, r);
}

TEST(RecordJson, EveryFieldAndKindOfTextIsWrittenAsNlohmannDumpsIt) {
  ErrorRecord r;
  r.id = "0123456789abcdef";
  r.repo = "acme/app";
  r.error_code = "E\"1\"";
  r.error_message = "bad \"quote\" \\ back\tslash\n";
  r.message_pattern = "^bad (.*)$";
  r.http_status = 404;
  r.source_code = std::string("nul \x00 bell \x07 del \x7f esc \x1b", 24);
  r.line_number = 12;
  r.source_code_start = -1;
  r.documentation = "é 日本 😀 four bytes\r\n\fform\b";
  r.solutions = {"one", "", "two"};
  r.validation_code = "";
  r.tags = {"a/b"};
  r.schema_version = 3;
  r.analysis = Analysis{"llm", "qwen", 2, {"documentation", "solutions"}, "2026-01-01T00:00:00.000Z"};
  r.lints = {{"terse-message", "note", "says \"x\""}, {"r", "warning", ""}};
  r.message_variants = {{"a\tb", "a\\tb"}};
  r.evidence.tests = {{"tests/test_x.py", 3, "test_x", "f(\n  1)"}};
  r.evidence.entry_points = {{"pkg.f", {"pkg.f", "pkg._g"}}, {"pkg.h", {}}};
  r.evidence.docs = {{"docs/x.md", 9}};
  r.evidence.introduced = Introduced{std::string(40, 'a'), "Add \"x\"", "2020-01-01"};
  expect_written_as_nlohmann_and_read_back(r);
  r.analysis = Analysis{"static", "", 0, {}, ""};
  r.evidence = {};
  r.evidence.docs = {{"docs/x.md", 9}};
  expect_written_as_nlohmann_and_read_back(r);
  ErrorRecord bare;
  bare.id = r.id;
  expect_written_as_nlohmann_and_read_back(bare);
}

// Text that is not UTF-8 comes out as nlohmann's replacing dump wrote it:
// each bad sequence as U+FFFD, in any field.
TEST(RecordJson, TextThatIsNotUtf8IsReplacedAsNlohmannReplacesIt) {
  for (std::string bad : {"\x80", "a\xc0\xaf", "\xed\xa0\x80z", "\xf4\x90\x80\x80", "\xe6\x97", "ok \xff end"}) {
    SCOPED_TRACE(bad);
    const std::string dumped = nlohmann::json(bad).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    ErrorRecord r;
    r.documentation = bad;
    r.tags = {"t", bad};
    r.lints = {{"rule", "note", bad}};
    const std::string text = to_json(r);
    EXPECT_NE(text.find("\"documentation\":" + dumped + ","), std::string::npos) << text;
    EXPECT_NE(text.find("\"tags\":[\"t\"," + dumped + "]"), std::string::npos) << text;
    EXPECT_NE(text.find("\"message\":" + dumped + "}"), std::string::npos) << text;
    EXPECT_EQ(text, canonical(text));
  }
}

// Records of real code: the standard library's modules, analyzed with
// their docstrings and linted for duplicates.
TEST(RecordJson, TheStandardLibrarysRecordsAreWrittenAsNlohmannDumpsThem) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(testing::python_stdlib()))
    if (e.is_regular_file() && e.path().extension() == ".py") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GT(files.size(), 100u);
  std::vector<model::FileFacts> facts;
  std::vector<std::string> sources;
  analyze::ClassIndex classes;
  for (std::size_t i = 0; i < files.size(); i += 3) {
    std::ifstream in(files[i], std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    sources.push_back(text.str());
    facts.push_back(scan::scan_python(sources.back()));
    classes.add("Lib/" + files[i].filename().string(), facts.back().classes);
  }
  std::vector<ErrorRecord> records;
  for (std::size_t k = 0; k < facts.size(); ++k) {
    analyze::FileContext ctx{"python/cpython", "Lib/" + files[k * 3].filename().string(), std::string(40, 'a'), "",
                             "2026-01-01T00:00:00.000Z", sources[k], &classes, &facts[k].docstrings};
    for (auto& r : analyze::analyze_file(ctx, facts[k].sites)) records.push_back(std::move(r));
  }
  std::vector<ErrorRecord*> all;
  for (auto& r : records) all.push_back(&r);
  analyze::lint_duplicates(all);
  ASSERT_GT(records.size(), 500u);
  for (const auto& r : records) {
    SCOPED_TRACE(r.file_path + ":" + std::to_string(r.line_number));
    expect_written_as_nlohmann_and_read_back(r);
  }
}

}  // namespace
}  // namespace errdex::model
