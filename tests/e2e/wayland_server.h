#pragma once
// A private Wayland compositor for the Wayland window-system tests: Weston's headless backend
// with the pixman renderer (so it composites shm buffers and can take screenshots: --debug
// enables weston_screenshooter) and the desktop shell (which places a toplevel anywhere on the
// output; Weston 10's kiosk shell shows nothing on the headless backend), in a fresh XDG_RUNTIME_DIR. Tests skip when weston is not installed (CI installs it:
// scripts/install-deps.sh).
#include <sys/types.h>

#include <string>

#include "e2e/wsi_fixture.h"

namespace kiln::test {

class WestonServer {
 public:
  WestonServer() = default;
  ~WestonServer();  // stops the server and removes its directory
  WestonServer(const WestonServer&) = delete;
  WestonServer& operator=(const WestonServer&) = delete;

  static bool installed();
  // Starts weston with one output of `width` x `height` and waits until its socket accepts
  // clients; false (with the reason) when it cannot.
  bool start(std::string* error, int width, int height);
  // Kills the server at once (SIGKILL): its clients see a dead connection.
  void kill_now();
  // The absolute socket path (wl_display_connect accepts it as the display name).
  const std::string& socket_path() const { return socket_path_; }
  // The whole output as RGB through weston-screenshooter; false (with the reason) when it fails.
  bool screenshot(RgbImage* out, std::string* error);

 private:
  pid_t pid_ = -1;
  std::string runtime_dir_;
  std::string socket_path_;
  int screenshots_ = 0;
};

}  // namespace kiln::test
