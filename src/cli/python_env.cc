#include "cli/python_env.h"

#include <cctype>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "util/process.h"

namespace errdex::cli {
namespace {

// Asks importlib.metadata, which reads dist-info and egg-info alike.
constexpr const char* k_query = R"py(
import json, os, sys, sysconfig
import importlib.metadata as md
from urllib.parse import unquote, urlparse
out = {"version": "%d.%d.%d" % sys.version_info[:3], "stdlib": sysconfig.get_paths()["stdlib"], "dists": []}
seen = set()
for d in md.distributions():
    name = None
    try:
        name = d.metadata["Name"]
        version = d.version
        if not name or not version or (name.lower(), version) in seen:
            continue
        seen.add((name.lower(), version))
        root = str(d.locate_file(""))
        files = sorted({str(f).replace(os.sep, "/") for f in (d.files or [])
                        if str(f).endswith(".py") and not str(f).startswith("..")})
        editable = None
        direct = d.read_text("direct_url.json")
        if direct:
            j = json.loads(direct)
            if j.get("dir_info", {}).get("editable") and j.get("url", "").startswith("file://"):
                editable = unquote(urlparse(j["url"]).path)
        if not files and not editable:
            for top in (d.read_text("top_level.txt") or "").split():
                path = os.path.join(root, top)
                if os.path.isfile(path + ".py"):
                    files.append(top + ".py")
                for base, dirs, names in os.walk(path):
                    dirs[:] = [x for x in dirs if x != "__pycache__"]
                    files += [os.path.relpath(os.path.join(base, n), root).replace(os.sep, "/")
                              for n in names if n.endswith(".py")]
        out["dists"].append({"name": name, "version": version, "root": root, "files": files, "editable": editable})
    except Exception as e:
        out["dists"].append({"name": name or "?", "version": "", "root": "", "files": [], "editable": None,
                             "error": "%s: %s" % (type(e).__name__, e)})
json.dump(out, sys.stdout)
)py";

// The standard output of argv, and its exit status.
// `quiet`: the command's standard error is read and dropped.
Expected<std::pair<std::string, int>> capture(const std::vector<std::string>& args, bool quiet = false) {
  auto child = util::spawn_piped(args, quiet);
  if (!child) return Error{child.error()};
  std::string out = util::read_to_end(child->out);
  if (quiet) static_cast<void>(util::read_to_end(child->err));
  return std::pair(std::move(out), util::wait_exit(child->pid));
}

// Asked first, in words every Python (2 too) and no other program reads
// alike: an interpreter too old for the query says so, instead of failing
// on `-I` (Python 2) or importlib.metadata (before 3.8) with its own usage
// text or traceback.
constexpr const char* k_version_query = "import sys; sys.stdout.write('%d %d %d' % tuple(sys.version_info[:3]))";

}  // namespace

std::string normalized_name(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      if (!out.empty() && out.back() != '-') out += '-';
      continue;
    }
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

Expected<PythonEnv> query_python(const std::string& interpreter) {
  // -I: the environment's own paths only, nothing of the caller's
  // PYTHONPATH or current folder.
  auto v = capture({interpreter, "-c", k_version_query}, true);
  if (!v) return Error{v.error()};
  int major = 0, minor = 0, micro = 0;
  if (v->second != 0 || std::sscanf(v->first.c_str(), "%d %d %d", &major, &minor, &micro) != 3)
    return Error{interpreter + " is not a Python interpreter: it did not tell its version (`-c 'import sys'`)"};
  if (major < 3 || (major == 3 && minor < 8))
    return Error{interpreter + " is Python " + std::to_string(major) + "." + std::to_string(minor) + "." +
                 std::to_string(micro) + ": scan --python needs Python 3.8 or later (importlib.metadata)"};
  auto got = capture({interpreter, "-I", "-c", k_query});
  if (!got) return Error{got.error()};
  if (got->second != 0) return Error{interpreter + " exited with status " + std::to_string(got->second)};
  auto j = nlohmann::json::parse(got->first, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Error{interpreter + " did not answer errdex's query"};
  try {
    PythonEnv env;
    env.version = j.at("version").get<std::string>();
    env.stdlib = j.at("stdlib").get<std::string>();
    for (const auto& d : j.at("dists")) {
      Distribution dist;
      dist.name = d.at("name").get<std::string>();
      dist.version = d.at("version").get<std::string>();
      dist.root = d.at("root").get<std::string>();
      dist.files = d.at("files").get<std::vector<std::string>>();
      if (d.at("editable").is_string()) dist.editable = d.at("editable").get<std::string>();
      dist.error = d.value("error", "");
      env.distributions.push_back(std::move(dist));
    }
    return env;
  } catch (const nlohmann::json::exception& e) {
    return Error{interpreter + " answered errdex's query in another shape: " + e.what()};
  }
}

}  // namespace errdex::cli
