#include "analyze/llm_analyst.h"

#include <algorithm>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "analyze/python_check.h"
#include "model/record_json.h"
#include "util/text.h"

namespace errdex::analyze {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Json = nlohmann::json;

// A model's answer for one record is a few KB; more is not an answer.
constexpr std::size_t k_max_body = 4u << 20;
constexpr std::size_t k_max_text = 6000;
constexpr std::size_t k_max_items = 12;
constexpr std::size_t k_max_problems = 8;
constexpr int k_max_retry_after_ms = 30000;

constexpr const char* k_system_prompt =
    "You document one throw site of a Python repository for developers who hit the error. "
    "You get the facts read off the code (class, message template, the guard conditions that lead to the raise, "
    "the enclosing function and class with their docstrings, the source excerpt), the repository's evidence (tests "
    "that raise it on purpose with the lines that do it, public entry points that lead to it with their call chains, "
    "docs that mention it, the commit that added it; each only when found) and a draft written from them by a "
    "static analyser. Ground triggerScenarios in the entry point and the inputs a test passes, commonSituations in "
    "what the entry point or class is for as its docstring says, and exampleFix in a test's call when there is one; "
    "where the facts say nothing specific, write less rather than generic advice. "
    "Rewrite the draft into clearer, more useful text. Use only the facts given: do not invent functions, "
    "parameters or behaviour that the excerpt does not show. Answer with one JSON object and nothing else, with "
    "these keys: documentation (what the error means: who raises it, under which condition, why), "
    "triggerScenarios (the calls and inputs that reach it), commonSituations (real workflows in which users meet "
    "it), solutions (array of strings, most likely first), exampleFix (Python code: a '# before' part then a "
    "'# after' part), handlingStrategy (one of validation, type-guard, retry, fallback, upgrade, propagate), "
    "validationCode (Python code a caller runs before the call, or null), typeGuard (Python code, or null unless "
    "the error is about types), tryCatchPattern (Python code catching it), preventionTips (array of strings), "
    "tags (array of lower-case keywords, the class name among them). Every code field must be valid Python that "
    "only uses names from the source excerpt, Python builtins, or names it assigns itself.";

const std::vector<std::string>& prose_fields() {
  static const std::vector<std::string> k = {"documentation", "triggerScenarios", "commonSituations"};
  return k;
}
const std::vector<std::string>& list_fields() {
  static const std::vector<std::string> k = {"solutions", "preventionTips", "tags"};
  return k;
}
const std::vector<std::string>& code_fields() {
  static const std::vector<std::string> k = {"exampleFix", "validationCode", "typeGuard", "tryCatchPattern"};
  return k;
}

std::string* prose_slot(model::ErrorRecord& r, const std::string& f) {
  if (f == "documentation") return &r.documentation;
  if (f == "triggerScenarios") return &r.trigger_scenarios;
  if (f == "commonSituations") return &r.common_situations;
  return nullptr;
}
std::vector<std::string>* list_slot(model::ErrorRecord& r, const std::string& f) {
  if (f == "solutions") return &r.solutions;
  if (f == "preventionTips") return &r.prevention_tips;
  if (f == "tags") return &r.tags;
  return nullptr;
}

// The content between ```json fences, if the model added them.
std::string strip_fences(std::string s) {
  auto a = s.find("```");
  if (a == std::string::npos) return s;
  auto nl = s.find('\n', a);
  auto b = s.rfind("```");
  if (nl == std::string::npos || b <= nl) return s;
  return s.substr(nl + 1, b - nl - 1);
}

// Names a code field may use without binding them: builtins, and every
// identifier of the source excerpt and of the static draft's code.
std::set<std::string> allowed_names(const model::ErrorRecord& r) {
  std::set<std::string> ok;
  auto add_all = [&](const std::string& code) {
    for (auto& n : all_identifiers(code)) ok.insert(std::move(n));
  };
  add_all(r.source_code);
  add_all(r.example_fix);
  if (r.validation_code) add_all(*r.validation_code);
  if (r.type_guard) add_all(*r.type_guard);
  if (r.try_catch_pattern) add_all(*r.try_catch_pattern);
  return ok;
}

// "" when the code is acceptable, else why not.
std::string code_problem(const std::string& field, const std::string& code, const std::set<std::string>& allowed) {
  if (code.size() > k_max_text) return "too long";
  if (!parses_as_python(code)) return "does not parse as Python";
  if (field == "exampleFix" && (code.find("# before") == std::string::npos || code.find("# after") == std::string::npos))
    return "lacks the '# before' and '# after' parts";
  CodeNames names = code_names(code);
  for (const auto& n : names.used) {
    if (is_python_builtin(n) || allowed.count(n)) continue;
    if (std::find(names.bound.begin(), names.bound.end(), n) != names.bound.end()) continue;
    return "uses `" + n + "`, which is neither in the source excerpt nor bound by the code";
  }
  return {};
}

struct HttpResult {
  int status = 0;
  std::string body;
  std::string error;  // transport failure, "" when an HTTP answer came back
  bool timed_out = false;
  int retry_after_ms = -1;
};

HttpResult post_json(const LlmEndpoint& ep, const std::string& body, int timeout_ms) {
  HttpResult out;
  net::io_context ioc;
  tcp::resolver resolver(ioc);
  beast::error_code ec;
  auto endpoints = resolver.resolve(ep.host, ep.port, ec);
  if (ec) {
    out.error = "cannot resolve " + ep.host + ": " + ec.message();
    return out;
  }
  beast::tcp_stream stream(ioc);
  http::request<http::string_body> req{http::verb::post, ep.target, 11};
  req.set(http::field::host, ep.host);
  req.set(http::field::content_type, "application/json");
  req.set(http::field::user_agent, "errdex");
  if (const char* key = std::getenv("ERRDEX_LLM_API_KEY"); key && *key)
    req.set(http::field::authorization, std::string("Bearer ") + key);
  req.body() = body;
  req.prepare_payload();
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(k_max_body);
  auto fail = [&](beast::error_code e, const char* what) {
    out.timed_out = e == beast::error::timeout;
    out.error = out.timed_out ? "timed out after " + std::to_string(timeout_ms) + " ms" : std::string(what) + ": " + e.message();
  };
  // One deadline for connect, write and read together.
  stream.expires_after(std::chrono::milliseconds(timeout_ms));
  stream.async_connect(endpoints, [&](beast::error_code e, const tcp::endpoint&) {
    if (e) return fail(e, "connect");
    http::async_write(stream, req, [&](beast::error_code e2, std::size_t) {
      if (e2) return fail(e2, "send");
      http::async_read(stream, buffer, parser, [&](beast::error_code e3, std::size_t) {
        if (e3) return fail(e3, "receive");
        auto& res = parser.get();
        out.status = static_cast<int>(res.result_int());
        out.body = std::move(res.body());
        auto ra = res.find(http::field::retry_after);
        if (ra != res.end()) {
          std::string v(ra->value());
          if (!v.empty() && v.size() < 6 && std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
            out.retry_after_ms = std::stoi(v) * 1000;
        }
      });
    });
  });
  ioc.run();
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
  return out;
}

// The assistant message of a chat completions response, or an error.
Expected<std::string> message_content(const std::string& body) {
  Json j = Json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Error{"the server's response is not JSON"};
  auto choices = j.find("choices");
  if (choices == j.end() || !choices->is_array() || choices->empty()) return Error{"the response has no choices"};
  const Json& c = (*choices)[0];
  if (!c.is_object() || !c.contains("message") || !c["message"].is_object() || !c["message"].contains("content") ||
      !c["message"]["content"].is_string())
    return Error{"the response has no message content"};
  return c["message"]["content"].get<std::string>();
}

}  // namespace

Expected<LlmEndpoint> parse_llm_url(const std::string& url) {
  const std::string scheme = "http://";
  if (url.compare(0, scheme.size(), scheme) != 0)
    return Error{"--llm-url must start with http:// (https is not supported; put a local proxy in front), got '" + url + "'"};
  std::string rest = url.substr(scheme.size());
  auto slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  std::string path = slash == std::string::npos ? "" : rest.substr(slash);
  LlmEndpoint ep;
  ep.port = "80";
  if (!authority.empty() && authority.front() == '[') {  // [::1]:8080
    auto close = authority.find(']');
    if (close == std::string::npos) return Error{"--llm-url has an unclosed IPv6 address: '" + url + "'"};
    ep.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return Error{"--llm-url: bad authority '" + authority + "'"};
      ep.port = authority.substr(close + 2);
    }
  } else {
    auto colon = authority.rfind(':');
    ep.host = authority.substr(0, colon);
    if (colon != std::string::npos) ep.port = authority.substr(colon + 1);
  }
  if (ep.host.empty()) return Error{"--llm-url has no host: '" + url + "'"};
  if (ep.port.empty() || ep.port.size() > 5 || !std::all_of(ep.port.begin(), ep.port.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      std::stoi(ep.port) == 0 || std::stoi(ep.port) > 65535)
    return Error{"--llm-url has a bad port: '" + url + "'"};
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (path.size() >= 17 && path.compare(path.size() - 17, 17, "/chat/completions") == 0) ep.target = path;
  else if (path.size() >= 3 && path.compare(path.size() - 3, 3, "/v1") == 0) ep.target = path + "/chat/completions";
  else ep.target = path + "/v1/chat/completions";
  return ep;
}

std::string llm_prompt(const model::ThrowSite& s, const model::ErrorRecord& r) {
  nlohmann::ordered_json facts;
  facts["repo"] = r.repo;
  facts["file"] = r.file_path;
  facts["line"] = r.line_number;
  facts["kind"] = s.kind;
  facts["errorClass"] = r.error_class;
  facts["errorType"] = r.error_type;
  facts["message"] = r.error_message;
  facts["function"] = s.function;
  facts["parameters"] = s.function_params;
  facts["decorators"] = s.decorators;
  facts["class"] = s.class_name;
  facts["classBases"] = s.class_bases;
  facts["docstring"] = s.function_doc.substr(0, 2000);
  facts["classDocstring"] = s.class_doc.substr(0, 1000);
  nlohmann::ordered_json guards = nlohmann::ordered_json::array();
  for (const auto& g : s.guards) guards.push_back({{"kind", g.kind}, {"condition", g.condition}, {"line", g.line}});
  facts["guards"] = guards;
  facts["cause"] = s.cause;
  nlohmann::ordered_json lints = nlohmann::ordered_json::array();
  for (const auto& l : r.lints) lints.push_back({{"rule", l.rule}, {"message", l.message}});
  facts["lints"] = lints;
  facts["sourceExcerpt"] = r.source_code;
  // The record's evidence, as the record carries it.
  if (!r.evidence.empty()) {
    nlohmann::ordered_json ev = nlohmann::ordered_json::parse(model::to_json(r), nullptr, false);
    if (ev.is_object() && ev.contains("evidence")) facts["evidence"] = ev["evidence"];
  }
  nlohmann::ordered_json draft;
  draft["documentation"] = r.documentation;
  draft["triggerScenarios"] = r.trigger_scenarios;
  draft["commonSituations"] = r.common_situations;
  draft["solutions"] = r.solutions;
  draft["exampleFix"] = r.example_fix;
  draft["handlingStrategy"] = r.handling_strategy;
  draft["validationCode"] = r.validation_code ? nlohmann::ordered_json(*r.validation_code) : nullptr;
  draft["typeGuard"] = r.type_guard ? nlohmann::ordered_json(*r.type_guard) : nullptr;
  draft["tryCatchPattern"] = r.try_catch_pattern ? nlohmann::ordered_json(*r.try_catch_pattern) : nullptr;
  draft["preventionTips"] = r.prevention_tips;
  draft["tags"] = r.tags;
  nlohmann::ordered_json msg = {{"facts", facts}, {"draft", draft}};
  return msg.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string llm_cache_key(const LlmOptions& o, const std::string& prompt) {
  std::string key = std::to_string(k_prompt_version) + '\0' + o.model + '\0' + k_system_prompt + '\0' + prompt;
  return util::hex64(util::fnv1a64(key)) + util::hex64(util::fnv1a64(key, 0x84222325cbf29ce4ULL));
}

std::vector<std::string> apply_llm_answer(const std::string& content, model::ErrorRecord& r,
                                          std::vector<std::string>& rejected) {
  std::vector<std::string> accepted;
  Json j = Json::parse(strip_fences(content), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    rejected.push_back("answer: not a JSON object");
    return accepted;
  }
  auto reject = [&](const std::string& f, const std::string& why) { rejected.push_back(f + ": " + why); };
  for (const auto& f : prose_fields()) {
    auto it = j.find(f);
    if (it == j.end() || it->is_null()) continue;
    if (!it->is_string() || it->get<std::string>().find_first_not_of(" \n\t") == std::string::npos) {
      reject(f, "not a non-empty string");
      continue;
    }
    if (it->get<std::string>().size() > k_max_text || !util::is_valid_utf8(it->get<std::string>())) {
      reject(f, "too long or not UTF-8");
      continue;
    }
    *prose_slot(r, f) = it->get<std::string>();
    accepted.push_back(f);
  }
  for (const auto& f : list_fields()) {
    auto it = j.find(f);
    if (it == j.end() || it->is_null()) continue;
    bool ok = it->is_array() && !it->empty() && it->size() <= k_max_items;
    std::vector<std::string> items;
    if (ok)
      for (const auto& v : *it) {
        if (!v.is_string() || v.get<std::string>().empty() || v.get<std::string>().size() > 1000 ||
            !util::is_valid_utf8(v.get<std::string>())) {
          ok = false;
          break;
        }
        items.push_back(f == "tags" ? util::to_lower_ascii(v.get<std::string>()) : v.get<std::string>());
      }
    if (!ok) {
      reject(f, "not an array of 1 to " + std::to_string(k_max_items) + " non-empty strings");
      continue;
    }
    *list_slot(r, f) = std::move(items);
    accepted.push_back(f);
  }
  if (auto it = j.find("handlingStrategy"); it != j.end() && !it->is_null()) {
    static const std::set<std::string> k_strategies = {"validation", "type-guard", "retry", "fallback", "upgrade", "propagate"};
    if (it->is_string() && k_strategies.count(it->get<std::string>())) {
      r.handling_strategy = it->get<std::string>();
      accepted.push_back("handlingStrategy");
    } else {
      reject("handlingStrategy", "not one of validation, type-guard, retry, fallback, upgrade, propagate");
    }
  }
  // Names are checked against the excerpt and the static draft's code as
  // it was before any code field of this answer replaced it.
  const std::set<std::string> allowed = allowed_names(r);
  for (const auto& f : code_fields()) {
    auto it = j.find(f);
    if (it == j.end() || it->is_null()) continue;  // no opinion: the draft stays
    if (!it->is_string()) {
      reject(f, "not a string");
      continue;
    }
    std::string code = it->get<std::string>();
    if (std::string why = code_problem(f, code, allowed); !why.empty()) {
      reject(f, why);
      continue;
    }
    if (f == "exampleFix") r.example_fix = code;
    else if (f == "validationCode") r.validation_code = code;
    else if (f == "typeGuard") r.type_guard = code;
    else r.try_catch_pattern = code;
    accepted.push_back(f);
  }
  return accepted;
}

LlmStats run_llm_analyst(const LlmOptions& o, std::vector<LlmJob>& jobs, AnswerCache& cache,
                         const std::string& analyzed_at, const std::function<void()>& done) {
  LlmStats stats;
  auto ep = parse_llm_url(o.url);
  std::mutex mu;
  auto problem = [&](std::string p) {
    std::lock_guard<std::mutex> lock(mu);
    if (stats.problems.size() < k_max_problems) stats.problems.push_back(std::move(p));
  };
  if (!ep) {
    stats.failed = jobs.size();
    problem(ep.error());
    return stats;
  }
  std::atomic<std::size_t> next{0}, requests{0}, hits{0}, rewritten{0}, accepted_n{0}, rejected_n{0}, failed{0};

  auto one = [&](LlmJob& job) {
    model::ErrorRecord& r = *job.record;
    std::string where = r.file_path + ":" + std::to_string(r.line_number);
    std::string prompt = llm_prompt(*job.site, r);
    std::string key = llm_cache_key(o, prompt);
    std::optional<std::string> content = cache.get(key);
    if (content) {
      ++hits;
    } else {
      Json req = {{"model", o.model},
                  {"temperature", 0},
                  {"response_format", {{"type", "json_object"}}},
                  {"messages", Json::array({{{"role", "system"}, {"content", k_system_prompt}},
                                            {{"role", "user"}, {"content", prompt}}})}};
      std::string body = req.dump(-1, ' ', false, Json::error_handler_t::replace);
      for (int attempt = 0;; ++attempt) {
        ++requests;
        HttpResult res = post_json(*ep, body, o.timeout_ms);
        bool retryable = res.error.empty() && (res.status == 429 || res.status >= 500);
        if (retryable && attempt < o.max_retries) {
          long wait = static_cast<long>(o.backoff_ms) << attempt;
          if (res.retry_after_ms >= 0 && res.retry_after_ms <= k_max_retry_after_ms) wait = res.retry_after_ms;
          std::this_thread::sleep_for(std::chrono::milliseconds(wait));
          continue;
        }
        if (!res.error.empty()) {
          problem(where + ": " + res.error);
        } else if (res.status != 200) {
          problem(where + ": HTTP " + std::to_string(res.status));
        } else if (auto c = message_content(res.body); !c) {
          problem(where + ": " + c.error());
        } else {
          content = *c;
          // An answer is cached even when it fails validation: the same
          // prompt to the same model gives the same answer at temperature 0.
          cache.put(key, *content);
        }
        break;
      }
    }
    if (!content) {
      ++failed;
      return;
    }
    std::vector<std::string> rejected;
    std::vector<std::string> accepted = apply_llm_answer(*content, r, rejected);
    accepted_n += accepted.size();
    rejected_n += rejected.size();
    for (const auto& why : rejected) problem(where + ": " + why);
    if (accepted.empty()) {
      if (!rejected.empty() && rejected.front().rfind("answer:", 0) == 0) ++failed;
      return;
    }
    ++rewritten;
    r.analysis = model::Analysis{"llm", o.model, k_prompt_version, std::move(accepted), analyzed_at};
  };

  int n = std::max(1, std::min<int>(o.concurrency, static_cast<int>(jobs.size())));
  auto worker = [&] {
    for (std::size_t i; (i = next++) < jobs.size();) {
      one(jobs[i]);
      if (done) done();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < n; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  stats.requests = requests;
  stats.cache_hits = hits;
  stats.rewritten = rewritten;
  stats.fields_accepted = accepted_n;
  stats.fields_rejected = rejected_n;
  stats.failed = failed;
  return stats;
}

}  // namespace errdex::analyze
