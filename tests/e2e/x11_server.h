#pragma once
// A private X server for the X11 window-system tests: Xvfb on a display it picks itself
// (-displayfd), so tests running in parallel never share one. Xvfb is a README dependency
// (Debian package xvfb); when it is missing the tests fail rather than skip.
#include <sys/types.h>

#include <string>

namespace kiln::test {

class XvfbServer {
 public:
  XvfbServer() = default;
  ~XvfbServer();  // stops the server
  XvfbServer(const XvfbServer&) = delete;
  XvfbServer& operator=(const XvfbServer&) = delete;

  // Starts `Xvfb -screen 0 <width>x<height>x<depth>`; false (with the reason) when it cannot.
  bool start(std::string* error, int width = 320, int height = 240, int depth = 24);
  // Kills the server at once (SIGKILL): its clients see a broken connection.
  void kill_now();
  const std::string& display() const { return display_; }

 private:
  pid_t pid_ = -1;
  std::string display_;
};

}  // namespace kiln::test
