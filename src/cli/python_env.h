#pragma once
// What a Python interpreter has installed: its version and standard
// library, and every distribution in its environment with the files its
// RECORD lists (or, without one, the packages top_level.txt names).
#include <optional>
#include <string>
#include <vector>

#include "util/expected.h"

namespace errdex::cli {

struct Distribution {
  std::string name;     // as its metadata spells it
  std::string version;
  std::string root;     // the folder its files are relative to (site-packages)
  std::vector<std::string> files;  // its .py files, relative to root
  // An editable install: the source folder it points at, scanned whole.
  std::optional<std::string> editable;
  std::string error;  // not empty: the interpreter could not read it
};

struct PythonEnv {
  std::string version;  // "3.11.7"
  std::string stdlib;   // its folder
  std::vector<Distribution> distributions;
};

// Runs `interpreter` (a command on PATH or a path) with a short script of
// errdex's and reads its answer. Errors: it cannot be run, or answers
// something else.
Expected<PythonEnv> query_python(const std::string& interpreter);

// PEP 503's normal form: lowercase, runs of "-", "_" and "." as one "-".
std::string normalized_name(const std::string& name);

}  // namespace errdex::cli
