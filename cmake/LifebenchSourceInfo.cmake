# The source tree that built the binaries, recorded in every results manifest
# (harness/RESULTS.md: build.source_hash, git_commit, git_dirty, commit_source).
#
# The source hash is SHA-256 over the files that build (LIFEBENCH_SOURCE_ROOTS below): a line
# "<SHA-256 of the file>  <path from the root>\n" per file, in the byte order of the paths.
# A copied tree gives the hash of its origin, wherever it lies, so that a tree without git
# metadata can still be tied to its commit: tools/stamp-commit writes the commit, the dirty flag
# and the hash into .source-stamp, which the build trusts only while the hash still matches.
#
# lifebench_add_source_info(<target>) compiles into <target> a generated .cpp that defines
# lifebench::driver::source_info() (harness/driver/source_info.hpp). The script runs at every
# build, before <target> compiles, and rewrites the .cpp only when something changed, so a
# no-op rebuild compiles nothing (hashing the few hundred files takes well under a second).
#
# The same file as a script (cmake -P), with LIFEBENCH_SOURCE_DIR set and either
#   LIFEBENCH_SOURCE_INFO_OUTPUT=<file.cpp>   writes the generated .cpp, or
#   LIFEBENCH_STAMP=<file>                    writes the stamp of the tree, a git checkout.

set(LIFEBENCH_SOURCE_ROOTS CMakeLists.txt CMakePresets.json cmake impl harness kernels experiments)

if(CMAKE_SCRIPT_MODE_FILE)
  cmake_policy(VERSION 3.25)
  # "sha256:<hex>" of the tree at `root`.
  function(lifebench_source_hash root out_var)
    set(files "")
    foreach(entry IN LISTS LIFEBENCH_SOURCE_ROOTS)
      if(IS_DIRECTORY "${root}/${entry}")
        file(GLOB_RECURSE found LIST_DIRECTORIES false RELATIVE "${root}" "${root}/${entry}/*")
        list(APPEND files ${found})
      elseif(EXISTS "${root}/${entry}")
        list(APPEND files "${entry}")
      endif()
    endforeach()
    # Python's caches are made by running, not written (git ignores them too).
    list(FILTER files EXCLUDE REGEX "(^|/)__pycache__/")
    list(SORT files)
    set(lines "")
    foreach(file IN LISTS files)
      file(SHA256 "${root}/${file}" file_hash)
      string(APPEND lines "${file_hash}  ${file}\n")
    endforeach()
    string(SHA256 hash "${lines}")
    set(${out_var} "sha256:${hash}" PARENT_SCOPE)
  endfunction()

  # The commit checked out at `root` and whether files of the source tree differ from it
  # (results/, build/ and the rest do not count); both empty where `root` is not the top of a
  # git checkout (a copy inside another checkout must not take that one's commit).
  function(lifebench_git_state root commit_var dirty_var time_var)
    set(${commit_var} "" PARENT_SCOPE)
    set(${dirty_var} "" PARENT_SCOPE)
    set(${time_var} "" PARENT_SCOPE)
    find_program(LIFEBENCH_GIT git)
    if(NOT LIFEBENCH_GIT)
      return()
    endif()
    execute_process(COMMAND "${LIFEBENCH_GIT}" -C "${root}" rev-parse --show-toplevel
                    OUTPUT_VARIABLE top RESULT_VARIABLE failed ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(failed)
      return()
    endif()
    file(REAL_PATH "${root}" real_root)
    file(REAL_PATH "${top}" real_top)
    if(NOT real_root STREQUAL real_top)
      return()
    endif()
    execute_process(COMMAND "${LIFEBENCH_GIT}" -C "${root}" rev-parse --verify --quiet HEAD
                    OUTPUT_VARIABLE commit RESULT_VARIABLE failed ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(failed)
      return()
    endif()
    # --no-optional-locks: a build must not take the index's lock from the user's git.
    execute_process(COMMAND "${LIFEBENCH_GIT}" --no-optional-locks -C "${root}" status
                            --porcelain --untracked-files=all -- ${LIFEBENCH_SOURCE_ROOTS}
                    OUTPUT_VARIABLE changes RESULT_VARIABLE failed ERROR_QUIET)
    if(failed OR NOT changes STREQUAL "")
      set(dirty true)
    else()
      set(dirty false)
    endif()
    # The committer's date orders a machine's history (git's order, not that of the runs).
    execute_process(COMMAND "${LIFEBENCH_GIT}" -C "${root}" show -s --format=%cI HEAD
                    OUTPUT_VARIABLE time ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(${commit_var} "${commit}" PARENT_SCOPE)
    set(${dirty_var} "${dirty}" PARENT_SCOPE)
    set(${time_var} "${time}" PARENT_SCOPE)
  endfunction()

  if(NOT DEFINED LIFEBENCH_SOURCE_DIR)
    message(FATAL_ERROR "LifebenchSourceInfo.cmake as a script needs LIFEBENCH_SOURCE_DIR")
  endif()
  set(root "${LIFEBENCH_SOURCE_DIR}")
  set(stamp_file "${root}/.source-stamp")
  lifebench_source_hash("${root}" source_hash)
  lifebench_git_state("${root}" commit dirty commit_time)

  if(DEFINED LIFEBENCH_STAMP)
    if(commit STREQUAL "")
      message(FATAL_ERROR "stamp-commit: ${root} is not the top of a git checkout with a commit")
    endif()
    file(WRITE "${LIFEBENCH_STAMP}" "commit ${commit}\ndirty ${dirty}\nsource_hash ${source_hash}\n"
                                    "commit_time ${commit_time}\n")
    message(STATUS "${LIFEBENCH_STAMP}: commit ${commit}, dirty ${dirty}, ${source_hash}")
    return()
  endif()
  if(NOT DEFINED LIFEBENCH_SOURCE_INFO_OUTPUT)
    message(FATAL_ERROR "LifebenchSourceInfo.cmake as a script needs LIFEBENCH_SOURCE_INFO_OUTPUT "
                        "or LIFEBENCH_STAMP")
  endif()

  # A copied tree may carry stale git metadata beside a stamp (a GPU machine's copy of a
  # checkout whose .git is older than its files): git's answer is taken where the tree is
  # its commit, else the stamp's where the tree is the one stamped, else whichever says more.
  set(stamp_matches false)
  if(EXISTS "${stamp_file}")
    file(STRINGS "${stamp_file}" stamp)
    foreach(line IN LISTS stamp)
      if(line MATCHES "^(commit|dirty|source_hash|commit_time) (.+)$")
        set(stamp_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
      endif()
    endforeach()
    if(NOT stamp_commit MATCHES "^[0-9a-f]+$" OR NOT stamp_dirty MATCHES "^(true|false)$")
      message(FATAL_ERROR "${stamp_file} is not a stamp of tools/stamp-commit: run it again "
                          "in the git checkout, or delete the file")
    endif()
    if(stamp_source_hash STREQUAL source_hash)
      set(stamp_matches true)
    endif()
  endif()
  if(NOT commit STREQUAL "" AND dirty STREQUAL "false")
    set(commit_source git)
  elseif(stamp_matches)
    set(commit_source stamp)
    set(commit "${stamp_commit}")
    set(dirty "${stamp_dirty}")
    set(commit_time "${stamp_commit_time}") # empty in a stamp written before it was recorded
  elseif(NOT commit STREQUAL "")
    set(commit_source git)
  elseif(EXISTS "${stamp_file}")
    # The stamp's commit, dirty since the tree is no longer the one stamped.
    set(commit_source stamp)
    set(commit "${stamp_commit}")
    set(dirty true)
    set(commit_time "${stamp_commit_time}")
  else()
    set(commit_source unknown)
  endif()
  if(commit STREQUAL "")
    set(commit_json null)
    set(dirty_json null)
  else()
    set(commit_json "\"${commit}\"")
    set(dirty_json "${dirty}")
  endif()
  if(commit_time STREQUAL "")
    set(time_json null)
  else()
    set(time_json "\"${commit_time}\"")
  endif()
  set(json "{\"source_hash\": \"${source_hash}\", \"git_commit\": ${commit_json}, \"git_dirty\": ${dirty_json}, \"git_commit_time\": ${time_json}, \"commit_source\": \"${commit_source}\"}")
  # file(CONFIGURE) leaves the file untouched when its content is the same, so nothing
  # recompiles after a build that changed nothing.
  file(CONFIGURE OUTPUT "${LIFEBENCH_SOURCE_INFO_OUTPUT}" CONTENT
"// Generated at build time by cmake/LifebenchSourceInfo.cmake: do not edit.
#include \"source_info.hpp\"

namespace lifebench::driver {

nlohmann::json source_info() {
  return nlohmann::json::parse(R\"json(@json@)json\");
}

} // namespace lifebench::driver
" @ONLY)
  return()
endif()

function(lifebench_add_source_info target)
  set(output "${CMAKE_CURRENT_BINARY_DIR}/generated/source_info.cpp")
  add_custom_target(${target}.source_info
    COMMAND "${CMAKE_COMMAND}" -DLIFEBENCH_SOURCE_DIR=${PROJECT_SOURCE_DIR}
            -DLIFEBENCH_SOURCE_INFO_OUTPUT=${output} -P "${CMAKE_CURRENT_FUNCTION_LIST_FILE}"
    BYPRODUCTS "${output}"
    COMMENT "Hashing the source tree"
    VERBATIM)
  target_sources(${target} PRIVATE "${output}")
  add_dependencies(${target} ${target}.source_info)
endfunction()
