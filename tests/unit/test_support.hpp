// Helpers shared by the unit tests: grids drawn as text, dataset paths, and a
// fixture with a fresh directory per test.
#pragma once

#include "lifebench/error.hpp"
#include "lifebench/grid.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <ostream>
#include <random>
#include <string>
#include <vector>

namespace lifebench {

/// GoogleTest prints a failing grid as its rows, 'o' alive and '.' dead.
inline void PrintTo(const Grid& grid, std::ostream* out) {
  const Shape& s = grid.shape();
  *out << s.to_string();
  if (s.cells() > 4096) return;
  for (std::int64_t z = 0; z < s.depth; ++z) {
    for (std::int64_t y = 0; y < s.height; ++y) {
      *out << "\n  ";
      for (std::int64_t x = 0; x < s.width; ++x)
        *out << (grid.at(x, y, z) != 0 ? 'o' : '.');
    }
    if (z + 1 < s.depth) *out << "\n";
  }
}

namespace testing {

/// A 2D grid drawn one string per row, 'o' alive and '.' dead.
inline Grid grid_from_rows(const std::vector<std::string>& rows) {
  Grid grid(Shape{static_cast<std::int64_t>(rows.front().size()),
                  static_cast<std::int64_t>(rows.size()), 1});
  for (std::size_t y = 0; y < rows.size(); ++y) {
    for (std::size_t x = 0; x < rows[y].size(); ++x) {
      grid.set(static_cast<std::int64_t>(x), static_cast<std::int64_t>(y),
               rows[y][x] == 'o' ? 1 : 0);
    }
  }
  return grid;
}

/// A grid of `shape` with the given cells alive, each (x, y) or (x, y, z).
inline Grid grid_with(Shape shape, const std::vector<std::vector<std::int64_t>>& alive) {
  Grid grid(shape);
  for (const auto& cell : alive)
    grid.set(cell[0], cell[1], cell.size() > 2 ? cell[2] : 0, 1);
  return grid;
}

inline std::filesystem::path dataset(const std::string& name) {
  return std::filesystem::path(LIFEBENCH_DATASETS_DIR) / name;
}

/// The message of the Error that `call` throws (a test failure where it throws none).
template <typename Call> std::string thrown_message(Call call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

/// A fresh directory per test, removed afterwards.
class TempDirTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("lifebench-test-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  [[nodiscard]] std::filesystem::path file(const std::string& name) const { return dir_ / name; }

  static void write(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
  }
  static std::string contents(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  [[nodiscard]] std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  /// The message of the Error that `call` throws.
  template <typename Call> static std::string error_of(Call call) { return thrown_message(call); }

  std::filesystem::path dir_;
};

} // namespace testing
} // namespace lifebench
