#include "util/text.h"

#include <iconv.h>

#include <bit>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>

namespace errdex::util {

std::uint64_t fnv1a64(std::string_view data, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::uint64_t mix64(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

std::string content_key(std::string_view data) {
  constexpr std::uint64_t k1 = 0x9e3779b97f4a7c15ULL, k2 = 0xc2b2ae3d27d4eb4fULL;
  std::uint64_t a = 0x243f6a8885a308d3ULL, b = 0x13198a2e03707344ULL;
  auto word = [&](std::size_t i) {
    std::uint64_t w = 0;
    for (int k = 0; k < 8; ++k) w |= std::uint64_t(static_cast<unsigned char>(data[i + k])) << (8 * k);
    return w;
  };
  std::size_t i = 0;
  for (; i + 8 <= data.size(); i += 8) {
    const std::uint64_t w = word(i);
    a = std::rotl((a ^ w) * k1, 29);
    b = std::rotl((b + w) * k2, 31) ^ a;
  }
  std::uint64_t tail = 0;
  for (std::size_t k = 0; i + k < data.size(); ++k)
    tail |= std::uint64_t(static_cast<unsigned char>(data[i + k])) << (8 * k);
  a = mix64(a ^ tail ^ data.size());
  b = mix64(b + tail * k1 + a);
  return hex64(a) + hex64(b) + ':' + std::to_string(data.size());
}

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

void append_utf8(std::uint32_t cp, std::string& out) {
  if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) cp = 0xFFFD;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string percent_encode(std::string_view s, std::string_view kept) {
  static constexpr char k_hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~' || kept.find(c) != kept.npos) {
      out += c;
    } else {
      out += '%';
      out += k_hex[u >> 4];
      out += k_hex[u & 15];
    }
  }
  return out;
}

namespace {

// An iconv descriptor from `charset` to UTF-8, or (iconv_t)-1.
iconv_t open_to_utf8(std::string_view charset) {
  const auto none = reinterpret_cast<iconv_t>(-1);
  if (charset.empty() || charset.size() > 40) return none;
  for (char c : charset)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.' && c != ':') return none;
  iconv_t cd = iconv_open("UTF-8", std::string(charset).c_str());
  if (cd != none) return cd;
  std::string bare;
  for (char c : charset)
    if (c != '-' && c != '_') bare += c;
  return iconv_open("UTF-8", bare.c_str());
}

}  // namespace

bool known_charset(std::string_view charset) {
  iconv_t cd = open_to_utf8(charset);
  if (cd == reinterpret_cast<iconv_t>(-1)) return false;
  iconv_close(cd);
  return true;
}

std::optional<std::string> to_utf8(std::string_view bytes, std::string_view charset) {
  iconv_t cd = open_to_utf8(charset);
  if (cd == reinterpret_cast<iconv_t>(-1)) return std::nullopt;
  std::string in_copy(bytes);
  std::string out(bytes.size() * 4 + 16, '\0');
  char* in = in_copy.data();
  std::size_t in_left = in_copy.size();
  char* dst = out.data();
  std::size_t out_left = out.size();
  std::size_t rc = iconv(cd, &in, &in_left, &dst, &out_left);
  iconv_close(cd);
  if (rc == static_cast<std::size_t>(-1) || in_left != 0) return std::nullopt;
  out.resize(out.size() - out_left);
  if (!is_valid_utf8(out)) return std::nullopt;
  return out;
}

std::string escaped_excerpt(std::string_view s, std::size_t max_chars) {
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string out;
  std::size_t shown = 0, i = 0;
  for (; i < s.size() && shown < max_chars; ++shown) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      if (std::size_t n = utf8_length_at(s, i); n > 1) {
        out.append(s.substr(i, n));
        i += n;
        continue;
      }
    }
    ++i;
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c >= 0x7f) {
      out += "\\x";
      out += k_hex[c >> 4];
      out += k_hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (i < s.size()) out += "…";
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool read_hex(std::string_view s, std::size_t i, std::size_t n, std::uint32_t& v) {
  if (i + n > s.size()) return false;
  v = 0;
  for (std::size_t k = 0; k < n; ++k) {
    int h = hex_value(s[i + k]);
    if (h < 0) return false;
    v = v * 16 + static_cast<std::uint32_t>(h);
  }
  return true;
}

std::size_t append_python_escape(std::string_view body, std::size_t i, bool bytes, std::string& out) {
  const std::size_t n = body.size();
  const char e = body[i + 1];
  i += 2;
  switch (e) {
    case '\\': out += '\\'; break;
    case '\'': out += '\''; break;
    case '"': out += '"'; break;
    case 'a': out += '\a'; break;
    case 'b': out += '\b'; break;
    case 'f': out += '\f'; break;
    case 'n': out += '\n'; break;
    case 'r': out += '\r'; break;
    case 't': out += '\t'; break;
    case 'v': out += '\v'; break;
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
      std::uint32_t v = static_cast<std::uint32_t>(e - '0');
      for (int k = 0; k < 2 && i < n && body[i] >= '0' && body[i] <= '7'; ++k, ++i)
        v = v * 8 + static_cast<std::uint32_t>(body[i] - '0');
      append_utf8(v, out);
      break;
    }
    case 'x':
    case 'u':
    case 'U': {
      const std::size_t len = e == 'x' ? 2 : e == 'u' ? 4 : 8;
      std::uint32_t v = 0;
      if ((e == 'x' || !bytes) && read_hex(body, i, len, v)) {
        append_utf8(v, out);
        i += len;
      } else {
        out += '\\';
        out += e;
      }
      break;
    }
    default:  // unknown escapes stay as written
      out += '\\';
      out += e;
      break;
  }
  return i;
}

std::size_t utf8_length_at(std::string_view s, std::size_t i) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data()) + i;
  const std::size_t left = s.size() - i;
  unsigned char c = *p;
  if (c < 0x80) return 1;
  std::size_t n;
  std::uint32_t cp;
  if ((c & 0xE0) == 0xC0) { n = 1; cp = c & 0x1F; }
  else if ((c & 0xF0) == 0xE0) { n = 2; cp = c & 0x0F; }
  else if ((c & 0xF8) == 0xF0) { n = 3; cp = c & 0x07; }
  else return 0;
  if (left <= n) return 0;
  for (std::size_t k = 1; k <= n; ++k) {
    if ((p[k] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[k] & 0x3F);
  }
  if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000)) return 0;
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n + 1;
}

bool is_valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = utf8_length_at(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

bool looks_binary(std::string_view s) {
  s = s.substr(0, 64 * 1024);
  std::size_t odd = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == 0) return true;
    // Tab, newlines, form feed, backspace, bell and the escape that starts
    // a terminal colour are what logs hold; other C0 controls and DEL are not.
    const bool control = (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != '\b' &&
                          c != '\a' && c != 0x1b) ||
                         c == 0x7f;
    std::size_t n = utf8_length_at(s, i);
    if (control || n == 0) ++odd;
    i += n == 0 ? 1 : n;
  }
  // A log with a few Latin-1 bytes is text; a tenth of odd bytes is not.
  return odd * 10 > s.size();
}

std::optional<std::string> from_utf16(std::string_view s) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  bool little = true;
  std::size_t start = 0;
  if (s.size() >= 2 && byte(0) == 0xFF && byte(1) == 0xFE) {
    start = 2;
  } else if (s.size() >= 2 && byte(0) == 0xFE && byte(1) == 0xFF) {
    little = false;
    start = 2;
  } else {
    // No mark: ASCII text in UTF-16 has a NUL in every other byte.
    if (s.size() < 4) return std::nullopt;
    std::size_t pairs = s.size() / 2, odd_nul = 0, even_nul = 0;
    for (std::size_t i = 0; i + 1 < s.size(); i += 2) {
      even_nul += byte(i) == 0;
      odd_nul += byte(i + 1) == 0;
    }
    if (odd_nul * 10 >= pairs * 9 && even_nul * 10 < pairs) little = true;
    else if (even_nul * 10 >= pairs * 9 && odd_nul * 10 < pairs) little = false;
    else return std::nullopt;
  }
  std::string out;
  out.reserve(s.size() / 2);
  for (std::size_t i = start; i + 1 < s.size(); i += 2) {
    std::uint32_t unit = little ? byte(i) | (byte(i + 1) << 8) : (byte(i) << 8) | byte(i + 1);
    if (unit >= 0xD800 && unit <= 0xDBFF && i + 3 < s.size()) {
      std::uint32_t low = little ? byte(i + 2) | (byte(i + 3) << 8) : (byte(i + 2) << 8) | byte(i + 3);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        append_utf8(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), out);
        i += 2;
        continue;
      }
    }
    append_utf8(unit, out);  // a lone surrogate becomes U+FFFD
  }
  return out;
}

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    auto nl = s.find('\n', start);
    if (nl == std::string_view::npos) {
      if (start < s.size()) out.push_back(s.substr(start));
      break;
    }
    out.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

std::string iso_now_ms() {
  using namespace std::chrono;
  auto now = system_clock::now();
  auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  std::time_t t = system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

std::string to_lower_ascii(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

namespace {

// Where a version's rest stands against the release it follows: a
// pre-release (`rc1`, `-beta.2`, `.dev0`, `a1`) before it, in PEP 440's
// order of dev, alpha, beta, candidate; nothing the release itself; a
// post-release (`.post0`) after it, and more (`.1`, `-2`, any other word)
// after that.
int release_rank(std::string_view rest) {
  if (rest.empty()) return 4;
  std::size_t i = 0;
  if (rest[0] == '-' || rest[0] == '.' || rest[0] == '_' || rest[0] == '~') i = 1;
  std::string word;
  while (i < rest.size() && std::isalpha(static_cast<unsigned char>(rest[i])))
    word += static_cast<char>(std::tolower(static_cast<unsigned char>(rest[i++])));
  if (word == "dev") return 0;
  if (word == "a" || word == "alpha") return 1;
  if (word == "b" || word == "beta") return 2;
  if (word == "c" || word == "rc" || word == "pre" || word == "preview") return 3;
  if (word == "post" || word == "rev" || word == "r") return 5;
  return 6;
}

}  // namespace

bool version_less(std::string_view a, std::string_view b) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  std::size_t i = 0, j = 0;
  // At the start of a word (not inside one), what follows ranks first:
  // "3.0.0rc1" < "3.0.0" < "3.0.0.post0" < "3.0.1".
  auto ranked = [&](int& order) {
    if (i > 0 && letter(a[i - 1])) return false;
    const int ra = release_rank(a.substr(i)), rb = release_rank(b.substr(j));
    if (ra == rb) return false;
    order = ra < rb;
    return true;
  };
  int order = 0;
  while (i < a.size() && j < b.size()) {
    if (ranked(order)) return order;
    if (digit(a[i]) && digit(b[j])) {
      std::size_t ei = i, ej = j;
      while (ei < a.size() && digit(a[ei])) ++ei;
      while (ej < b.size() && digit(b[ej])) ++ej;
      // Leading zeros aside, the longer run is the larger number.
      std::string_view x = a.substr(i, ei - i), y = b.substr(j, ej - j);
      while (x.size() > 1 && x[0] == '0') x.remove_prefix(1);
      while (y.size() > 1 && y[0] == '0') y.remove_prefix(1);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = ei;
      j = ej;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  if (ranked(order)) return order;
  return a.size() - i < b.size() - j;
}

std::string collapse_ws(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool contains_word(std::string_view text, std::string_view word) {
  if (word.empty()) return false;
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool left = at == 0 || !is_word_char(text[at - 1]);
    const bool right = at + word.size() >= text.size() || !is_word_char(text[at + word.size()]);
    if (left && right) return true;
  }
  return false;
}

std::string_view python_module_stem(std::string_view path) {
  auto slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (name == "__init__.py" && slash != std::string_view::npos) return python_module_stem(path.substr(0, slash));
  if (name.ends_with(".py")) name.remove_suffix(3);
  return name;
}

std::string_view dir_of(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

std::optional<std::string> join_path(std::string_view dir, std::string_view spec) {
  std::vector<std::string_view> parts;
  auto push = [&](std::string_view s) {
    std::size_t start = 0;
    while (start <= s.size()) {
      auto slash = s.find('/', start);
      std::string_view p = s.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
      if (p == "..") {
        if (parts.empty()) return false;
        parts.pop_back();
      } else if (!p.empty() && p != ".") {
        parts.push_back(p);
      }
      if (slash == std::string_view::npos) break;
      start = slash + 1;
    }
    return true;
  };
  if (!push(dir) || !push(spec)) return std::nullopt;
  std::string out;
  for (auto p : parts) {
    if (!out.empty()) out += '/';
    out.append(p);
  }
  return out;
}

}  // namespace errdex::util
