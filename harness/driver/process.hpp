// Child processes: an experiment runs in its own process group under a time
// limit, so that a crash or a hang costs one configuration and the whole group
// (with anything it started) is killed on the way out.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace lifebench::driver {

struct ProcessRequest {
  std::vector<std::string> argv;      ///< argv[0] is the executable's path
  std::optional<double> time_limit_s; ///< none: wait for as long as it takes
  double grace_s = 5;                 ///< from SIGTERM to SIGKILL
  std::size_t stdout_limit = 1 << 20; ///< bytes of standard output kept (the last ones)
  std::size_t stderr_limit = 4096;    ///< bytes of standard error kept (the last ones)
  /// Also copy the child's standard output, or its standard error, to ours as they come, a
  /// whole line at a time; an echo that blocks (ours piped to a reader that stopped) holds
  /// up the time limit's checks until it goes on.
  bool echo_stdout = false;
  bool echo_stderr = false;
  /// NAME=value entries set in the child's environment (over ours).
  std::vector<std::string> environment;
};

struct ProcessOutcome {
  enum class End {
    exited,      ///< exit_code holds its status
    signalled,   ///< killed by `signal`, not by us
    timed_out,   ///< ran past the time limit; we killed it
    interrupted, ///< we were interrupted (SIGINT, SIGTERM, SIGHUP) and killed it
  };
  End end = End::exited;
  int exit_code = 0;
  int signal = 0;
  double wall_s = 0;
  std::string stdout_text; ///< its tail, see ProcessRequest::stdout_limit
  std::string stderr_tail;

  [[nodiscard]] bool succeeded() const { return end == End::exited && exit_code == 0; }
  /// One line: "time limit of 60 s exceeded", "killed by signal 11 (Segmentation fault)",
  /// "exited with code 3: <its last line of standard error>".
  [[nodiscard]] std::string failure(double time_limit_s) const;
};

/// A private folder under $TMPDIR (or /tmp) for the files children write, removed with
/// everything in it. Its name, `<prefix>-<pid>-XXXXXX`, names its process, so that one left
/// by a process killed outright is removed when the next is made.
class ScratchFolder {
public:
  explicit ScratchFolder(const std::string& prefix); ///< throws Error if it cannot be made
  /// The folder `name` in the scratch folder `parent` (its orphans are `parent`'s).
  ScratchFolder(const ScratchFolder& parent, const std::string& name);
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  ~ScratchFolder();
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

/// Runs a child to its end; throws Error only when it cannot be started. Thread-safe. The child
/// gets SIGTERM should this process die first (PR_SET_PDEATHSIG).
ProcessOutcome run_process(const ProcessRequest& request);

/// Whether `path` is a regular file this process may execute.
bool executable_file(const std::filesystem::path& path);

/// `name` in the folders of PATH (an empty one is the current folder), absolute, or nothing.
std::optional<std::filesystem::path> on_path(const std::string& name);

/// Replaces this process with `argv`; throws Error when that fails.
[[noreturn]] void exec_process(const std::vector<std::string>& argv);

/// Makes SIGINT, SIGTERM and SIGHUP set a flag that run_process() and the commands check
/// instead of killing the driver, so a child is never left running on its own.
void install_interrupt_handlers();

/// The signal that interrupted us, or 0.
int interrupt_signal();

} // namespace lifebench::driver
