//! The evaluation's weights in a file, as `qiguo-fit-eval` writes them and `qiguo-selfplay
//! --eval/--measured-eval` reads them: one JSON object, `{"qiguo_eval_weights": 1, "weights":
//! {…}, "fit": {…}}` — the fields of [`Weights`] by name, and what the fit measured (free form,
//! for the reader).

use std::path::{Path, PathBuf};

use qiguo_ai::eval::Weights;

/// The version of the file's format.
pub const FORMAT: u64 = 1;

/// Why a file of weights cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    /// The file cannot be read or written.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Not JSON of weights.
    #[error("{}: not a file of evaluation weights ({source})", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What the reader found.
        source: serde_json::Error,
    },
    /// Another version of the format.
    #[error("{}: evaluation weights of format {found}; this build reads format {FORMAT}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version it says.
        found: u64,
    },
}

#[derive(serde::Serialize, serde::Deserialize)]
struct File {
    qiguo_eval_weights: u64,
    weights: Weights,
    #[serde(default)]
    fit: serde_json::Value,
}

/// The weights in the file at `path`.
pub fn read(path: &Path) -> Result<Weights, WeightsError> {
    let text = std::fs::read_to_string(path).map_err(|source| WeightsError::File {
        path: path.to_owned(),
        source,
    })?;
    let format = |source| WeightsError::Format {
        path: path.to_owned(),
        source,
    };
    let value: serde_json::Value = serde_json::from_str(&text).map_err(format)?;
    // The version first: a later format may name its fields otherwise.
    if let Some(found) = value["qiguo_eval_weights"].as_u64()
        && found != FORMAT
    {
        return Err(WeightsError::Version {
            path: path.to_owned(),
            found,
        });
    }
    let file: File = serde_json::from_value(value).map_err(format)?;
    Ok(file.weights)
}

/// Writes `weights` to `path` with what their fit measured.
pub fn write(path: &Path, weights: &Weights, fit: serde_json::Value) -> Result<(), WeightsError> {
    let file = File {
        qiguo_eval_weights: FORMAT,
        weights: *weights,
        fit,
    };
    let text = serde_json::to_string_pretty(&file).expect("weights are plain numbers");
    std::fs::write(path, text + "\n").map_err(|source| WeightsError::File {
        path: path.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_go_through_a_file_and_bad_files_are_named() {
        let dir = qiguo_testkit::TempDir::new("qiguo-weights");
        let path = dir.path().join("w.json");
        let mut w = Weights::HAND;
        w.ending[3] = 412;
        w.mobility = 5;
        write(&path, &w, serde_json::json!({"held_out": -1.5})).unwrap();
        assert_eq!(read(&path).unwrap(), w);

        std::fs::write(&path, r#"{"qiguo_eval_weights": 2, "weights": {}}"#).unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("format 2"), "{e}");
        std::fs::write(&path, "[1, 2]").unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("not a file of evaluation weights"), "{e}");
        let e = read(&dir.path().join("none.json")).unwrap_err().to_string();
        assert!(e.contains("none.json"), "{e}");
    }
}
