// What `run` reads from --input: the file's state, a pattern of Golly's unbounded plane on the
// smallest grid around it that the experiment runs (lifebench/plane.hpp).
#pragma once

#include "commands.hpp"
#include "lifebench/experiment.hpp"
#include "lifebench/state_io.hpp"

namespace lifebench::harness {

/// The first grid of at least `least` cells on which `info` runs `rule` with `params`, among
/// `least`'s sides rounded up to multiples of 1, 2, 4, ... (each a rectangle, then a square),
/// each with a dead boundary, then a torus (either gives Golly's plane). The experiment's
/// own refusals (unsupported) decide, so that the multiples a technique needs (64-bit
/// words, tiles, bands of rows) come from where they are stated. Throws Error with the
/// refusal of `least` itself where none runs.
Problem smallest_plane(const ExperimentInfo& info, const Params& params, const Rule& rule,
                       Shape least);

/// Throws Error, naming `source` (the input or the soup), where a run that holds `problem`'s
/// grid in memory would not fit in this machine's (require_run_fits_in_memory): for a caller
/// to refuse before the grid is made. Streamed runs hold no grid and need not ask.
void require_room_to_run(const std::string& source, const Problem& problem);

/// Reads `request.input` for `run`: a pattern of the unbounded plane gets the margin of
/// `request.generations` on `smallest_plane`; `request.rule` replaces the file's, with one
/// warning line on standard error where they differ. Throws Error where `request.output`
/// cannot hold the state (the plane's only as RLE) and, before the grid is made, where a run on
/// it would not fit in memory (require_room_to_run).
State read_run_input(const ExperimentInfo& info, const Params& params, const RunRequest& request);

} // namespace lifebench::harness
