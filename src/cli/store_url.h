#pragma once
// Opening the store named by --db, with the checks a command line needs.
#include <memory>
#include <string>

#include "store/store.h"
#include "util/expected.h"

namespace errdex::cli {

// The --db default: $ERRDEX_DB, else sqlite:data/errdex.db.
std::string default_db();
// Creates the folder of a sqlite: file if it is missing (nothing else).
void make_store_folder(const std::string& url);
// For commands that write: creates the folder of a sqlite file if needed,
// and refuses a store this user may not write (Store::writable) before the
// command does any work.
Expected<std::unique_ptr<store::Store>> open_store_for_write(const std::string& url);
// For commands that read: a sqlite file that does not exist is an error
// (instead of an empty store created by the look-up).
Expected<std::unique_ptr<store::Store>> open_store_for_read(const std::string& url);

}  // namespace errdex::cli
