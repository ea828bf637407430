// The facts cache's text (scan/facts_json.h): written directly, it is the
// JSON nlohmann's dump() gives of the same values, byte for byte (a store's
// cached facts read the same), and it reads back to the same facts.
#include "scan/facts_json.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "scan/python/frontend.h"
#include "support/process.h"

namespace errdex::scan {
namespace {

// nlohmann's own dump of the text it parses: the form the cache kept.
std::string canonical(const std::string& text) {
  return nlohmann::json::parse(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
}

void expect_written_as_nlohmann_and_read_back(const model::FileFacts& facts) {
  const std::string text = facts_to_json(facts);
  EXPECT_EQ(text, canonical(text));
  auto back = facts_from_json(text);
  ASSERT_TRUE(back.has_value()) << back.error();
  EXPECT_EQ(facts_to_json(*back), text);
}

TEST(FactsJson, EveryKindOfTextIsWrittenAsNlohmannDumpsIt) {
  model::FileFacts f;
  model::ThrowSite s;
  s.error_class = "ValueError";
  s.message.style = "f-string";
  s.message.parts = {{true, "bad \"quote\" \\ back\tslash\n", "", 0}, {false, "x", "{x!r}", 'd'}};
  s.alternatives = {s.message, {}};
  s.raised_text = std::string("nul \x00 bell \x07 del \x7f esc \x1b", 24);
  s.args = {"a/b", "é", "日本", "😀 four bytes", ""};
  s.line = 12;
  s.end_line = -1;
  s.guards = {{"if", "x < 0 and y == '\\\\'", {"x", "y"}, 11}};
  s.function = "f";
  s.decorators = {"@staticmethod"};
  s.function_doc = "Line one.\r\n\fLine two.\b";
  s.arg_messages = {{}, s.message};
  s.message_forwarders = {"croak:0", "token_error:1"};
  f.sites.push_back(s);
  f.sites.push_back({});
  model::ClassDef c;
  c.name = "E";
  c.bases = {"Exception"};
  c.display = {s.message};
  c.params = {{"code", true, "None"}, {"note", false, "", true, {{"QUEUECLOSED", "queue closed"}, {"E", "é"}}}};
  c.code = "ERR_X";
  c.names_itself = true;
  c.own_methods = true;
  c.factory = true;
  f.classes = {c};
  f.had_syntax_errors = true;
  f.blanked = {"one", "two"};
  f.expectations = {{"warns", {"A", "B"}, "m.*", "test_x", 4, "with pytest.warns(A):", {"f", "g.h"}}};
  f.functions = {{"f", {"g"}, "C.f", 3, true, {"t"}, {{"x", "g()"}, {"y", ""}}, "getter", "size", "C"}};
  f.imports = {{"a.b", "", "z", 0}, {"m", "*", "", 2}};
  f.class_bases = {{"C", {"B", "A"}}, {"D", {}}};
  f.assigned = {{"k", "v"}, {"two", "pairs"}};
  f.has_exports = true;
  f.exports = {"f"};
  f.docstrings = {{"module", "", 1, "Doc \"string\"."}};
  expect_written_as_nlohmann_and_read_back(f);
  expect_written_as_nlohmann_and_read_back(model::FileFacts{});
}

// Text that is not UTF-8 is refused, as nlohmann's strict dump refused it:
// a lone continuation byte, an overlong form, a surrogate, past U+10FFFF,
// a sequence cut short.
TEST(FactsJson, TextThatIsNotUtf8IsRefused) {
  for (std::string bad : {"\x80", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe6\x97", "ok \xff"}) {
    model::FileFacts f;
    f.blanked = {bad};
    EXPECT_THROW(facts_to_json(f), std::invalid_argument) << bad;
  }
}

// The facts of real code: the standard library's files, scanned as code
// and as tests.
TEST(FactsJson, TheStandardLibrarysFactsAreWrittenAsNlohmannDumpsThem) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(testing::python_stdlib()))
    if (e.is_regular_file() && e.path().extension() == ".py") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GT(files.size(), 100u);
  std::size_t sites = 0;
  for (std::size_t i = 0; i < files.size(); i += 2) {
    SCOPED_TRACE(files[i].string());
    std::ifstream in(files[i], std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const auto facts = scan_python(text.str());
    sites += facts.sites.size();
    expect_written_as_nlohmann_and_read_back(facts);
    expect_written_as_nlohmann_and_read_back(scan_python_tests(text.str()));
  }
  EXPECT_GT(sites, 1000u);
}

}  // namespace
}  // namespace errdex::scan
