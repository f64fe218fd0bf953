//! Helpers shared by the tests of the Qiguo workspace (a dev-dependency only). No dependencies
//! of its own, so that it adds no features to the crates the game and its tests share.

#![deny(missing_docs)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// A directory of its own for one test, empty when made and removed (with everything in it)
/// when dropped. Named after the test, the process and a counter, so that tests running at
/// once, in one process or several, never share one.
#[derive(Debug)]
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// A fresh, empty directory for the test called `name`.
    pub fn new(name: &str) -> TempDir {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("qiguo-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|e| panic!("cannot make {}: {e}", path.display()));
        TempDir { path }
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its path, keeping the directory after the test (for a directory handed to something
    /// that outlives this value).
    pub fn keep(self) -> PathBuf {
        let path = self.path.clone();
        std::mem::forget(self);
        path
    }

    /// A path inside it.
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.path.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_dir_is_fresh_and_removed_when_dropped() {
        let a = TempDir::new("testkit");
        let b = TempDir::new("testkit");
        assert_ne!(a.path(), b.path());
        std::fs::write(a.join("file"), "x").unwrap();
        let kept = a.path().to_owned();
        drop(a);
        assert!(!kept.exists());
        assert!(b.path().is_dir());
    }
}
