// errdex migrate: the store's schema brought to this build's version.
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/store_url.h"

namespace errdex::cli {

int run_migrate(const std::string& db) {
  // A sqlite: file's folder is made first, as by any command that writes.
  if (!store::is_postgresql(db))
    if (auto st = open_store_for_write(db); !st) {
      std::cerr << "errdex migrate: " << st.error() << "\n";
      return 2;
    }
  auto done = store::migrate_store(db);
  if (!done) {
    std::cerr << "errdex migrate: " << done.error() << "\n";
    return 2;
  }
  std::printf("%s\n", done->c_str());
  return 0;
}

}  // namespace errdex::cli
