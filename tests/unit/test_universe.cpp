// Universe files: round trips, the exact layout, and every way a file can be wrong.
#include "lifebench/error.hpp"
#include "lifebench/packed.hpp"
#include "lifebench/soup.hpp"
#include "lifebench/state_io.hpp"
#include "lifebench/universe.hpp"
#include "test_support.hpp"

#include <array>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <memory>
#include <sys/stat.h>
#include <tuple>

namespace lifebench {
namespace {

using Universe = testing::TempDirTest;

State soup_state(const std::string& spec, std::uint64_t generation) {
  const RuleSpec rule = parse_rule_spec(spec);
  const Problem problem{rule.rule, *rule.shape, rule.boundary};
  return State{problem, make_soup(SoupSpec{problem.shape, 0.4, 7}), generation};
}

TEST_F(Universe, RoundTripsThroughStateFiles) {
  for (const std::string spec : {"B3/S23:T100,7", "B36/S23:P64,3", "B3/S23:T1,1", "B2/S:T130,65"}) {
    const State state = soup_state(spec, 12345);
    write_state(file("u.lbu"), state);
    const State back = read_state(file("u.lbu"), std::nullopt);
    EXPECT_EQ(back.problem, state.problem) << spec;
    EXPECT_EQ(back.generation, 12345U);
    EXPECT_EQ(back.grid, state.grid) << spec;
    // And on to RLE and back: the conversion for small cases.
    write_state(file("u.rle"), back);
    EXPECT_EQ(read_state(file("u.rle"), std::nullopt).grid, state.grid) << spec;
  }
  EXPECT_EQ(listing(), (std::vector<std::string>{"u.lbu", "u.rle"})); // no temporaries left
}

TEST_F(Universe, LayoutIsHeaderPageThenPackedRows) {
  const State state = soup_state("B3/S23:T100,7", 3);
  write_state(file("u.lbu"), state);
  const std::string bytes = contents(file("u.lbu"));
  ASSERT_EQ(static_cast<std::int64_t>(bytes.size()), kUniverseDataOffset + std::int64_t{7} * 2 * 8);
  const std::string lines = "lifebench-universe 1\nrule B3/S23:T100,7\ngeneration 3\nseal ";
  EXPECT_TRUE(bytes.starts_with(lines));
  EXPECT_EQ(bytes.substr(lines.size() + 16, 2), "\n ");
  EXPECT_EQ(bytes[kUniverseDataOffset - 1], '\n');
  const std::vector<std::uint64_t> words = pack_rows<std::uint64_t>(state.grid);
  EXPECT_EQ(bytes.substr(kUniverseDataOffset),
            std::string(reinterpret_cast<const char*>(words.data()), words.size() * 8));

  UniverseReader reader(file("u.lbu"));
  std::vector<std::uint64_t> band(std::size_t{3} * 2);
  reader.read_rows(2, 3, band);
  EXPECT_TRUE(std::equal(band.begin(), band.end(), words.begin() + std::ptrdiff_t{2} * 2));
  EXPECT_THROW(reader.read_rows(5, 3, band), Error); // past the last row
  EXPECT_THROW(reader.read_rows(0, 2, band), Error); // wrong buffer size
}

TEST_F(Universe, BadFilesAreOneClearError) {
  write_state(file("good.lbu"), soup_state("B3/S23:T100,7", 0));
  const std::string good = contents(file("good.lbu"));
  const auto with_header = [&](const std::string& header) {
    std::string text = header;
    text.resize(static_cast<std::size_t>(kUniverseDataOffset - 1), ' ');
    return text + "\n" + good.substr(kUniverseDataOffset);
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {good.substr(0, good.size() - 5), "(truncated)"},
      {good + "x", "(trailing data)"},
      {good.substr(0, 100), "truncated header (100 of 4096 bytes read)"},
      // A header one byte longer than its page: read whole, so not "truncated".
      {good.substr(0, 40) + " " + good.substr(40),
       "does not end with a line end at byte 4096 (all 4096 bytes read)"},
      {"x RLE maybe", "not a universe file"},
      {"", "not a universe file"},
      {with_header("lifebench-universe 2\nrule B3/S23:T100,7\ngeneration 0\n"), "not a universe"},
      {with_header("lifebench-universe 1\nrule B3/S23\ngeneration 0\n"), "bounded grid"},
      {with_header("lifebench-universe 1\nrule B6/S567/3D:T4,4,4\ngeneration 0\n"), "square-grid"},
      {with_header("lifebench-universe 1\nrule B3/S23:T100,7\ngeneration -1\n"), "generation"},
      {with_header("lifebench-universe 1\nrule B3/S23:T100,7\n"), "generation"},
      {with_header("lifebench-universe 1\nrule B3/S23:T100,7\ngeneration 0\nextra\n"),
       "unexpected header line 4"},
      {with_header("lifebench-universe 1\nrule B3/S23:T100,8\ngeneration 0\n"), "(truncated)"},
  };
  for (const auto& [text, says] : cases) {
    write(file("bad.lbu"), text);
    const std::string message = error_of([&] { (void)read_state(file("bad.lbu"), std::nullopt); });
    EXPECT_NE(message.find(says), std::string::npos) << message;
    EXPECT_NE(message.find("bad.lbu"), std::string::npos) << message;
  }
  EXPECT_NE(
      error_of([&] { (void)read_state(file("missing.lbu"), std::nullopt); }).find("cannot read"),
      std::string::npos);
}

TEST_F(Universe, AnEditedHeaderIsRefusedAndTheOriginKept) {
  // A stopped run's file, its generation moved on by hand: its seal no longer matches.
  const State state = soup_state("B3/S23:T100,7", 40);
  const std::vector<std::uint64_t> words = pack_rows<std::uint64_t>(state.grid);
  write_universe(file("run.lbu"), UniverseHeader{state.problem, 40, 0x0123456789abcdefU},
                 [&](const RowSink& sink) { sink(words); });
  EXPECT_EQ(UniverseReader(file("run.lbu")).header().origin, 0x0123456789abcdefU);
  std::string bytes = contents(file("run.lbu"));
  ASSERT_TRUE(bytes.find("\norigin 0123456789abcdef\nseal ") != std::string::npos);
  bytes.replace(bytes.find("generation 40"), 13, "generation 80");
  write(file("run.lbu"), bytes);
  EXPECT_NE(error_of([&] {
              (void)UniverseReader(file("run.lbu"));
            }).find("run.lbu: the header was edited after it was written"),
            std::string::npos);
  // The content hash sees every byte, header and rows.
  write_state(file("a.lbu"), state);
  std::string other = contents(file("a.lbu"));
  other[kUniverseDataOffset] = static_cast<char>(other[kUniverseDataOffset] ^ 1); // cell (0, 0)
  write(file("b.lbu"), other);
  EXPECT_NE(UniverseReader(file("a.lbu")).content_hash(),
            UniverseReader(file("b.lbu")).content_hash());
}

TEST_F(Universe, CellsPastTheWidthAreCorruption) {
  write_state(file("u.lbu"), soup_state("B3/S23:T100,7", 0));
  std::string bytes = contents(file("u.lbu"));
  bytes[static_cast<std::size_t>(kUniverseDataOffset + std::int64_t{3} * 16 + 15)] |=
      char{0x40}; // row 3, x 126
  write(file("u.lbu"), bytes);
  EXPECT_NE(error_of([&] {
              (void)read_state(file("u.lbu"), std::nullopt);
            }).find("row 3 has cells set past the width 100"),
            std::string::npos);
}

TEST_F(Universe, AFailedWriteLeavesTheOldFile) {
  const State old = soup_state("B3/S23:T100,7", 1);
  write_state(file("u.lbu"), old);
  const std::string before = contents(file("u.lbu"));
  const UniverseHeader header{old.problem, 2};
  const std::vector<std::uint64_t> row(2, 1);
  // Too few rows, too many, not whole rows, the producer failing midway.
  const std::vector<std::function<void(const RowSink&)>> producers = {
      [&](const RowSink& sink) { sink(row); },
      [&](const RowSink& sink) {
        for (int r = 0; r < 8; ++r)
          sink(row);
      },
      [&](const RowSink& sink) { sink(std::span(row).first(1)); },
      [&](const RowSink& sink) {
        sink(row);
        throw Error("disk full");
      },
  };
  for (const auto& producer : producers) {
    EXPECT_THROW(write_universe(file("u.lbu"), header, producer), Error);
    EXPECT_EQ(contents(file("u.lbu")), before);
    EXPECT_EQ(listing(), std::vector<std::string>{"u.lbu"});
  }
  write_universe(file("u.lbu"), header, [&](const RowSink& sink) {
    for (int r = 0; r < 7; ++r)
      sink(row);
  });
  EXPECT_EQ(UniverseReader(file("u.lbu")).header().generation, 2U);
}

TEST_F(Universe, BlocksReadAndWriteAnyRectangle) {
  const State state = soup_state("B3/S23:T256,6", 4);
  write_state(file("u.lbu"), state);
  const std::vector<std::uint64_t> words = pack_rows<std::uint64_t>(state.grid); // 4 a row
  UniverseReader reader(file("u.lbu"));
  std::vector<std::uint64_t> block(std::size_t{3} * 2);
  reader.read_block(2, 3, 1, 2, block); // rows 2..4, words 1..2
  for (std::size_t r = 0; r < 3; ++r) {
    for (std::size_t w = 0; w < 2; ++w)
      EXPECT_EQ(block[r * 2 + w], words[(2 + r) * 4 + 1 + w]) << r << " " << w;
  }
  EXPECT_THROW(reader.read_block(2, 3, 3, 2, block), Error); // past the row's last word

  // The same universe written back as four 3 x 2 blocks in reverse order.
  const UniverseHeader header{state.problem, 5};
  write_universe_blocks(file("v.lbu"), header, [&](const BlockSink& sink) {
    for (std::int64_t b = 3; b >= 0; --b) {
      const std::int64_t y = b / 2 * 3;
      const std::int64_t x = b % 2 * 2;
      std::vector<std::uint64_t> piece;
      for (std::int64_t r = y; r < y + 3; ++r) {
        piece.insert(piece.end(), words.begin() + r * 4 + x, words.begin() + r * 4 + x + 2);
      }
      sink(y, 3, x, 2, piece);
    }
  });
  const State back = read_state(file("v.lbu"), std::nullopt);
  EXPECT_EQ(back.grid, state.grid);
  EXPECT_EQ(back.generation, 5U);

  // Blocks that leave words unwritten are refused, and nothing is left.
  EXPECT_NE(error_of([&] {
              write_universe_blocks(file("w.lbu"), header, [&](const BlockSink& sink) {
                sink(0, 3, 0, 2, std::span(words).first(6));
              });
            }).find("6 of 24 words written"),
            std::string::npos);
  EXPECT_EQ(listing(), (std::vector<std::string>{"u.lbu", "v.lbu"}));
}

TEST_F(Universe, AWrittenPassIsReadableBeforeItIsCommitted) {
  const State state = soup_state("B3/S23:T128,4", 0);
  write_state(file("u.lbu"), state);
  const std::string before = contents(file("u.lbu"));
  const std::vector<std::uint64_t> words = pack_rows<std::uint64_t>(state.grid);
  const UniverseHeader header{state.problem, 9};
  {
    UniverseBlockWriter next(file("u.lbu"), header);
    next.write(0, 2, 0, 2, std::span(words).first(4));
    EXPECT_THROW(next.finish(), Error); // rows 2 and 3 missing
    next.write(2, 2, 0, 2, std::span(words).subspan(4));
    next.finish();
    // The next pass reads the temporary while `u.lbu` still holds the old generation.
    UniverseReader early(next.temporary());
    EXPECT_EQ(early.header().generation, 9U);
    std::vector<std::uint64_t> all(words.size());
    early.read_rows(0, 4, all);
    EXPECT_EQ(all, words);
    EXPECT_EQ(contents(file("u.lbu")), before);
    next.commit();
    EXPECT_EQ(UniverseReader(file("u.lbu")).header().generation, 9U);
    EXPECT_EQ(listing(), std::vector<std::string>{"u.lbu"});
  }
  {
    // Dropped before commit(): the file stays as it was and no temporary is left.
    UniverseBlockWriter abandoned(file("u.lbu"), UniverseHeader{state.problem, 10});
    abandoned.write(0, 4, 0, 2, words);
  }
  EXPECT_EQ(UniverseReader(file("u.lbu")).header().generation, 9U);
  EXPECT_EQ(listing(), std::vector<std::string>{"u.lbu"});
}

/// `state`'s universe written as a grid of `columns` x `rows` blocks, last block first, through
/// the page cache or past it.
void write_in_blocks(const std::filesystem::path& path, const State& state, int columns, int rows,
                     FileWrites writes) {
  const UniverseHeader header{state.problem, 3};
  const std::vector<std::uint64_t> words = pack_rows<std::uint64_t>(state.grid);
  const std::int64_t row_words = header.words_per_row();
  const std::int64_t height = state.problem.shape.height;
  const std::int64_t block_words = row_words / columns;
  const std::int64_t block_rows = height / rows;
  UniverseBlockWriter file(path, header, writes);
  for (std::int64_t b = std::int64_t{columns} * rows - 1; b >= 0; --b) {
    const std::int64_t y = b / columns * block_rows;
    const std::int64_t x = b % columns * block_words;
    std::vector<std::uint64_t> block;
    for (std::int64_t r = y; r < y + block_rows; ++r) {
      block.insert(block.end(), words.begin() + r * row_words + x,
                   words.begin() + r * row_words + x + block_words);
    }
    file.write(y, block_rows, x, block_words, block);
  }
  file.commit();
}

TEST_F(Universe, WrittenPastThePageCacheTheFileIsTheSame) {
  if (!takes_direct_io(file(""))) GTEST_SKIP() << "the temporary folder takes no O_DIRECT";
  // Rows of 16 KiB in blocks of whole pages (4 KiB, from unaligned memory); rows of 4 KiB in
  // blocks of 1 KiB, each a part of a page; rows of 32 bytes, a file that ends mid-page; and
  // whole rows, one piece a block.
  for (const auto& [spec, columns, rows] :
       std::vector<std::tuple<std::string, int, int>>{{"B3/S23:T131072,64", 4, 4},
                                                      {"B3/S23:T32768,24", 4, 3},
                                                      {"B3/S23:T256,90", 2, 5},
                                                      {"B3/S23:T8192,4000", 1, 8}}) {
    const State state = soup_state(spec, 0);
    write_in_blocks(file("cached.lbu"), state, columns, rows, FileWrites::cached);
    write_in_blocks(file("direct.lbu"), state, columns, rows, FileWrites::direct);
    const std::string cached = contents(file("cached.lbu"));
    const std::string direct = contents(file("direct.lbu"));
    EXPECT_EQ(direct.size(), cached.size()) << spec;
    EXPECT_TRUE(direct == cached) << spec;
    EXPECT_EQ(read_state(file("direct.lbu"), std::nullopt).grid, state.grid) << spec;
  }
  EXPECT_EQ(listing(), (std::vector<std::string>{"cached.lbu", "direct.lbu"}));
}

TEST_F(Universe, ADirectPassIsReadableBeforeItIsCommittedAndLeftWhole) {
  if (!takes_direct_io(file(""))) GTEST_SKIP() << "the temporary folder takes no O_DIRECT";
  const State state = soup_state("B3/S23:T200,7", 0); // 4 words a row: a file of 4320 bytes
  write_state(file("u.lbu"), state);
  const std::string before = contents(file("u.lbu"));
  const std::vector<std::uint64_t> words = pack_rows<std::uint64_t>(state.grid);
  {
    UniverseBlockWriter next(file("u.lbu"), UniverseHeader{state.problem, 9}, FileWrites::direct);
    next.write(4, 3, 0, 4, std::span(words).subspan(16)); // the last page first
    next.write(0, 4, 0, 4, std::span(words).first(16));
    next.finish();
    UniverseReader early(next.temporary()); // its size exact
    std::vector<std::uint64_t> all(words.size());
    early.read_rows(0, 7, all);
    EXPECT_EQ(all, words);
    EXPECT_EQ(contents(file("u.lbu")), before);
  }
  // Dropped before commit(): the file stays as it was and no temporary is left.
  EXPECT_EQ(contents(file("u.lbu")), before);
  EXPECT_EQ(listing(), std::vector<std::string>{"u.lbu"});
}

/// `state`'s rows as one block.
void write_rows(UniverseBlockWriter& writer, const State& state) {
  const std::vector<std::uint64_t> words = pack_rows<std::uint64_t>(state.grid);
  writer.write(0, state.problem.shape.height, 0, UniverseHeader{state.problem, 0}.words_per_row(),
               words);
}

/// The file at `path` (not a name for it).
ino_t inode_of(const std::filesystem::path& path) {
  struct stat status {};
  EXPECT_EQ(::stat(path.c_str(), &status), 0) << path;
  return status.st_ino;
}

TEST_F(Universe, ADirectPassWritesOverTheFileThePassBeforeReplaced) {
  if (!takes_direct_io(file(""))) GTEST_SKIP() << "the temporary folder takes no O_DIRECT";
  // Passes as an out-of-core run makes them, each committed before the next begins and handed
  // to it; universes of different sizes, so that a file written over is longer, then shorter,
  // than what is written.
  const std::vector<State> passes{soup_state("B3/S23:T200,7", 0), soup_state("B3/S23:T640,40", 1),
                                  soup_state("B3/S23:T64,3", 2), soup_state("B3/S23:T1024,50", 3)};
  write_state(file("u.lbu"), passes[0]);
  std::vector<ino_t> files{inode_of(file("u.lbu"))};
  std::unique_ptr<UniverseBlockWriter> before;
  for (std::size_t k = 1; k < passes.size(); ++k) {
    auto writer = std::make_unique<UniverseBlockWriter>(
        file("u.lbu"), UniverseHeader{passes[k].problem, k}, FileWrites::direct, before.get());
    if (k >= 2) {
      EXPECT_EQ(inode_of(writer->temporary()), files[k - 2]) << k; // written over
    }
    before.reset();
    write_rows(*writer, passes[k]);
    writer->commit();
    files.push_back(inode_of(file("u.lbu")));
    // The file replaced stays beside it, for the next pass, until the writer goes.
    EXPECT_EQ(inode_of(writer->temporary()), files[k - 1]) << k;
    EXPECT_EQ(listing().size(), 2U);
    const State back = read_state(file("u.lbu"), std::nullopt);
    EXPECT_EQ(back.grid, passes[k].grid) << k;
    EXPECT_EQ(back.generation, k);
    const UniverseHeader header{passes[k].problem, k};
    EXPECT_EQ(std::filesystem::file_size(file("u.lbu")), header.file_bytes());
    before = std::move(writer);
  }
  {
    // Handed over and dropped before commit(): the file stays as it was, nothing beside it.
    const std::string last = contents(file("u.lbu"));
    UniverseBlockWriter abandoned(file("u.lbu"), UniverseHeader{passes[1].problem, 9},
                                  FileWrites::direct, before.get());
    before.reset();
    write_rows(abandoned, passes[1]);
    EXPECT_EQ(contents(file("u.lbu")), last);
  }
  EXPECT_EQ(listing(), std::vector<std::string>{"u.lbu"});
}

TEST_F(Universe, AReplacedFileWithAnotherLinkIsNotWrittenOver) {
  if (!takes_direct_io(file(""))) GTEST_SKIP() << "the temporary folder takes no O_DIRECT";
  const State first = soup_state("B3/S23:T200,7", 0);
  const State second = soup_state("B3/S23:T640,40", 1);
  const State third = soup_state("B3/S23:T64,3", 2);
  write_state(file("u.lbu"), first);
  std::filesystem::create_hard_link(file("u.lbu"), file("kept.lbu"));
  const std::string kept = contents(file("kept.lbu"));
  auto pass = std::make_unique<UniverseBlockWriter>(
      file("u.lbu"), UniverseHeader{second.problem, 1}, FileWrites::direct);
  write_rows(*pass, second);
  pass->commit();
  {
    // Handed the first file, which has another name: a fresh file instead.
    UniverseBlockWriter next(file("u.lbu"), UniverseHeader{third.problem, 2}, FileWrites::direct,
                             pass.get());
    EXPECT_NE(inode_of(next.temporary()), inode_of(file("kept.lbu")));
    pass.reset();
    write_rows(next, third);
    next.commit();
  }
  EXPECT_EQ(contents(file("kept.lbu")), kept);
  EXPECT_EQ(read_state(file("u.lbu"), std::nullopt).grid, third.grid);
  EXPECT_EQ(listing(), (std::vector<std::string>{"kept.lbu", "u.lbu"}));
}

TEST_F(Universe, ADirectWriteOutsideTheFileIsRefused) {
  if (!takes_direct_io(file(""))) GTEST_SKIP() << "the temporary folder takes no O_DIRECT";
  DirectFileWriter file_writer(file("f.bin"), 5000);
  const std::vector<std::byte> bytes(100, std::byte{7});
  for (const std::int64_t offset :
       {std::int64_t{4950}, std::int64_t{-1}, std::numeric_limits<std::int64_t>::max() - 5}) {
    const DirectFileWriter::Piece outside{offset, bytes};
    EXPECT_NE(error_of([&] {
                file_writer.write({&outside, 1});
              }).find("lie outside its 5000"),
              std::string::npos)
        << offset;
  }
  const DirectFileWriter::Piece inside{4900, bytes};
  file_writer.write({&inside, 1});
  file_writer.commit();
  const std::string written = contents(file("f.bin"));
  ASSERT_EQ(written.size(), 5000U);
  EXPECT_EQ(written.substr(4900), std::string(100, '\x07'));
  EXPECT_EQ(written.substr(0, 4900), std::string(4900, '\0'));
}

TEST_F(Universe, DirectWritesFromAlignedMemoryInPiecesOfAnySize) {
  if (!takes_direct_io(file(""))) GTEST_SKIP() << "the temporary folder takes no O_DIRECT";
  // 9 MiB from page-aligned memory (written as it lies, in writes of 4 MiB at most), a piece
  // of nothing, and a write of no pieces.
  constexpr std::size_t kSize = std::size_t{9} << 20;
  std::unique_ptr<std::byte[], decltype(&std::free)> aligned(
      static_cast<std::byte*>(std::aligned_alloc(4096, kSize)), &std::free);
  for (std::size_t i = 0; i < kSize; ++i)
    aligned[i] = static_cast<std::byte>(i * 7 % 251);
  DirectFileWriter file_writer(file("f.bin"), 4096 + kSize);
  file_writer.write({});
  const std::array<DirectFileWriter::Piece, 2> pieces{
      DirectFileWriter::Piece{4096, {aligned.get(), kSize}}, DirectFileWriter::Piece{4096, {}}};
  file_writer.write(pieces);
  file_writer.commit();
  const std::string written = contents(file("f.bin"));
  ASSERT_EQ(written.size(), 4096 + kSize);
  EXPECT_EQ(written.substr(0, 4096), std::string(4096, '\0'));
  EXPECT_EQ(std::memcmp(written.data() + 4096, aligned.get(), kSize), 0);
}

TEST_F(Universe, StatesThatDoNotFit) {
  State cube{Problem{parse_rule_spec("B6/S567/3D").rule, Shape{4, 4, 4}, Boundary::torus},
             Grid(Shape{4, 4, 4}), 0};
  EXPECT_NE(error_of([&] { write_state(file("c.lbu"), cube); }).find("use .dat or .bin"),
            std::string::npos);
  State hex = soup_state("B3/S23:T8,8", 0);
  hex.problem.rule = parse_rule_spec("B2/S34H").rule;
  EXPECT_NE(error_of([&] { write_state(file("h.lbu"), hex); }).find("square-grid"),
            std::string::npos);
  EXPECT_TRUE(listing().empty());
}

TEST_F(Universe, ASoupWrittenRowByRowIsTheSoup) {
  const RuleSpec rule = parse_rule_spec("B3/S23:T130,33");
  const Problem problem{rule.rule, *rule.shape, rule.boundary};
  const SoupSpec soup{problem.shape, 0.4, 17};
  write_soup_universe(file("u.lbu"), problem, soup);
  const State back = read_state(file("u.lbu"), std::nullopt);
  EXPECT_EQ(back.problem, problem);
  EXPECT_EQ(back.generation, 0U);
  EXPECT_EQ(back.grid, make_soup(soup));

  EXPECT_THROW(write_soup_universe(file("v.lbu"), problem, SoupSpec{Shape{130, 32, 1}, 0.4, 17}),
               Error);
  EXPECT_EQ(listing(), (std::vector<std::string>{"u.lbu"})); // nothing of v.lbu
}

} // namespace
} // namespace lifebench
