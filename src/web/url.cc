#include "web/url.h"

#include "util/text.h"

namespace errdex::web {

using util::hex_value;

Expected<std::string> percent_decode(std::string_view s, bool plus_is_space, bool utf8) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%') {
      int hi = i + 1 < s.size() ? hex_value(s[i + 1]) : -1;
      int lo = i + 2 < s.size() ? hex_value(s[i + 2]) : -1;
      if (hi < 0 || lo < 0) return Error{"bad percent-encoding"};
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
      continue;
    }
    out += (plus_is_space && c == '+') ? ' ' : c;
  }
  if (out.find('\0') != std::string::npos) return Error{"NUL byte in the request"};
  if (utf8 && !util::is_valid_utf8(out)) return Error{"text is not valid UTF-8"};
  return out;
}

Expected<std::map<std::string, std::string>> parse_query(std::string_view query, bool utf8) {
  std::map<std::string, std::string> out;
  std::size_t start = 0;
  while (start <= query.size()) {
    auto amp = query.find('&', start);
    std::string_view pair = query.substr(start, amp == std::string_view::npos ? std::string_view::npos : amp - start);
    if (!pair.empty()) {
      auto eq = pair.find('=');
      auto key = percent_decode(pair.substr(0, eq), true, utf8);
      if (!key) return Error{key.error()};
      auto value = percent_decode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1), true, utf8);
      if (!value) return Error{value.error()};
      out[*key] = std::move(*value);
    }
    if (amp == std::string_view::npos) break;
    start = amp + 1;
  }
  return out;
}

std::string percent_encode(std::string_view s, bool keep_slash) { return util::percent_encode(s, keep_slash ? "/" : ""); }

Expected<std::string> decode_path(std::string_view raw) {
  if (raw.empty() || raw[0] != '/') return Error{"the path must start with /"};
  auto path = percent_decode(raw, false);
  if (!path) return path;
  std::string_view p = *path;
  std::size_t start = 1;
  while (start <= p.size()) {
    auto slash = p.find('/', start);
    std::string_view seg = p.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (seg == "." || seg == "..") return Error{"the path has a '.' or '..' segment"};
    if (seg.find('\\') != std::string_view::npos) return Error{"the path has a backslash"};
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return path;
}

std::string record_page_path(const model::ErrorRecord& r) {
  return "/errors/" + percent_encode(r.id) + "/" + percent_encode(r.slug.empty() ? "error" : r.slug);
}

bool is_http_url(std::string_view s) {
  for (std::string_view scheme : {"http://", "https://"})
    if (s.size() > scheme.size() && util::to_lower_ascii(s.substr(0, scheme.size())) == scheme)
      return s[scheme.size()] != '/' && s[scheme.size()] != '?' && s[scheme.size()] != '#';
  return false;
}

}  // namespace errdex::web
