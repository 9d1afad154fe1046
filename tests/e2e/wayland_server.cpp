#include "e2e/wayland_server.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wayland-client.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <vector>

#include "tools/common/png_io.h"

namespace kiln::test {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSocketName = "kiln-test";

std::string find_program(const char* name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = dirs.find(':', start);
    const std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return "";
}

// Runs `argv` with the compositor's environment in `cwd`; its exit status, or -1 after 10 s.
int run_client(const std::vector<std::string>& argv, const std::string& runtime_dir, const std::string& cwd) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(cwd.c_str()) != 0) _exit(126);
    setenv("XDG_RUNTIME_DIR", runtime_dir.c_str(), 1);
    setenv("WAYLAND_DISPLAY", kSocketName, 1);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  if (pid < 0) return -1;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

bool WestonServer::installed() { return !find_program("weston").empty(); }

bool WestonServer::start(std::string* error, int width, int height) {
  const std::string weston = find_program("weston");
  if (weston.empty()) {
    *error = "weston not found in PATH (Debian package weston: scripts/install-deps.sh)";
    return false;
  }
  std::string pattern = (fs::temp_directory_path() / "kiln-weston-XXXXXX").string();
  if (!mkdtemp(pattern.data())) {
    *error = "mkdtemp failed";
    return false;
  }
  runtime_dir_ = pattern;  // mkdtemp makes it 0700, as XDG_RUNTIME_DIR must be
  socket_path_ = runtime_dir_ + "/" + kSocketName;
  const std::string log = "--log=" + runtime_dir_ + "/weston.log";
  const std::string w = "--width=" + std::to_string(width), h = "--height=" + std::to_string(height);
  const std::string output = runtime_dir_ + "/weston.out";  // weston's and its helper clients' chatter
  pid_ = fork();
  if (pid_ == 0) {
    const int out_fd = open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out_fd >= 0) {
      dup2(out_fd, STDOUT_FILENO);
      dup2(out_fd, STDERR_FILENO);
    }
    setenv("XDG_RUNTIME_DIR", runtime_dir_.c_str(), 1);
    unsetenv("WAYLAND_DISPLAY");
    unsetenv("DISPLAY");
    execl(weston.c_str(), "weston", "--backend=headless-backend.so", "--use-pixman", "--debug", "--idle-time=0", "--socket=kiln-test", w.c_str(), h.c_str(), log.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  if (pid_ < 0) {
    *error = "fork failed";
    return false;
  }
  // Ready once a client gets through a round trip (the socket exists before the shell is loaded,
  // so also wait for the shell's global).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;
      *error = "weston exited at start (see its log in " + runtime_dir_ + ")";
      return false;
    }
    if (wl_display* display = wl_display_connect(socket_path_.c_str())) {
      bool shell = false;
      wl_registry* registry = wl_display_get_registry(display);
      static const wl_registry_listener listener = {
          [](void* data, wl_registry*, uint32_t, const char* interface, uint32_t) {
            if (std::string(interface) == "xdg_wm_base") *static_cast<bool*>(data) = true;
          },
          [](void*, wl_registry*, uint32_t) {}};
      wl_registry_add_listener(registry, &listener, &shell);
      const bool ok = wl_display_roundtrip(display) >= 0;
      wl_registry_destroy(registry);
      wl_display_disconnect(display);
      if (ok && shell) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  *error = "weston did not accept clients within 10 s";
  kill_now();
  return false;
}

bool WestonServer::screenshot(RgbImage* out, std::string* error) {
  const std::string screenshooter = find_program("weston-screenshooter");
  if (screenshooter.empty()) {
    *error = "weston-screenshooter not found";
    return false;
  }
  const fs::path dir = fs::path(runtime_dir_) / ("shot-" + std::to_string(screenshots_++));
  fs::create_directory(dir);
  if (run_client({screenshooter}, runtime_dir_, dir.string()) != 0) {
    *error = "weston-screenshooter failed";
    return false;
  }
  for (const auto& entry : fs::directory_iterator(dir)) {
    uint32_t width = 0, height = 0;
    std::vector<uint8_t> rgba;
    if (!png::read_rgba8(entry.path().string(), &width, &height, &rgba)) continue;
    out->width = width;
    out->height = height;
    out->rgb.resize(size_t(width) * height * 3);
    for (size_t i = 0; i < size_t(width) * height; ++i)
      for (int c = 0; c < 3; ++c) out->rgb[i * 3 + c] = rgba[i * 4 + c];
    return true;
  }
  *error = "weston-screenshooter wrote no PNG";
  return false;
}

void WestonServer::kill_now() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

WestonServer::~WestonServer() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
  if (!runtime_dir_.empty()) {
    std::error_code ignored;
    fs::remove_all(runtime_dir_, ignored);
  }
}

}  // namespace kiln::test
