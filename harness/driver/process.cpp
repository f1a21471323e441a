#include "process.hpp"

#include "fd.hpp"
#include "lifebench/error.hpp"
#include "text.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <string>
#include <string_view>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace lifebench::driver {
namespace {

// Set by the signal handler, read by the threads that run describe processes:
// an atomic, and a lock-free one so that the handler may touch it.
std::atomic<int> g_interrupt{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_interrupt(int signal) {
  g_interrupt.store(signal);
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Pipe {
  Fd read;
  Fd write;
};

Pipe make_pipe() {
  // Close-on-exec, so that children started by other threads do not hold our
  // pipes open; dup2() clears the flag on the child's own copies.
  std::array<int, 2> fds{};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) {
    throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  Pipe pipe;
  pipe.read.reset(fds[0]);
  pipe.write.reset(fds[1]);
  return pipe;
}

/// One of the child's output streams, read without blocking.
struct Stream {
  Fd fd;
  std::string text;
  std::size_t limit = 0;
  std::ostream* echo = nullptr;
  std::string unsaid; ///< echoed bytes after the last whole line
  bool open = true;

  /// Reads what is there, but at most kMaxReads buffers, so that a child that
  /// writes nonstop cannot keep the caller from its time limit checks.
  void read_available() {
    constexpr int kMaxReads = 16;
    std::array<char, 65536> buffer{};
    for (int reads = 0; open && reads < kMaxReads; ++reads) {
      const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
      if (n > 0) {
        const auto size = static_cast<std::size_t>(n);
        text.append(buffer.data(), size);
        if (text.size() > 2 * limit + buffer.size()) keep_tail(text, limit);
        if (echo != nullptr) echo_lines({buffer.data(), size});
      } else if (n == 0) {
        open = false;
      } else if (errno != EINTR) {
        if (errno != EAGAIN && errno != EWOULDBLOCK) open = false;
        return;
      }
    }
  }

  /// Copies `bytes` to `echo` by whole lines, each in one write, so that the lines of
  /// children run at once interleave whole; a line longer than kMaxUnsaid goes in pieces.
  void echo_lines(std::string_view bytes) {
    constexpr std::size_t kMaxUnsaid = 65536;
    unsaid.append(bytes);
    const std::size_t last = unsaid.rfind('\n');
    const std::size_t end = unsaid.size() > kMaxUnsaid  ? unsaid.size()
                            : last == std::string::npos ? 0
                                                        : last + 1;
    if (end == 0) return;
    echo->write(unsaid.data(), static_cast<std::streamsize>(end)).flush();
    unsaid.erase(0, end);
  }

  /// The last line, when the child ended it without a newline.
  void echo_the_rest() {
    if (echo != nullptr && !unsaid.empty()) (*echo << unsaid << '\n').flush();
    unsaid.clear();
  }
};

/// Waits for the child's streams for at most `timeout_s`, then reads what came.
void pump(std::array<Stream*, 2> streams, double timeout_s) {
  std::array<pollfd, 2> fds{};
  nfds_t n = 0;
  for (Stream* s : streams) {
    if (s->open) fds[n++] = pollfd{s->fd.get(), POLLIN, 0};
  }
  const int timeout_ms = std::max(1, static_cast<int>(timeout_s * 1000));
  if (::poll(fds.data(), n, timeout_ms) > 0) {
    for (Stream* s : streams)
      s->read_available();
  }
}

/// Our environment with `overrides` (NAME=value) in place of the same names.
std::vector<std::string> child_environment(const std::vector<std::string>& overrides) {
  const auto name_of = [](const std::string& entry) { return entry.substr(0, entry.find('=')); };
  std::vector<std::string> entries;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const bool replaced = std::ranges::any_of(
        overrides, [&](const std::string& o) { return name_of(o) == name_of(text); });
    if (!replaced) entries.push_back(text);
  }
  entries.insert(entries.end(), overrides.begin(), overrides.end());
  return entries;
}

/// Removes the folders `<prefix>-<pid>-*` in `folder` that are ours and whose process is gone:
/// the scratch of a process killed outright (SIGKILL), which could not remove its own.
void remove_orphans(const std::filesystem::path& folder, const std::string& prefix) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix + "-")) continue;
    const std::string rest = name.substr(prefix.size() + 1);
    const auto dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos || rest.find_first_not_of("0123456789") != dash) {
      continue;
    }
    const long pid = std::strtol(rest.c_str(), nullptr, 10);
    struct stat info {};
    const bool ours = ::lstat(entry.path().c_str(), &info) == 0 && S_ISDIR(info.st_mode) &&
                      info.st_uid == ::getuid();
    if (ours && pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      std::filesystem::remove_all(entry.path(), error);
    }
  }
}

/// Waits for the child's exec: when it failed (the child wrote its errno on `exec_status`
/// before it exited), reaps the child and throws Error.
void check_exec(pid_t pid, const Fd& exec_status, const std::string& program) {
  int exec_error = 0;
  ssize_t got = 0;
  do {
    got = ::read(exec_status.get(), &exec_error, sizeof exec_error);
  } while (got < 0 && errno == EINTR);
  if (got == static_cast<ssize_t>(sizeof exec_error)) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    throw Error("cannot execute " + program + ": " + std::strerror(exec_error));
  }
}

/// Waits for the child `pid` to end, keeping its output; past the time limit, or on an
/// interrupt, ends its group (SIGTERM, then SIGKILL after the grace). Returns timed_out or
/// interrupted when it stopped the child, else exited (to be told apart by its status).
ProcessOutcome::End supervise(pid_t pid, const ProcessRequest& request, Clock::time_point start,
                              Stream& out, Stream& err) {
  ProcessOutcome::End end = ProcessOutcome::End::exited;
  bool stopping = false; // SIGTERM sent to the group
  double kill_at = 0;    // when SIGKILL follows it
  for (;;) {
    // Notice the end without reaping, so that the group id cannot be reused
    // before the stragglers in the group are killed (after this returns).
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == pid) {
      break;
    }
    const double now = seconds_since(start);
    if (!stopping) {
      if (request.time_limit_s && now >= *request.time_limit_s) {
        end = ProcessOutcome::End::timed_out;
        stopping = true;
      } else if (g_interrupt.load() != 0) {
        end = ProcessOutcome::End::interrupted;
        stopping = true;
      }
      if (stopping) {
        ::kill(-pid, SIGTERM);
        kill_at = now + request.grace_s;
      }
    } else if (now >= kill_at) {
      ::kill(-pid, SIGKILL);
      kill_at = now + 1;
    }
    double wait_s = 0.1;
    if (request.time_limit_s && !stopping) wait_s = std::min(wait_s, *request.time_limit_s - now);
    pump({&out, &err}, wait_s);
  }
  return end;
}

} // namespace

std::string ProcessOutcome::failure(double time_limit_s) const {
  switch (end) {
  case End::timed_out:
    return "time limit of " + format_number(time_limit_s, 6) + " s exceeded";
  case End::interrupted:
    return "interrupted";
  case End::signalled:
    return describe_signal(signal);
  case End::exited:
    break;
  }
  std::string reason = "exited with code " + std::to_string(exit_code);
  const std::string line = last_line(stderr_tail);
  if (!line.empty()) reason += ": " + line;
  return reason;
}

ScratchFolder::ScratchFolder(const std::string& prefix) {
  const char* base = std::getenv("TMPDIR");
  const std::filesystem::path folder(base != nullptr && *base != 0 ? base : "/tmp");
  remove_orphans(folder, prefix);
  std::string pattern = (folder / (prefix + "-" + std::to_string(::getpid()) + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw Error("cannot create a temporary folder in " + pattern + ": " + std::strerror(errno));
  }
  path_ = pattern;
}

ScratchFolder::ScratchFolder(const ScratchFolder& parent, const std::string& name)
    : path_(parent.path() / name) {
  if (::mkdir(path_.c_str(), 0700) != 0) {
    throw Error("cannot create a temporary folder " + path_.string() + ": " + std::strerror(errno));
  }
}

ScratchFolder::~ScratchFolder() {
  std::error_code error;
  std::filesystem::remove_all(path_, error);
}

ProcessOutcome run_process(const ProcessRequest& request) {
  LIFEBENCH_EXPECTS(!request.argv.empty(), "run_process: no command");
  // Everything the child needs is prepared before fork(): between fork() and
  // exec() a child of a multi-threaded parent may only make async-signal-safe calls.
  std::vector<char*> argv;
  for (const auto& arg : request.argv)
    argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const std::vector<std::string> environment = child_environment(request.environment);
  std::vector<char*> envp;
  envp.reserve(environment.size() + 1);
  for (const auto& entry : environment)
    envp.push_back(const_cast<char*>(entry.c_str()));
  envp.push_back(nullptr);
  Fd dev_null(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  Pipe out = make_pipe();
  Pipe err = make_pipe();
  Pipe exec_status = make_pipe(); // carries errno when exec fails; closed by a successful exec

  const pid_t parent = ::getpid();
  const auto start = Clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(std::string("cannot start a process: ") + std::strerror(errno));
  if (pid == 0) {
    ::setpgid(0, 0);
    // The child ends with us: killed outright (SIGKILL), we could not stop it, and it would
    // run on past its time limit beside the next run. SIGTERM lets it end what it started
    // (an external experiment's program). The kernel sends it when the thread that forked
    // ends, which is after this call returns. A parent already gone left another one.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(127);
    if (dev_null.get() >= 0) ::dup2(dev_null.get(), STDIN_FILENO);
    ::dup2(out.write.get(), STDOUT_FILENO);
    ::dup2(err.write.get(), STDERR_FILENO);
    ::execve(argv[0], argv.data(), envp.data());
    const int error = errno;
    [[maybe_unused]] const ssize_t ignored = ::write(exec_status.write.get(), &error, sizeof error);
    ::_exit(127);
  }
  // Both sides set the group, so that it exists whichever runs first.
  ::setpgid(pid, pid);
  out.write.reset();
  err.write.reset();
  exec_status.write.reset();
  check_exec(pid, exec_status.read, request.argv[0]);

  Stream out_stream{std::move(out.read),
                    {},
                    request.stdout_limit,
                    request.echo_stdout ? &std::cout : nullptr,
                    {}};
  Stream err_stream{std::move(err.read),
                    {},
                    request.stderr_limit,
                    request.echo_stderr ? &std::cerr : nullptr,
                    {}};
  for (Stream* s : {&out_stream, &err_stream}) {
    ::fcntl(s->fd.get(), F_SETFL, ::fcntl(s->fd.get(), F_GETFL) | O_NONBLOCK);
  }

  ProcessOutcome outcome;
  outcome.end = supervise(pid, request, start, out_stream, err_stream);
  ::kill(-pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  outcome.wall_s = seconds_since(start);
  // What is left in the pipes; a descendant that left the group could hold them open forever.
  const auto drain_until = Clock::now() + std::chrono::seconds(1);
  while ((out_stream.open || err_stream.open) && Clock::now() < drain_until) {
    pump({&out_stream, &err_stream}, 0.05);
  }
  out_stream.echo_the_rest();
  err_stream.echo_the_rest();
  keep_tail(out_stream.text, request.stdout_limit);
  keep_tail(err_stream.text, request.stderr_limit);
  outcome.stdout_text = std::move(out_stream.text);
  outcome.stderr_tail = std::move(err_stream.text);
  if (outcome.end == ProcessOutcome::End::exited) {
    if (WIFSIGNALED(status)) {
      outcome.end = ProcessOutcome::End::signalled;
      outcome.signal = WTERMSIG(status);
    } else {
      outcome.exit_code = WEXITSTATUS(status);
    }
  }
  return outcome;
}

void exec_process(const std::vector<std::string>& argv) {
  LIFEBENCH_EXPECTS(!argv.empty(), "exec_process: no command");
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::cout.flush();
  ::execv(args[0], args.data());
  throw Error("cannot execute " + argv[0] + ": " + std::strerror(errno));
}

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0; // no SA_RESTART: poll() returns early
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
  ::sigaction(SIGHUP, &action, nullptr);
}

int interrupt_signal() {
  return g_interrupt.load();
}

bool executable_file(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

std::optional<std::filesystem::path> on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  const std::string folders = path != nullptr ? path : "";
  std::size_t begin = 0;
  while (begin <= folders.size()) {
    const std::size_t end = std::min(folders.find(':', begin), folders.size());
    const std::filesystem::path candidate =
        std::filesystem::path(end > begin ? folders.substr(begin, end - begin) : ".") / name;
    if (executable_file(candidate)) return std::filesystem::absolute(candidate).lexically_normal();
    begin = end + 1;
  }
  return std::nullopt;
}

} // namespace lifebench::driver
