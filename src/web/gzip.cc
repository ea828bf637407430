#include "web/gzip.h"

#include <zlib.h>

#include <cctype>
#include <stdexcept>

namespace errdex::web {

std::string gzip_compress(std::string_view data) {
  z_stream zs{};
  // 15 + 16: a gzip header and trailer around the deflate stream.
  if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib: deflateInit2 failed");
  std::string out(deflateBound(&zs, data.size()), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw std::runtime_error("zlib: deflate failed");
  return out;
}

bool accepts_gzip(std::string_view v) {
  std::size_t start = 0;
  while (start < v.size()) {
    auto comma = v.find(',', start);
    std::string_view item = v.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    start = comma == std::string_view::npos ? v.size() : comma + 1;
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    auto semi = item.find(';');
    std::string_view coding = item.substr(0, semi);
    while (!coding.empty() && coding.back() == ' ') coding.remove_suffix(1);
    std::string lower;
    for (char c : coding) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower != "gzip" && lower != "*") continue;
    if (semi != std::string_view::npos) {
      auto q = item.find("q=", semi);
      if (q != std::string_view::npos) {
        std::string_view qv = item.substr(q + 2);
        bool zero = !qv.empty() && qv[0] == '0';
        for (std::size_t i = 1; zero && i < qv.size(); ++i)
          if (qv[i] != '.' && qv[i] != '0' && qv[i] != ' ') zero = false;
        if (zero) return false;
      }
    }
    return true;
  }
  return false;
}

}  // namespace errdex::web
