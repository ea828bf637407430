// errdex migrate: the store's schema brought to this build's version.
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/store_url.h"

namespace errdex::cli {

int run_migrate(const std::string& db) {
  // A sqlite: file's folder is made first, as by any command that writes;
  // the file itself is left to migrate_store, which says what it did.
  make_store_folder(db);
  auto done = store::migrate_store(db);
  if (!done) {
    std::cerr << "errdex migrate: " << done.error() << "\n";
    return 2;
  }
  std::printf("%s\n", done->c_str());
  return 0;
}

}  // namespace errdex::cli
