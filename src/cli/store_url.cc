#include "cli/store_url.h"

#include <cstdlib>
#include <filesystem>

namespace errdex::cli {
namespace {

std::string sqlite_path(const std::string& url) {
  return url.rfind("sqlite:", 0) == 0 ? url.substr(7) : std::string();
}

}  // namespace

std::string default_db() {
  const char* env = std::getenv("ERRDEX_DB");
  return env && *env ? env : "sqlite:data/errdex.db";
}

void make_store_folder(const std::string& url) {
  std::string path = sqlite_path(url);
  if (path.empty()) return;
  std::error_code ec;
  auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
}

Expected<std::unique_ptr<store::Store>> open_store_for_write(const std::string& url) {
  std::string path = sqlite_path(url);
  make_store_folder(url);
  auto st = store::open_store(url);
  if (!st) return st;
  if (auto w = (*st)->writable(); !w) return Error{w.error() + (path.empty() ? "" : " (" + path + ")")};
  return st;
}

Expected<std::unique_ptr<store::Store>> open_store_for_read(const std::string& url) {
  std::string path = sqlite_path(url);
  std::error_code ec;
  if (!path.empty() && !std::filesystem::exists(path, ec))
    return Error{"no database at " + path + " (run `errdex scan` or `errdex import` first)"};
  return store::open_store(url);
}

}  // namespace errdex::cli
