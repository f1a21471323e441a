// Writing a file through a temporary beside it (atomic_file.cpp): the helpers that the
// writers of whole files, of memory maps and of direct I/O share.
#pragma once

#include <filesystem>

namespace lifebench::detail {

/// The file that writing `path` writes: `path` itself, or where the symbolic link `path` (and
/// any link it names) leads, so that a link is written through, not replaced by a file.
std::filesystem::path through_links(const std::filesystem::path& path);

/// A name beside `path` that no other writer picks: 64 random bits.
std::filesystem::path temporary_beside(const std::filesystem::path& path);

/// Renames `temporary` (synced) over `path`: atomic within one folder.
void rename_into_place(const std::filesystem::path& temporary, const std::filesystem::path& path);

/// Syncs the folder of `path` after a rename into it.
void sync_folder_of(const std::filesystem::path& path);

} // namespace lifebench::detail
