// launch=pipelined's schedule on the host (life_wide_pipeline.hpp): warps take the items (pass,
// tile, group) in order and run each as wavefront_pipelined does, in random interleavings. Every
// row a tile uses must be the one the pass before wrote, no row may be overwritten before the pass
// before has read it, no warp may wait forever, and the last pass must write every row.
#include "cuda/life_wide_pipeline.hpp"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace lifebench::cuda::life_wide {
namespace {

/// One step of a tile, in the order wavefront_column takes them.
struct Event {
  enum Kind { slot, wait, load, write, written } kind;
  unsigned value = 0; ///< wait: the loads' end; load, write: the row; written: the rows
  bool used = true;   ///< load: whether a row written comes from it
};

/// The steps of pass `pass`'s tile `tile` (wavefront_column with Paced).
std::vector<Event> tile_events(unsigned pass, unsigned tile, unsigned rows, unsigned height,
                               int steps) {
  const unsigned first = pipeline::first_row(pass, tile, rows, height, steps);
  const unsigned loads_before = 2 * steps + kAhead;
  const unsigned used_loads = rows + 2 * steps;
  std::vector<Event> events{{Event::slot}, {Event::wait, loads_before}};
  unsigned loaded = 0;
  const auto load = [&] {
    const std::int64_t row = (std::int64_t{first} - steps + loaded) % height;
    events.push_back(
        {Event::load, static_cast<unsigned>(row < 0 ? row + height : row), loaded < used_loads});
    ++loaded;
  };
  for (unsigned j = 0; j < loads_before; ++j)
    load();
  for (unsigned done = 0; done < rows;) {
    const unsigned run = std::min(pipeline::kRun, rows - done);
    events.push_back({Event::wait, loads_before + done + run});
    for (unsigned j = 0; j < run; ++j) {
      load();
      events.push_back({Event::write, (first + done + j) % height});
    }
    done += run;
    events.push_back({Event::written, done});
  }
  return events;
}

/// The launch's shared state: each slot's counts, each buffer's rows' last writer, and the reads
/// each pass still has to make of each row.
class Launch {
public:
  Launch(unsigned height, unsigned rows, unsigned groups, unsigned passes)
      : height_(height), rows_(rows), tiles_(height / rows), groups_(groups),
        counts_(std::size_t{kPipelineSlots} * tiles_ * groups, 0),
        writer_(2 * std::size_t{groups} * height, -2), reads_left_(passes) {
    std::fill_n(writer_.begin(), std::size_t{groups} * height, -1); // the input, in buffer 0
    for (auto& left : reads_left_)
      left.assign(std::size_t{groups} * height, 0);
  }

  /// The groups whose words a group's lanes read: the one before, itself, the one after (fewer
  /// where there are fewer than three).
  [[nodiscard]] std::vector<unsigned> groups_beside(unsigned group) const {
    if (groups_ < 3) return groups_ == 1 ? std::vector<unsigned>{0} : std::vector<unsigned>{0, 1};
    return {(group + groups_ - 1) % groups_, group, (group + 1) % groups_};
  }
  std::uint64_t& count(unsigned pass, unsigned tile, unsigned group) {
    return counts_[(std::size_t{pipeline::slot_of(pass)} * tiles_ + tile) * groups_ + group];
  }
  int& writer(unsigned buffer, unsigned group, unsigned row) {
    return writer_[(std::size_t{buffer} * groups_ + group) * height_ + row];
  }
  int& reads_left(unsigned pass, unsigned group, unsigned row) {
    return reads_left_[pass][std::size_t{group} * height_ + row];
  }

  /// Whether the counts of pass `pass` that Paced::wait_until's lanes load have reached
  /// `first_need` for tile `first` and `second_need` for tile `second` (0: no need), by the
  /// kernel's own choice of lane, tile and group.
  bool reached(unsigned pass, unsigned group, unsigned first, unsigned second,
               std::uint64_t first_need, std::uint64_t second_need) {
    for (unsigned lane = 0; lane < pipeline::kWaitingLanes; ++lane) {
      const bool on_first = pipeline::waits_on_first(lane);
      const std::uint64_t need = on_first ? first_need : second_need;
      const unsigned g = pipeline::waited_group(lane, group, groups_);
      if (need != 0 && count(pass, on_first ? first : second, g) < need) return false;
    }
    return true;
  }

  /// Whether the tile may take `event` now.
  bool ready(unsigned pass, unsigned tile, unsigned group, const Event& event) {
    if (event.kind == Event::slot) {
      const pipeline::SlotNeed need = pipeline::slot_need(pass, rows_);
      return reached(need.reader, group, tile, (tile + tiles_ - 1) % tiles_, need.done, need.done);
    }
    if (event.kind != Event::wait || pass == 0) return true;
    const pipeline::LoadsNeed need = pipeline::loads_need(pass, rows_, event.value);
    return reached(pass - 1, group, tile, (tile + 1) % tiles_, need.own, need.next);
  }

  unsigned height_, rows_, tiles_, groups_;

private:
  std::vector<std::uint64_t> counts_;
  std::vector<int> writer_;
  std::vector<std::vector<int>> reads_left_;
};

struct Item {
  unsigned pass, tile, group;
  std::vector<Event> events;
  std::size_t next = 0;
};

/// Runs `passes` passes with `warps` warps in the interleaving `seed` chooses; returns what went
/// wrong, or nothing.
std::optional<std::string> replay(unsigned height, unsigned rows, int steps, unsigned groups,
                                  unsigned passes, unsigned warps, unsigned seed) {
  rows = std::min(rows, height);
  Launch launch(height, rows, groups, passes);
  std::vector<Item> items;
  for (unsigned p = 0; p < passes; ++p)
    for (unsigned t = 0; t < launch.tiles_; ++t)
      for (unsigned g = 0; g < groups; ++g) {
        items.push_back({p, t, g, tile_events(p, t, rows, height, steps)});
        for (const Event& e : items.back().events)
          if (e.kind == Event::load && e.used)
            for (unsigned beside : launch.groups_beside(g))
              ++launch.reads_left(p, beside, e.value);
      }
  std::mt19937 random(seed);
  std::vector<std::optional<std::size_t>> running(warps);
  std::size_t taken = 0;
  for (;;) {
    for (auto& warp : running)
      if (!warp && taken < items.size()) warp = taken++;
    std::vector<std::size_t> can_go;
    bool any = false;
    for (std::size_t w = 0; w < warps; ++w) {
      if (!running[w]) continue;
      any = true;
      Item& item = items[*running[w]];
      if (launch.ready(item.pass, item.tile, item.group, item.events[item.next]))
        can_go.push_back(w);
    }
    if (!any) break;
    if (can_go.empty()) return "every warp waits";
    // Half the seeds let the warp of the latest item go first where it can: later passes race.
    const std::size_t w =
        seed % 2 == 1 && random() % 8 != 0 ? can_go.back() : can_go[random() % can_go.size()];
    Item& item = items[*running[w]];
    const Event& e = item.events[item.next];
    const auto where = [&] {
      return "pass " + std::to_string(item.pass) + ", tile " + std::to_string(item.tile) +
             ", group " + std::to_string(item.group);
    };
    if (e.kind == Event::load && e.used) {
      for (unsigned g : launch.groups_beside(item.group)) {
        if (launch.writer(item.pass % 2, g, e.value) != static_cast<int>(item.pass) - 1) {
          return where() + " loads row " + std::to_string(e.value) +
                 " before the pass before wrote it";
        }
        --launch.reads_left(item.pass, g, e.value);
      }
    } else if (e.kind == Event::write) {
      if (item.pass > 0 && launch.reads_left(item.pass - 1, item.group, e.value) != 0) {
        return where() + " overwrites row " + std::to_string(e.value) +
               " the pass before still reads";
      }
      launch.writer((item.pass + 1) % 2, item.group, e.value) = static_cast<int>(item.pass);
    } else if (e.kind == Event::written) {
      launch.count(item.pass, item.tile, item.group) = pipeline::count(item.pass, rows, e.value);
    }
    if (++item.next == item.events.size()) running[w].reset();
  }
  for (unsigned g = 0; g < groups; ++g)
    for (unsigned row = 0; row < height; ++row)
      if (launch.writer(passes % 2, g, row) != static_cast<int>(passes) - 1) {
        return "row " + std::to_string(row) + " of the last pass not written";
      }
  return std::nullopt;
}

TEST(PipelinedSchedule, EveryInterleavingReadsAndWritesInOrder) {
  struct Torus {
    unsigned height, rows;
  };
  // One tile (the whole height, shorter than a tile's loads), two, and several of the fewest
  // rows the steps allow; passes enough to reuse the slots, and tiles long enough (1024 rows) that
  // a pass may want a slot whose readers are not done.
  for (const Torus torus : {Torus{64, 64}, Torus{10, 10}, Torus{1000, 500}, Torus{2048, 1024},
                            Torus{96, 24}, Torus{200, 40}, Torus{360, 36}}) {
    for (const int steps : {4, 8, 16}) {
      if (pipelined_rows_unsupported(torus.rows, torus.height, steps)) continue;
      const bool long_tiles = torus.rows > 512; // one group and many warps: passes race there
      for (const unsigned groups : {1U, 3U, 5U}) {
        for (const unsigned warps : {4U, 64U}) {
          if (long_tiles && (groups > 1 || warps < 64)) continue;
          for (unsigned seed = 0; seed < 4; ++seed) {
            const auto wrong =
                replay(torus.height, torus.rows, steps, groups, kPipelineSlots + 3, warps, seed);
            EXPECT_FALSE(wrong) << torus.height << " rows in tiles of " << torus.rows << ", "
                                << steps << " steps, " << groups << " groups, " << warps
                                << " warps, seed " << seed << ": " << *wrong;
          }
        }
      }
    }
  }
}

} // namespace
} // namespace lifebench::cuda::life_wide
