#include "mpi/rank_main.hpp"

#include "lifebench/error.hpp"
#include "lifebench/state_io.hpp"
#include "lifebench/universe.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <iostream>
#include <map>
#include <mpi.h>
#include <nlohmann/json.hpp>
#include <unistd.h>
#include <vector>

namespace lifebench::mpi {
namespace {

struct Arguments {
  std::filesystem::path universe;
  std::uint64_t generations = 0;
  std::filesystem::path report;
  Params params;
};

Arguments parse_arguments(int argc, char** argv) {
  if (argc < 4) throw Error("usage: UNIVERSE.lbu GENERATIONS REPORT.json [name=value ...]");
  Arguments args{argv[1], 0, argv[3], {}};
  const std::string_view generations(argv[2]);
  const auto [end, error] = std::from_chars(
      generations.data(), generations.data() + generations.size(), args.generations);
  if (error != std::errc{} || end != generations.data() + generations.size()) {
    throw Error("bad generation count \"" + std::string(generations) + "\"");
  }
  std::map<std::string, std::string> values;
  for (int i = 4; i < argc; ++i) {
    const std::string_view pair(argv[i]);
    const auto equals = pair.find('=');
    if (equals == std::string_view::npos)
      throw Error("bad parameter \"" + std::string(pair) + "\"");
    values[std::string(pair.substr(0, equals))] = std::string(pair.substr(equals + 1));
  }
  args.params = Params(std::move(values));
  return args;
}

/// Writes `rows` over rows first_row ... of the universe file, in place.
void write_rows(const std::filesystem::path& path, std::int64_t first_row, std::int64_t row_words,
                std::span<const std::uint64_t> rows) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw Error("cannot write " + path.string() + ": " + std::strerror(errno));
  const auto* bytes = reinterpret_cast<const char*>(rows.data());
  std::size_t done = 0;
  const std::size_t size = rows.size_bytes();
  const auto offset = static_cast<off_t>(kUniverseDataOffset + first_row * row_words * 8);
  while (done < size) {
    const ssize_t n = ::pwrite(fd, bytes + done, size - done, offset + static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      throw Error("cannot write " + path.string() + ": " + std::strerror(error));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) throw Error("cannot write " + path.string() + ": " + std::strerror(errno));
}

/// The MPI library's name and version ("Open MPI v4.1.4").
std::string library_version() {
  std::string text(MPI_MAX_LIBRARY_VERSION_STRING, '\0');
  int length = 0;
  check_mpi(MPI_Get_library_version(text.data(), &length), "MPI_Get_library_version");
  text.resize(static_cast<std::size_t>(length));
  return text.substr(0, text.find_first_of(",\n"));
}

/// Each part of the advance that `stepper` timed, as its longest and shortest over the ranks
/// ("compute longest", "compute shortest"); on rank 0 (the others get an empty object).
nlohmann::json phases_over_ranks(const BandStepper& stepper, int rank) {
  const std::map<std::string, double> timed = stepper.phase_seconds();
  std::string names;
  std::vector<double> seconds;
  for (const auto& [name, value] : timed) {
    names += name + '\n';
    seconds.push_back(value);
  }
  // The reductions below pair the ranks' parts by position: ranks that timed other parts
  // would mix them (or, with fewer, leave the others waiting).
  const unsigned long long mine = std::hash<std::string>{}(names);
  unsigned long long lowest = 0;
  unsigned long long highest = 0;
  check_mpi(MPI_Allreduce(&mine, &lowest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD),
            "MPI_Allreduce");
  check_mpi(MPI_Allreduce(&mine, &highest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD),
            "MPI_Allreduce");
  if (lowest != highest) throw Error("the ranks timed different parts of the advance");

  const int count = static_cast<int>(seconds.size());
  std::vector<double> longest(seconds.size());
  std::vector<double> shortest(seconds.size());
  check_mpi(
      MPI_Reduce(seconds.data(), longest.data(), count, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD),
      "MPI_Reduce");
  check_mpi(
      MPI_Reduce(seconds.data(), shortest.data(), count, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD),
      "MPI_Reduce");
  nlohmann::json phases = nlohmann::json::object();
  if (rank != 0) return phases;
  std::size_t i = 0;
  for (const auto& [name, value] : timed) {
    phases[name + " longest"] = longest[i];
    phases[name + " shortest"] = shortest[i];
    ++i;
  }
  return phases;
}

/// Whether the bands are sized by the ranks' measured speeds (the `bands` axis, where the
/// experiment has it).
bool bands_measured(const Params& params) {
  return params.has("bands") && params.get("bands") == "measured";
}

/// Rows a rank advances to measure its speed, and the seconds the measurement lasts at least:
/// enough for its workers' tiles and tens of milliseconds, not a tick of the clock.
constexpr std::int64_t kTrialRowsPerRank = 256;
constexpr double kTrialSeconds = 0.02;

/// This rank's cell updates a second on a band of the universe's width, every rank at once
/// (ranks that share cores or memory then slow one another as they will in the run), from
/// the seconds its stepper spent computing (its "compute" part), else in its advances. The
/// cells are dead: the kernels' work does not depend on them.
double measured_speed(const RankContext& context, const MakeStepper& make) {
  RankContext trial = context;
  const std::int64_t halo = context.bands.halo_steps;
  const std::int64_t rows = std::max(kTrialRowsPerRank, 2 * halo);
  trial.problem.shape.height = rows * context.bands.ranks;
  trial.bands = Bands{trial.problem.shape.height, context.bands.ranks, context.bands.halo_steps};
  const std::unique_ptr<BandStepper> stepper = make(trial);
  stepper->load(
      std::vector<std::uint64_t>(static_cast<std::size_t>(trial.rows() * trial.row_words)));
  const auto generations = static_cast<std::uint64_t>(2 * halo);
  const auto seconds_of = [&](double elapsed) {
    const auto parts = stepper->phase_seconds();
    const auto compute = parts.find("compute");
    return compute != parts.end() && compute->second > 0 ? compute->second : elapsed;
  };
  // The first advance starts the workers and touches the buffers; its time sets how many
  // more make the measurement, the same count on every rank (they exchange halos).
  double start = MPI_Wtime();
  stepper->advance(generations);
  const double first = std::max(seconds_of(MPI_Wtime() - start), 1e-6);
  const int mine = static_cast<int>(std::min(1000.0, std::ceil(kTrialSeconds / first)));
  int count = 0;
  check_mpi(MPI_Allreduce(&mine, &count, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  double seconds = 0;
  for (int i = 0; i < count; ++i) {
    start = MPI_Wtime();
    stepper->advance(generations);
    seconds += seconds_of(MPI_Wtime() - start);
  }
  return static_cast<double>(trial.rows()) * static_cast<double>(trial.problem.shape.width) *
         static_cast<double>(generations) * count / seconds;
}

/// The bands of `context` sized by every rank's measured speed (each rank calls it at once).
Bands bands_by_speed(const RankContext& context, const MakeStepper& make) {
  const double mine = measured_speed(context, make);
  std::vector<double> speeds(static_cast<std::size_t>(context.bands.ranks));
  check_mpi(MPI_Allgather(&mine, 1, MPI_DOUBLE, speeds.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD),
            "MPI_Allgather");
  return context.bands.weighted(speeds);
}

/// "21,21,22": each band's rows, for the report.
std::string band_rows_text(const Bands& bands) {
  std::string text;
  for (int r = 0; r < bands.ranks; ++r)
    text += (r == 0 ? "" : ",") + std::to_string(bands.rows(r));
  return text;
}

/// One rank's run, from its arguments to its band written back (and the report, on rank 0).
void run_rank(int argc, char** argv, int rank, int ranks, const MakeStepper& make) {
  const Arguments args = parse_arguments(argc, argv);
  MPI_Comm host = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host),
            "MPI_Comm_split_type");
  RankContext context;
  context.rank = rank;
  check_mpi(MPI_Comm_rank(host, &context.local_rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(host, &context.local_ranks), "MPI_Comm_size");
  check_mpi(MPI_Comm_free(&host), "MPI_Comm_free");
  int hosts = 0;
  const int first_of_host = context.local_rank == 0 ? 1 : 0;
  check_mpi(MPI_Allreduce(&first_of_host, &hosts, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
            "MPI_Allreduce");

  std::vector<std::uint64_t> rows;
  double measured_s = 0; // sizing the bands by the ranks' speeds, before the load
  {
    UniverseReader reader(args.universe);
    context.problem = reader.header().problem;
    context.params = args.params;
    context.bands = Bands{context.problem.shape.height, ranks,
                          static_cast<int>(args.params.get_int("halo_steps"))};
    if (auto reason = context.bands.unsupported()) throw Error(*reason);
    context.row_words = reader.header().words_per_row();
    if (bands_measured(args.params)) {
      const double start = MPI_Wtime();
      context.bands = bands_by_speed(context, make);
      measured_s = MPI_Wtime() - start;
    }
    rows.resize(static_cast<std::size_t>(context.rows() * context.row_words));
    reader.read_rows(context.bands.first_row(rank), context.rows(), rows);
  }
  const std::unique_ptr<BandStepper> stepper = make(context);
  stepper->load(rows);

  // Every band loaded before the clock starts, every band advanced before it stops.
  check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  const double start = MPI_Wtime();
  stepper->advance(args.generations);
  check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  const double seconds = MPI_Wtime() - start;
  const nlohmann::json phases = phases_over_ranks(*stepper, rank);

  stepper->store(rows);
  write_rows(args.universe, context.bands.first_row(rank), context.row_words, rows);
  if (rank == 0) {
    auto device = stepper->device();
    device["band_rows"] = band_rows_text(context.bands);
    if (bands_measured(args.params)) device["bands_measured_s"] = std::to_string(measured_s);
    const nlohmann::json report{{"seconds", seconds},
                                {"hosts", hosts},
                                {"mpi_library", library_version()},
                                {"device", device},
                                {"phases", phases}};
    write_file_atomically(args.report, [&](std::ostream& out) { out << report.dump() << "\n"; });
  }
}

} // namespace

void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  std::string text(MPI_MAX_ERROR_STRING, '\0');
  int length = 0;
  MPI_Error_string(code, text.data(), &length);
  text.resize(static_cast<std::size_t>(length));
  throw Error(std::string(call) + ": " + text);
}

int rank_main(int argc, char** argv, const MakeStepper& make) {
  int provided = 0;
  // Funneled: a stepper's worker threads make no MPI calls; its calling thread does.
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) return 1;
  int rank = 0;
  int ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  try {
    if (provided < MPI_THREAD_FUNNELED) throw Error("the MPI library does not support threads");
    run_rank(argc, argv, rank, ranks, make);
  } catch (const std::exception& error) {
    // One line that the experiment process reports; then no rank is left waiting for this one.
    std::string why = error.what();
    std::replace(why.begin(), why.end(), '\n', ' ');
    std::cerr << "lifebench: error: rank " << rank << ": " << why << std::endl;
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  MPI_Finalize();
  return 0;
}

} // namespace lifebench::mpi
