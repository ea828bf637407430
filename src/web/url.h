#pragma once
// Request targets: percent-decoding, query strings, and building URLs.
// Pure functions, thread-safe. Decoded text is always valid UTF-8 without
// NUL bytes, or an error.
#include <map>
#include <string>
#include <string_view>

#include "model/error_record.h"
#include "util/expected.h"

namespace errdex::web {

// %XX decoding; with `plus_is_space` ('+' → ' ') for query strings and form
// bodies. A '%' not followed by two hex digits, a NUL, or (with `utf8`) a
// result that is not valid UTF-8 is an error.
Expected<std::string> percent_decode(std::string_view s, bool plus_is_space, bool utf8 = true);

// `a=1&b=2` into a map (the last of repeated keys wins); errors as above.
// Without `utf8`, values are bytes of another charset, the caller's to
// decode (a form sent with `charset=latin-1`).
Expected<std::map<std::string, std::string>> parse_query(std::string_view query, bool utf8 = true);

// Encodes everything except unreserved characters (RFC 3986) and, when
// `keep_slash`, '/'.
std::string percent_encode(std::string_view s, bool keep_slash = false);

// The path of a record's page: /errors/{id}/{slug} ("error" when it has no
// slug), percent-encoded.
std::string record_page_path(const model::ErrorRecord& r);

// Whether `s` is an absolute http:// or https:// URL with a host, as a
// link to a page starts; nothing after the host is checked.
bool is_http_url(std::string_view s);

// A request path made safe to route: decoded, and rejected when a segment is
// "." or "..", or when it does not start with '/'.
Expected<std::string> decode_path(std::string_view raw_path);

}  // namespace errdex::web
