#pragma once
// Child processes whose output this process reads: `errdex run`'s command,
// the interpreter `errdex scan --python` asks about its environment.
#include <sys/types.h>

#include <string>
#include <vector>

#include "util/expected.h"

namespace errdex::util {

// A started command: its pid and the read ends of the pipes its standard
// output and (when asked for) standard error go to; -1 where not piped.
struct Child {
  pid_t pid = -1;
  int out = -1;
  int err = -1;
};

// Starts `args` (args[0] looked up on PATH) with its standard output, and
// its standard error when `pipe_stderr`, going to pipes; the rest of its
// standard streams are this process's. An error ("cannot run X: reason")
// when it could not be started.
Expected<Child> spawn_piped(const std::vector<std::string>& args, bool pipe_stderr);

// Reads `fd` to its end, then closes it.
std::string read_to_end(int fd);

// Waits for `pid`: its exit status, or 128 + the signal that ended it.
int wait_exit(pid_t pid);

}  // namespace errdex::util
