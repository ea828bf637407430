#include "util/process.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace errdex::util {

Expected<Child> spawn_piped(const std::vector<std::string>& args, bool pipe_stderr) {
  if (args.empty()) return Error{"cannot run an empty command"};
  int out[2] = {-1, -1}, err[2] = {-1, -1};
  if (pipe(out) != 0 || (pipe_stderr && pipe(err) != 0)) {
    const int e = errno;
    for (int fd : {out[0], out[1]})
      if (fd >= 0) close(fd);
    return Error{"cannot run " + args[0] + ": pipe: " + std::strerror(e)};
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  if (pipe_stderr) posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  for (int fd : {out[0], out[1], err[0], err[1]})
    if (fd >= 0) posix_spawn_file_actions_addclose(&actions, fd);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  Child child;
  const int rc = posix_spawnp(&child.pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  for (int fd : {out[1], err[1]})
    if (fd >= 0) close(fd);
  if (rc != 0) {
    for (int fd : {out[0], err[0]})
      if (fd >= 0) close(fd);
    return Error{"cannot run " + args[0] + ": " + std::strerror(rc)};
  }
  child.out = out[0];
  child.err = err[0];
  return child;
}

std::string read_to_end(int fd) {
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  close(fd);
  return out;
}

int wait_exit(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 2;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 2;
}

}  // namespace errdex::util
