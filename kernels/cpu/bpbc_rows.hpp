// Fujita, Nakano, Ito (seed 003) as packed_rows kernels: Algorithm SINGLE-WORD (34
// operations per word) and DOUBLE-WORD (59 per two vertically adjacent words) on the
// aligned neighbour words of 64-cell rows. cpu-bpbc sweeps a grid in memory with them,
// cpu-outofcore a universe on disk.
#pragma once

#include "common/bpbc.hpp"
#include "cpu/packed_rows.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>

namespace lifebench::packed_rows {

struct SingleWord {
  static constexpr int cell_bits = 1;
  static constexpr int group = 1;
  static std::array<Word, 1> update(const std::array<Aligned, 3>& r) {
    return {bpbc::single_word(r[0].west, r[0].centre, r[0].east, r[1].west, r[1].east, r[2].west,
                              r[2].centre, r[2].east, r[1].centre)};
  }
};

// Rows r[1] and r[2] are the paper's words K and L (its Figure 5).
struct DoubleWord {
  static constexpr int cell_bits = 1;
  static constexpr int group = 2;
  static std::array<Word, 2> update(const std::array<Aligned, 4>& r) {
    const auto next =
        bpbc::double_word(r[0].west, r[0].centre, r[0].east, r[1].west, r[1].east, r[3].west,
                          r[3].centre, r[3].east, r[2].west, r[2].east, r[1].centre, r[2].centre);
    return {next.k, next.l};
  }
};

/// The `words` axis of the experiments that run these kernels.
inline Axis words_axis() {
  return {.name = "words",
          .default_value = "double",
          .allowed = {"single", "double"},
          .description = "single: Algorithm SINGLE-WORD, one word at a time; double: "
                         "Algorithm DOUBLE-WORD, two vertically adjacent words at once"};
}

/// `call` with the kernel (a SingleWord or DoubleWord value) that `words` names.
template <class Call> decltype(auto) with_words(const Params& params, Call&& call) {
  if (params.get("words") == "double") return call(DoubleWord{});
  return call(SingleWord{});
}

/// The registration of an experiment whose `words` axis (words_axis()) picks the Kernel of
/// its simulator S<Kernel> (cpu-bpbc, cpu-outofcore): `info` says what else; what it refuses
/// is S<Kernel>::unsupported, and S<Kernel>::advance_universe_file, where S has one, its
/// second contract.
template <template <class Kernel> class S> ExperimentInfo words_experiment(ExperimentInfo info) {
  info.unsupported = [](const Problem& problem, const Params& params) {
    return with_words(
        params, [&]<class Kernel>(Kernel) { return S<Kernel>::unsupported(problem, params); });
  };
  info.make = [](const Problem& problem, const Params& params) {
    return with_words(params, [&]<class Kernel>(Kernel) -> std::unique_ptr<lifebench::Simulator> {
      return make_simulator<S<Kernel>>(problem, params);
    });
  };
  if constexpr (requires { &S<SingleWord>::advance_universe_file; }) {
    info.advance_universe_file = [](const std::filesystem::path& in,
                                    const std::filesystem::path& out, std::uint64_t generations,
                                    const Params& params, std::uint64_t origin) {
      with_words(params, [&]<class Kernel>(Kernel) {
        S<Kernel>::advance_universe_file(in, out, generations, params, origin);
      });
    };
  }
  return info;
}

} // namespace lifebench::packed_rows
