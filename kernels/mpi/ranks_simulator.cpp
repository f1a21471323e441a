#include "mpi/ranks_simulator.hpp"

#include "lifebench/child_in_progress.hpp"
#include "lifebench/error.hpp"
#include "lifebench/state_io.hpp"
#include "mpi/bands.hpp"
#include "mpi/rank_failure.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

extern char** environ; // NOLINT(readability-redundant-declaration): POSIX declares it nowhere

namespace lifebench::mpi {
namespace {

namespace fs = std::filesystem;

/// Bytes of mpirun's output kept for the failure's reason (the last ones).
constexpr std::streamoff kOutputTail = 1 << 16;

/// The rank program beside this executable.
fs::path rank_program(const std::string& experiment) {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  return self.parent_path() / ("lifebench-rank-" + experiment);
}

/// "name=value" for this process's environment with `overrides` in place.
std::vector<std::string> environment_with(const std::map<std::string, std::string>& overrides) {
  std::vector<std::string> entries;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    if (!overrides.contains(std::string(text.substr(0, text.find('=')))))
      entries.emplace_back(text);
  }
  for (const auto& [name, value] : overrides)
    entries.push_back(name + "=" + value);
  return entries;
}

std::vector<char*> pointers(std::vector<std::string>& texts) {
  std::vector<char*> result;
  result.reserve(texts.size() + 1);
  for (auto& text : texts)
    result.push_back(text.data());
  result.push_back(nullptr);
  return result;
}

/// The last kOutputTail bytes of `path` (empty when it cannot be read).
std::string tail_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  const std::streamoff size = in.tellg();
  in.seekg(std::max<std::streamoff>(0, size - kOutputTail));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Kills the processes whose parent is `pid` (the ranks it started on this host), then it.
void kill_with_children(pid_t pid) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue; // not a process
    std::ifstream stat(entry.path() / "stat");
    std::string text;
    if (!std::getline(stat, text)) continue;
    // "pid (name) state ppid ...": the name may hold spaces and parentheses.
    std::istringstream after(text.substr(text.rfind(')') + 1));
    std::string state;
    pid_t parent = 0;
    if (after >> state >> parent && parent == pid) {
      ::kill(static_cast<pid_t>(std::stol(name)), SIGKILL);
    }
  }
  ::kill(pid, SIGKILL);
}

/// Runs `argv` with `environment`, standard output and error into `log`, to its end, and
/// returns how it ended ("" when it exited with 0). Open MPI's mpirun has been seen to
/// hang after its note that it aborts the job (a rank killed during its start): kGrace after
/// that note, mpirun and its children are killed.
std::string run_to_end(std::vector<std::string> argv, std::vector<std::string> environment,
                       const fs::path& log) {
  constexpr auto kPoll = std::chrono::milliseconds(20);
  constexpr auto kGrace = std::chrono::seconds(10);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const std::vector<char*> args = pointers(argv);
  const std::vector<char*> env = pointers(environment);
  const int spawned = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw Error("cannot start " + argv[0] + ": " + std::strerror(spawned));
  ChildInProgress noted(pid); // mpirun ends its ranks on SIGTERM
  // Reaps mpirun once it has ended, forgotten first: its pid may then be another's.
  int status = 0;
  const auto reap = [&] {
    noted.forget();
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  };
  std::uintmax_t log_size = 0;
  std::optional<std::chrono::steady_clock::time_point> aborting_since;
  for (;;) {
    siginfo_t ended{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &ended, WEXITED | WNOHANG | WNOWAIT) != 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("cannot wait for mpirun: ") + std::strerror(errno));
    }
    if (ended.si_pid == pid) {
      reap();
      break;
    }
    const auto now = std::chrono::steady_clock::now();
    if (aborting_since && now - *aborting_since > kGrace) {
      kill_with_children(pid);
      reap();
      return "mpirun hung after aborting the job and was killed";
    }
    std::error_code error;
    if (const auto size = fs::file_size(log, error);
        !aborting_since && !error && size != log_size) {
      log_size = size;
      if (mpirun_is_aborting(tail_of(log))) aborting_since = now;
    }
    std::this_thread::sleep_for(kPoll);
  }
  if (WIFSIGNALED(status)) {
    return "mpirun killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  }
  if (WEXITSTATUS(status) != 0)
    return "mpirun exited with code " + std::to_string(WEXITSTATUS(status));
  return "";
}

} // namespace

RanksSimulator::RanksSimulator(const Problem& problem, const Params& params, RankLaunch launch)
    : problem_(problem), params_(params), launch_(std::move(launch)),
      file_(problem, params, "ranks") {
  launch_.environment.merge(transport_environment(params));
}

double RanksSimulator::run_ranks(std::uint64_t generations) {
  if (generations == 0) return 0;
  const fs::path report = file_.path().string() + ".report.json";
  const fs::path log = file_.path().string() + ".log";
  const RemovedWhenDone report_removed(report);
  const RemovedWhenDone log_removed(log);
  // --oversubscribe: the configuration says how many ranks, not the machine's count of
  // slots (its cores, which may be fewer than its hardware threads); Open MPI leaves the
  // ranks unbound only where there are more of them than cores.
  std::vector<std::string> argv{mpiexec().string(), "-n", std::to_string(launch_.ranks),
                                "--oversubscribe"};
  if (::geteuid() == 0) argv.emplace_back("--allow-run-as-root"); // containers run as root
  for (const auto& [name, value] : launch_.environment) {
    argv.emplace_back("-x");
    argv.push_back(name);
  }
  argv.push_back(rank_program(launch_.experiment).string());
  argv.push_back(file_.path().string());
  argv.push_back(std::to_string(generations));
  argv.push_back(report.string());
  for (const auto& [name, value] : params_.values())
    argv.push_back(name + "=" + value);

  const std::string end = run_to_end(argv, environment_with(launch_.environment), log);
  if (!end.empty()) throw Error(rank_failure(tail_of(log), end));
  std::ifstream in(report);
  const auto json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded() || !json.contains("seconds")) {
    throw Error("the ranks ended without reporting their time (" + report.string() + ")");
  }
  reported_ = json.at("device").get<std::map<std::string, std::string>>();
  reported_["hosts"] = std::to_string(json.at("hosts").get<int>());
  reported_["mpi_library"] = json.at("mpi_library").get<std::string>();
  phases_ = json.value("phases", std::map<std::string, double>{});
  return json.at("seconds").get<double>();
}

std::map<std::string, std::string> RanksSimulator::device() const {
  const Bands bands{problem_.shape.height, launch_.ranks,
                    static_cast<int>(params_.get_int("halo_steps"))};
  const std::int64_t row_bytes = UniverseHeader{problem_, 0}.words_per_row() * 8;
  std::map<std::string, std::string> info = reported_;
  info["ranks"] = std::to_string(launch_.ranks);
  std::ostringstream halo;
  halo << bands.halo_bytes_per_generation(row_bytes);
  info["halo_bytes_per_generation"] = halo.str();
  return info;
}

Axis transport_axis() {
  return {.name = "transport",
          .default_value = "host",
          .allowed = {"host", "sockets"},
          .description = "how the ranks talk: host (shared memory, NVLink: what Open MPI and "
                         "NCCL pick on one host) or sockets (TCP through the loopback interface "
                         "for MPI and NCCL alike, to rehearse ranks on separate hosts)"};
}

Axis bands_axis() {
  return {.name = "bands",
          .default_value = "equal",
          .allowed = {"equal", "measured"},
          .description = "how the rows are shared: equal bands, or bands sized by each rank's "
                         "speed, measured before each advance (every rank at once, untimed)"};
}

std::map<std::string, std::string> transport_environment(const Params& params) {
  if (!params.has("transport") || params.get("transport") == "host") return {};
  // Open MPI: the ob1 messaging layer over TCP only (no shared memory, no UCX); NCCL: no
  // peer-to-peer or shared-memory paths, its socket transport rather than InfiniBand.
  return {{"OMPI_MCA_pml", "ob1"},
          {"OMPI_MCA_btl", "tcp,self"},
          {"OMPI_MCA_btl_tcp_if_include", "lo"},
          {"NCCL_P2P_DISABLE", "1"},
          {"NCCL_SHM_DISABLE", "1"},
          {"NCCL_IB_DISABLE", "1"},
          {"NCCL_NET", "Socket"},
          {"NCCL_SOCKET_IFNAME", "lo"}};
}

fs::path mpiexec() {
  if (const char* given = std::getenv("LIFEBENCH_MPIEXEC"); given != nullptr && *given != '\0') {
    return given;
  }
  return LIFEBENCH_MPIEXEC_PATH;
}

std::optional<std::string> ranks_unavailable(const std::string& experiment) {
  const fs::path mpirun = mpiexec();
  if (::access(mpirun.c_str(), X_OK) != 0) {
    return "mpirun " + mpirun.string() +
           " cannot be run (install Open MPI with tools/setup.sh, or name one in "
           "LIFEBENCH_MPIEXEC)";
  }
  const fs::path program = rank_program(experiment);
  if (::access(program.c_str(), X_OK) != 0) {
    return "the rank program " + program.string() + " is missing (build lifebench.exp." +
           experiment + ")";
  }
  return std::nullopt;
}

std::optional<std::string> ranks_unsupported(const Problem& problem, const Params& params,
                                             int ranks) {
  if (problem.boundary != Boundary::torus) {
    return "torus only: the first and the last rank exchange halos as neighbours";
  }
  const std::int64_t halo_steps = params.get_int("halo_steps");
  if (halo_steps < 1 || halo_steps > problem.shape.height) {
    return "halo_steps must be 1 ... the height, " + std::to_string(problem.shape.height);
  }
  if (auto reason =
          Bands{problem.shape.height, ranks, static_cast<int>(halo_steps)}.unsupported()) {
    return reason;
  }
  return outofcore::folder_unsupported(problem, params, 1);
}

} // namespace lifebench::mpi
