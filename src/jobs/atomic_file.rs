//! Saving a file so that a kill or a power cut at any moment leaves either the old content or
//! the new, never a mixture: write a temporary file beside it, sync it, rename it over the old
//! one, and sync the folder (so the rename itself survives a power cut). Random-games
//! checkpoints and match state files both save this way. And checking, before long work, that a
//! file can be written at all.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Replace `path`'s content with `bytes`, atomically.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    {
        let mut file = File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
    }
    std::fs::rename(&temporary, path)?;
    sync_folder(path);
    Ok(())
}

/// Sync the folder holding `path`, so that a file made or renamed there survives a power cut.
/// Not every file system syncs a folder: a failure is ignored.
pub fn sync_folder(path: &Path) {
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if let Ok(folder) = File::open(folder) {
        let _ = folder.sync_all();
    }
}

/// Check that `path` can be written, changing nothing: an existing file is opened for writing
/// (and left as it is), a new one is made and removed again.
pub fn check_writable(path: &Path) -> io::Result<()> {
    if path.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map(drop)
    } else {
        File::create_new(path).and_then(|file| {
            drop(file);
            std::fs::remove_file(path)
        })
    }
}
