#include "e2e/x11_server.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace kiln::test {

namespace {
std::string find_xvfb() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = dirs.find(':', start);
    const std::string candidate = dirs.substr(start, end - start) + "/Xvfb";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return "";
}
}  // namespace

bool XvfbServer::start(std::string* error, int width, int height, int depth) {
  const std::string xvfb = find_xvfb();
  if (xvfb.empty()) {
    *error = "Xvfb not found in PATH (install the Debian package xvfb: scripts/install-deps.sh)";
    return false;
  }
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    *error = "pipe failed";
    return false;
  }
  const std::string fd_arg = std::to_string(fds[1]);
  const std::string screen = std::to_string(width) + "x" + std::to_string(height) + "x" + std::to_string(depth);
  pid_ = fork();
  if (pid_ == 0) {
    fcntl(fds[1], F_SETFD, 0);  // the display number goes out through this one
    const int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0) dup2(null_fd, STDERR_FILENO);
    execl(xvfb.c_str(), "Xvfb", "-displayfd", fd_arg.c_str(), "-screen", "0", screen.c_str(), "-nolisten", "tcp",
          "-noreset", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  if (pid_ < 0) {
    close(fds[0]);
    *error = "fork failed";
    return false;
  }
  // Xvfb writes "<display>\n" once it accepts connections.
  std::string number;
  pollfd p{fds[0], POLLIN, 0};
  while (poll(&p, 1, 10'000) > 0) {
    char c;
    if (read(fds[0], &c, 1) != 1 || c == '\n') break;
    number += c;
  }
  close(fds[0]);
  if (number.empty()) {
    *error = "Xvfb did not report a display within 10 s";
    kill_now();
    return false;
  }
  display_ = ":" + number;
  return true;
}

void XvfbServer::kill_now() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

XvfbServer::~XvfbServer() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  waitpid(pid_, nullptr, 0);
}

}  // namespace kiln::test
