#pragma once
// gzip (RFC 1952) for responses sent with Content-Encoding: gzip.
#include <string>
#include <string_view>

namespace errdex::web {

// `data` compressed as one gzip member. Thread-safe.
std::string gzip_compress(std::string_view data);

// True when an Accept-Encoding header value accepts gzip (and does not give
// it q=0).
bool accepts_gzip(std::string_view accept_encoding);

}  // namespace errdex::web
