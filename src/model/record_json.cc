#include "model/record_json.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>

#include "util/json_text.h"
#include "util/text.h"

namespace errdex::model {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

// Deeper input is rejected before nlohmann sees it: a record is at most three
// levels deep, and a bound keeps hostile input from costing stack or memory.
constexpr int k_max_depth = 64;

// Raw UTF-8 out (ensure_ascii off) as the published dataset has it; invalid
// bytes become U+FFFD instead of throwing.
std::string dump(const OrderedJson& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// A record written as JSON text directly: the bytes dump() gives of the
// same values in an ordered object, without building the tree first. A
// scan of many revisions writes every changed file's records (the records
// cache, the stored bodies); building the tree took most of that time.
class RecordWriter {
 public:
  std::string out;

  void value(const std::string& s) {
    // Text that is not UTF-8 takes dump()'s own replacement of its bad bytes.
    if (!util::append_json_string(out, s)) out += dump(OrderedJson(s));
  }
  void value(int n) { out += std::to_string(n); }
  void value(const std::optional<std::string>& s) { s ? value(*s) : null(); }
  void value(const std::optional<int>& n) { n ? value(*n) : null(); }
  void value(const ErrorRecord& r);
  void value(const Analysis& a) {
    object([&](auto member) {
      member("analyst", a.analyst);
      if (!a.model.empty()) member("model", a.model);
      if (a.prompt_version) member("promptVersion", a.prompt_version);
      if (!a.fields.empty()) member("fields", a.fields);
      member("at", a.at);
    });
  }
  void value(const Lint& l) {
    object([&](auto member) {
      member("rule", l.rule);
      member("level", l.level);
      member("message", l.message);
    });
  }
  void value(const MessageVariant& v) {
    object([&](auto member) {
      member("errorMessage", v.error_message);
      member("messagePattern", v.message_pattern);
    });
  }
  void value(const TestEvidence& t) {
    object([&](auto member) {
      member("filePath", t.file_path);
      member("lineNumber", t.line_number);
      member("name", t.name);
      member("code", t.code);
    });
  }
  void value(const EntryPoint& e) {
    object([&](auto member) {
      member("name", e.name);
      member("chain", e.chain);
    });
  }
  void value(const DocEvidence& d) {
    object([&](auto member) {
      member("filePath", d.file_path);
      member("lineNumber", d.line_number);
    });
  }
  void value(const Introduced& i) {
    object([&](auto member) {
      member("sha", i.sha);
      member("summary", i.summary);
      member("date", i.date);
    });
  }
  template <class T>
  void value(const std::vector<T>& v) {
    util::append_json_array(out, v, [&](const auto& item) { value(item); });
  }
  void value(const Evidence& ev) {
    object([&](auto member) {
      if (!ev.tests.empty()) member("tests", ev.tests);
      if (!ev.entry_points.empty()) member("entryPoints", ev.entry_points);
      if (!ev.docs.empty()) member("docs", ev.docs);
      if (ev.introduced) member("introduced", *ev.introduced);
    });
  }

 private:
  void null() { out += "null"; }
  // An object whose members `fill` writes, in its order, by calling
  // member(key, value); keys are ASCII names that need no escape.
  template <class Fill>
  void object(const Fill& fill) {
    out += '{';
    bool first = true;
    fill([&](const char* key, const auto& v) {
      if (!first) out += ',';
      first = false;
      out += '"';
      out += key;
      out += "\":";
      value(v);
    });
    out += '}';
  }
};

void RecordWriter::value(const ErrorRecord& r) {
  object([&](auto member) {
    member("id", r.id);
    member("repo", r.repo);
    member("slug", r.slug);
    member("errorCode", r.error_code);
    member("errorMessage", r.error_message);
    member("messagePattern", r.message_pattern);
    member("errorType", r.error_type);
    member("errorClass", r.error_class);
    member("httpStatus", r.http_status);
    member("severity", r.severity);
    member("filePath", r.file_path);
    member("lineNumber", r.line_number);
    member("sourceCode", r.source_code);
    member("sourceCodeStart", r.source_code_start);
    member("sourceCodeEnd", r.source_code_end);
    member("githubUrl", r.github_url);
    member("documentation", r.documentation);
    member("triggerScenarios", r.trigger_scenarios);
    member("commonSituations", r.common_situations);
    member("solutions", r.solutions);
    member("exampleFix", r.example_fix);
    member("handlingStrategy", r.handling_strategy);
    member("validationCode", r.validation_code);
    member("typeGuard", r.type_guard);
    member("tryCatchPattern", r.try_catch_pattern);
    member("preventionTips", r.prevention_tips);
    member("tags", r.tags);
    member("backgroundTag", r.background_tag);
    member("analyzedSha", r.analyzed_sha);
    member("analyzedAt", r.analyzed_at);
    member("schemaVersion", r.schema_version);
    if (r.analysis) member("analysis", *r.analysis);
    if (!r.lints.empty()) member("lints", r.lints);
    if (!r.message_variants.empty()) member("messageVariants", r.message_variants);
    if (!r.evidence.empty()) member("evidence", r.evidence);
  });
}

// Rejects nesting deeper than k_max_depth without building anything.
bool depth_ok(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') {
      if (++depth > k_max_depth) return false;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return true;
}

Expected<Json> parse_text(std::string_view text) {
  if (!depth_ok(text)) return Error{"invalid JSON: nested deeper than " + std::to_string(k_max_depth)};
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {
    // nlohmann quotes what it read last as it stands: a binary line's
    // bytes, or a whole unterminated string. Quoted here short and escaped.
    std::string_view what = e.what();
    constexpr std::string_view k_last = "; last read: '";
    auto at = what.find(k_last);
    if (at == std::string_view::npos) return Error{"invalid JSON: " + util::escaped_excerpt(what, 200)};
    std::string_view read = what.substr(at + k_last.size());
    if (!read.empty() && read.back() == '\'') read.remove_suffix(1);
    return Error{"invalid JSON: " + std::string(what.substr(0, at)) + "; last read: '" + util::escaped_excerpt(read) + "'"};
  }
}

const char* type_name(const Json& v) { return v.type_name(); }

std::vector<MessageVariant> variants_from_value(const Json& mv) {
  std::vector<MessageVariant> out;
  if (!mv.is_array()) return out;
  for (const auto& v : mv) {
    if (!v.is_object()) continue;
    auto msg = v.find("errorMessage"), pat = v.find("messagePattern");
    if (msg == v.end() || !msg->is_string() || pat == v.end() || !pat->is_string()) continue;
    out.push_back({msg->get<std::string>(), pat->get<std::string>()});
  }
  return out;
}

// A string member of `o`, or "" when missing or not a string.
std::string string_at(const Json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A line number member of `o` clamped to an int, or -1 when missing.
int line_at(const Json& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end() || !it->is_number_integer()) return -1;
  return static_cast<int>(std::clamp<std::int64_t>(it->get<std::int64_t>(), 0, std::numeric_limits<int>::max()));
}

// `evidence` as written by to_json; entries of the wrong shape are dropped
// (evidence is advisory: a bad entry does not reject the record).
void evidence_from_value(const Json& ev, Evidence& out) {
  if (auto tests = ev.find("tests"); tests != ev.end() && tests->is_array())
    for (const auto& t : *tests) {
      if (!t.is_object()) continue;
      auto path = t.find("filePath");
      int line = line_at(t, "lineNumber");
      if (path == t.end() || !path->is_string() || line < 0) continue;
      out.tests.push_back({path->get<std::string>(), line, string_at(t, "name"), string_at(t, "code")});
    }
  if (auto eps = ev.find("entryPoints"); eps != ev.end() && eps->is_array())
    for (const auto& e : *eps) {
      if (!e.is_object()) continue;
      EntryPoint p{string_at(e, "name"), {}};
      if (p.name.empty()) continue;
      if (auto chain = e.find("chain"); chain != e.end() && chain->is_array())
        for (const auto& c : *chain)
          if (c.is_string()) p.chain.push_back(c.get<std::string>());
      out.entry_points.push_back(std::move(p));
    }
  if (auto docs = ev.find("docs"); docs != ev.end() && docs->is_array())
    for (const auto& d : *docs) {
      if (!d.is_object()) continue;
      std::string path = string_at(d, "filePath");
      int line = line_at(d, "lineNumber");
      if (path.empty() || line < 0) continue;
      out.docs.push_back({std::move(path), line});
    }
  if (auto in = ev.find("introduced"); in != ev.end() && in->is_object()) {
    Introduced i{string_at(*in, "sha"), string_at(*in, "summary"), string_at(*in, "date")};
    if (!i.sha.empty()) out.introduced = std::move(i);
  }
}

// Reads fields of one object, remembering the first problem. The first error
// wins so that the message names the field the caller has to fix.
class FieldReader {
 public:
  FieldReader(const Json& object, std::string prefix) : m_obj(object), m_prefix(std::move(prefix)) {}

  std::string string(const char* key) {
    const Json* v = find(key);
    if (!v) return {};
    if (!v->is_string()) return wrong(key, "a string", *v), std::string();
    return v->get<std::string>();
  }

  // Absent or null → nullopt.
  std::optional<std::string> optional_string(const char* key) {
    auto it = m_obj.find(key);
    if (it == m_obj.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) return wrong(key, "a string or null", *it), std::nullopt;
    return it->get<std::string>();
  }

  int integer(const char* key) {
    const Json* v = find(key);
    if (!v) return 0;
    return to_int(key, *v, "an integer");
  }

  std::optional<int> optional_integer(const char* key) {
    auto it = m_obj.find(key);
    if (it == m_obj.end() || it->is_null()) return std::nullopt;
    return to_int(key, *it, "an integer or null");
  }

  std::vector<std::string> strings(const char* key) {
    std::vector<std::string> out;
    const Json* v = find(key);
    if (!v) return out;
    if (!v->is_array()) return wrong(key, "an array of strings", *v), out;
    out.reserve(v->size());
    for (std::size_t i = 0; i < v->size(); ++i) {
      const Json& item = (*v)[i];
      if (!item.is_string()) {
        fail("field \"" + m_prefix + key + "[" + std::to_string(i) + "]\" must be a string, got " +
             type_name(item));
        return {};
      }
      out.push_back(item.get<std::string>());
    }
    return out;
  }

  void fail(std::string message) {
    if (m_error.empty()) m_error = std::move(message);
  }
  const std::string& error() const { return m_error; }

 private:
  const Json* find(const char* key) {
    auto it = m_obj.find(key);
    if (it == m_obj.end()) {
      fail("missing field \"" + m_prefix + key + "\"");
      return nullptr;
    }
    return &*it;
  }

  void wrong(const char* key, const char* expected, const Json& got) {
    fail("field \"" + m_prefix + key + "\" must be " + expected + ", got " + type_name(got));
  }

  int to_int(const char* key, const Json& v, const char* expected) {
    if (v.is_number_unsigned()) {
      auto u = v.get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(std::numeric_limits<int>::max())) return static_cast<int>(u);
    } else if (v.is_number_integer()) {
      auto s = v.get<std::int64_t>();
      if (s >= std::numeric_limits<int>::min() && s <= std::numeric_limits<int>::max())
        return static_cast<int>(s);
    } else {
      wrong(key, expected, v);
      return 0;
    }
    fail("field \"" + m_prefix + key + "\" is out of range");
    return 0;
  }

  const Json& m_obj;
  std::string m_prefix;
  std::string m_error;
};

Expected<ErrorRecord> record_from_value(const Json& j, const std::string& prefix) {
  if (!j.is_object()) {
    std::string what = prefix.empty() ? "record" : "field \"" + prefix.substr(0, prefix.size() - 1) + "\"";
    return Error{what + " must be an object, got " + type_name(j)};
  }
  FieldReader f(j, prefix);
  ErrorRecord r;
  r.id = f.string("id");
  r.repo = f.string("repo");
  r.slug = f.string("slug");
  r.error_code = f.optional_string("errorCode");
  r.error_message = f.string("errorMessage");
  r.message_pattern = f.string("messagePattern");
  r.error_type = f.string("errorType");
  r.error_class = f.string("errorClass");
  r.http_status = f.optional_integer("httpStatus");
  r.severity = f.string("severity");
  r.file_path = f.string("filePath");
  r.line_number = f.integer("lineNumber");
  r.source_code = f.string("sourceCode");
  r.source_code_start = f.integer("sourceCodeStart");
  r.source_code_end = f.integer("sourceCodeEnd");
  r.github_url = f.string("githubUrl");
  r.documentation = f.string("documentation");
  r.trigger_scenarios = f.string("triggerScenarios");
  r.common_situations = f.string("commonSituations");
  r.solutions = f.strings("solutions");
  r.example_fix = f.string("exampleFix");
  r.handling_strategy = f.string("handlingStrategy");
  r.validation_code = f.optional_string("validationCode");
  r.type_guard = f.optional_string("typeGuard");
  r.try_catch_pattern = f.optional_string("tryCatchPattern");
  r.prevention_tips = f.strings("preventionTips");
  r.tags = f.strings("tags");
  r.background_tag = f.optional_string("backgroundTag");
  r.analyzed_sha = f.string("analyzedSha");
  r.analyzed_at = f.string("analyzedAt");
  r.schema_version = f.integer("schemaVersion");
  // Version 3 fields. A malformed entry of a field this reader does not
  // need is dropped rather than failing the record, as for unknown fields.
  if (auto a = j.find("analysis"); a != j.end() && a->is_object()) {
    auto str = [&](const char* k) {
      auto it = a->find(k);
      return it != a->end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    Analysis an;
    an.analyst = str("analyst");
    an.model = str("model");
    an.at = str("at");
    if (auto pv = a->find("promptVersion"); pv != a->end() && pv->is_number_integer())
      an.prompt_version = static_cast<int>(pv->get<std::int64_t>());
    if (auto fl = a->find("fields"); fl != a->end() && fl->is_array())
      for (const auto& v : *fl)
        if (v.is_string()) an.fields.push_back(v.get<std::string>());
    if (!an.analyst.empty()) r.analysis = std::move(an);
  }
  if (auto l = j.find("lints"); l != j.end() && l->is_array()) {
    for (const auto& v : *l) {
      if (!v.is_object()) continue;
      auto rule = v.find("rule"), level = v.find("level"), msg = v.find("message");
      if (rule == v.end() || !rule->is_string() || msg == v.end() || !msg->is_string()) continue;
      r.lints.push_back({rule->get<std::string>(),
                         level != v.end() && level->is_string() ? level->get<std::string>() : "warning",
                         msg->get<std::string>()});
    }
  }
  if (auto mv = j.find("messageVariants"); mv != j.end()) r.message_variants = variants_from_value(*mv);
  if (auto ev = j.find("evidence"); ev != j.end() && ev->is_object()) evidence_from_value(*ev, r.evidence);
  if (f.error().empty() && !is_record_id(r.id))
    f.fail("field \"" + prefix + "id\" must be 16 lowercase hex digits, got " +
           dump(OrderedJson(r.id.substr(0, 40))));
  if (!f.error().empty()) return Error{f.error()};
  return r;
}

}  // namespace

std::string to_json(const ErrorRecord& r) {
  RecordWriter w;
  w.value(r);
  return std::move(w.out);
}

std::string to_json(const DatasetLine& line) {
  // Assembled by hand so the record part is exactly to_json(record), which is
  // what the store keeps and exports.
  std::string out = "{\"record\":";
  out += to_json(line.record);
  out += ",\"datasetVersion\":";
  out += dump(OrderedJson(line.dataset_version));
  if (!line.ref.empty()) {
    out += ",\"ref\":";
    out += dump(OrderedJson(line.ref));
  }
  out += '}';
  return out;
}

Expected<ErrorRecord> record_from_json(std::string_view json) {
  auto parsed = parse_text(json);
  if (!parsed) return Error{parsed.error()};
  return record_from_value(*parsed, "");
}

Expected<std::vector<MessageVariant>> record_variants_from_json(std::string_view json) {
  auto parsed = parse_text(json);
  if (!parsed) return Error{parsed.error()};
  return variants_from_value(*parsed);
}

Expected<DatasetLine> dataset_line_from_json(std::string_view json) {
  auto parsed = parse_text(json);
  if (!parsed) return Error{parsed.error()};
  const Json& j = *parsed;
  if (!j.is_object()) return Error{std::string("dataset line must be an object, got ") + type_name(j)};
  auto rec = j.find("record");
  if (rec == j.end()) return Error{"missing field \"record\""};
  auto record = record_from_value(*rec, "record.");
  if (!record) return Error{record.error()};
  FieldReader f(j, "");
  DatasetLine line{std::move(*record), f.string("datasetVersion"), ""};
  if (auto ref = j.find("ref"); ref != j.end()) {
    if (!ref->is_string()) return Error{std::string("field \"ref\" must be a string, got ") + type_name(*ref)};
    line.ref = ref->get<std::string>();
  }
  if (!f.error().empty()) return Error{f.error()};
  return line;
}

bool is_record_id(std::string_view id) {
  if (id.size() != 16) return false;
  for (char c : id)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::optional<std::string> record_id_of(std::string_view text) {
  if (text.size() != 16) return std::nullopt;
  std::string id(text);
  for (char& c : id) {
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
  }
  return id;
}

}  // namespace errdex::model
