#pragma once
// Before a run starts: can its output template be written? The launcher refuses to start a run
// whose trace could not be written (rather than run it and lose it), with the reason.
#include <string>

namespace strata {

// The folder of `outputTemplate` (absolute, {time} filled in) exists and is writable; the file
// name each process makes of it fits the file system's limits (NAME_MAX of the folder, PATH_MAX)
// with {pid} at its widest, {rank} = `rank` and {host} this host; and, without `force`, no
// earlier recording would be overwritten (a template with {pid} gives a new name per process; one
// without names the same file in every run); with `force`, what is there is a regular file (never
// a symbolic link). False with the reason otherwise. An early answer for the user: files are
// created exclusively whatever it said (io/strata/strata_file_create.h).
bool checkOutputTemplate(const std::string& outputTemplate, const std::string& rank, bool force,
                         std::string* error);

// checkOutputTemplate's checks of the file alone (its name's length, what is there already), for
// a caller that checked the folder itself (the Launch dialog, which says why in its own words).
bool checkOutputFile(const std::string& outputTemplate, const std::string& rank, bool force,
                     std::string* error);

// `dir` (an existing folder) takes new files: its permissions allow it, and a file created in it
// (a hidden one, removed at once) proves it, since root passes every permission check and some
// file systems refuse what the bits allow (sysfs, a read-only FUSE or NFS mount). False with
// "output folder DIR is not writable: REASON" otherwise.
bool checkFolderWritable(const std::string& dir, std::string* error);

} // namespace strata
