#pragma once
// The classes a repository defines, for resolving a custom exception to the
// built-in class it derives from: `ConfigError(ValueError)` is a ValueError.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/throw_site.h"

namespace errdex::analyze {

class ClassIndex {
 public:
  // Adds the classes of one file. Call for every file before resolving;
  // not thread-safe while adding, safe for concurrent `resolve` after.
  void add(std::string_view file_path, const std::vector<model::ClassDef>& classes);

  struct Resolution {
    // The chain from the class to the first built-in exception, both
    // included: {"ConfigError", "AppError", "ValueError"}. Only the class
    // itself when nothing is known about it.
    std::vector<std::string> chain;
    // The built-in the chain ends in, "" when it never reaches one.
    std::string builtin;
    // Where the class is defined ("pkg/errors.py:3"), "" when not in the index.
    std::string defined_at;
  };
  // Resolves a class as written at a raise in `file_path`
  // (`errors.ConfigError` is looked up by its last component). A name
  // defined in several files resolves to the definition in `file_path`, or
  // not at all: `error` means different classes in different modules.
  // Cycles and chains deeper than 16 stop the walk.
  Resolution resolve(std::string_view error_class, std::string_view file_path = {}) const;

  std::size_t size() const { return m_classes.size(); }

 private:
  struct Entry {
    std::vector<std::string> bases;
    std::string file;
    std::string defined_at;
  };
  // By simple name; a name defined in several files keeps every definition.
  std::multimap<std::string, Entry, std::less<>> m_classes;
};

}  // namespace errdex::analyze
