//! The evaluation's weights and the search's constants in files, as `qiguo-fit-eval` and
//! `qiguo-spsa` write them and `qiguo-selfplay --eval/--measured-eval` and
//! `--search/--measured-search` read them: one JSON object each, `{"qiguo_eval_weights": 1,
//! "weights": {…}, "fit": {…}}` or `{"qiguo_search_params": 1, "params": {…}, "tuned": {…}}` —
//! the fields of [`Weights`] or [`SearchParams`] by name, and what the fit or the tuning
//! measured (free form, for the reader).

use std::path::{Path, PathBuf};

use qiguo_ai::SearchParams;
use qiguo_ai::eval::Weights;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The version of the files' format.
pub const FORMAT: u64 = 1;

/// Why a file of weights or constants cannot be used.
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
    /// Not JSON of what was asked for.
    #[error("{}: not a file of {what} ({source})", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What it should hold.
        what: &'static str,
        /// What the reader found.
        source: serde_json::Error,
    },
    /// Another version of the format.
    #[error("{}: {what} of format {found}; this build reads format {FORMAT}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// What it holds.
        what: &'static str,
        /// The version it says.
        found: u64,
    },
    /// Not a network of the engine's format.
    #[error("{}: {source}", path.display())]
    Net {
        /// The file.
        path: PathBuf,
        /// What the engine's reader said.
        source: qiguo_ai::net::NetError,
    },
    /// A search constant outside what a search can run with.
    #[error("{}: {name} is {value}, outside {low} to {high}", path.display())]
    Range {
        /// The file.
        path: PathBuf,
        /// The constant.
        name: &'static str,
        /// Its value in the file.
        value: i64,
        /// The least it may be.
        low: i64,
        /// The most it may be.
        high: i64,
    },
}

/// What a kind of file holds: its tag (naming the format's version), the field holding it,
/// the field of what measured it, and its name in messages.
struct Kind {
    tag: &'static str,
    field: &'static str,
    measured: &'static str,
    what: &'static str,
}

const WEIGHTS: Kind = Kind {
    tag: "qiguo_eval_weights",
    field: "weights",
    measured: "fit",
    what: "evaluation weights",
};

const PARAMS: Kind = Kind {
    tag: "qiguo_search_params",
    field: "params",
    measured: "tuned",
    what: "search constants",
};

/// The weights in the file at `path`.
pub fn read(path: &Path) -> Result<Weights, WeightsError> {
    read_kind(path, &WEIGHTS)
}

/// Writes `weights` to `path` with what their fit measured.
pub fn write(path: &Path, weights: &Weights, fit: serde_json::Value) -> Result<(), WeightsError> {
    write_kind(path, &WEIGHTS, weights, fit)
}

/// The network in the file at `path`, as `qiguo-train-net` writes it.
pub fn read_net(path: &Path) -> Result<qiguo_ai::net::Net, WeightsError> {
    let bytes = std::fs::read(path).map_err(|source| WeightsError::File {
        path: path.to_owned(),
        source,
    })?;
    qiguo_ai::net::Net::from_bytes(&bytes).map_err(|source| WeightsError::Net {
        path: path.to_owned(),
        source,
    })
}

/// The search's constants in the file at `path`, each within its range.
pub fn read_params(path: &Path) -> Result<SearchParams, WeightsError> {
    let params: SearchParams = read_kind(path, &PARAMS)?;
    match params.out_of_range() {
        None => Ok(params),
        Some((name, value, (low, high))) => Err(WeightsError::Range {
            path: path.to_owned(),
            name,
            value,
            low,
            high,
        }),
    }
}

/// Writes the search's constants `params` to `path` with what their tuning measured.
pub fn write_params(
    path: &Path,
    params: &SearchParams,
    tuned: serde_json::Value,
) -> Result<(), WeightsError> {
    write_kind(path, &PARAMS, params, tuned)
}

fn read_kind<T: DeserializeOwned>(path: &Path, kind: &Kind) -> Result<T, WeightsError> {
    let text = std::fs::read_to_string(path).map_err(|source| WeightsError::File {
        path: path.to_owned(),
        source,
    })?;
    let format = |source| WeightsError::Format {
        path: path.to_owned(),
        what: kind.what,
        source,
    };
    let mut value: serde_json::Value = serde_json::from_str(&text).map_err(format)?;
    // The version first: a later format may name its fields otherwise.
    match value[kind.tag].as_u64() {
        Some(FORMAT) => {}
        Some(found) => {
            return Err(WeightsError::Version {
                path: path.to_owned(),
                what: kind.what,
                found,
            });
        }
        None => {
            let missing = serde::de::Error::missing_field(kind.tag);
            return Err(format(missing));
        }
    }
    serde_json::from_value(value[kind.field].take()).map_err(format)
}

fn write_kind<T: Serialize>(
    path: &Path,
    kind: &Kind,
    values: &T,
    measured: serde_json::Value,
) -> Result<(), WeightsError> {
    let mut file = serde_json::Map::new();
    file.insert(kind.tag.into(), FORMAT.into());
    file.insert(
        kind.field.into(),
        serde_json::to_value(values).expect("plain numbers"),
    );
    file.insert(kind.measured.into(), measured);
    let text = serde_json::to_string_pretty(&file).expect("plain numbers");
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

    #[test]
    fn search_constants_go_through_a_file_and_wild_ones_are_refused() {
        let dir = qiguo_testkit::TempDir::new("qiguo-params");
        let path = dir.path().join("p.json");
        let params = SearchParams {
            lmr_after: 4,
            repeat_margin: 120,
            ..SearchParams::HAND
        };
        write_params(&path, &params, serde_json::json!({"iterations": 10})).unwrap();
        assert_eq!(read_params(&path).unwrap(), params);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"qiguo_search_params\": 1"), "{text}");
        // Weights are not constants, nor constants weights.
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("not a file of evaluation weights"), "{e}");
        write(&path, &Weights::HAND, serde_json::json!({})).unwrap();
        let e = read_params(&path).unwrap_err().to_string();
        assert!(e.contains("not a file of search constants"), "{e}");
        // A constant no search can run with.
        let wild = SearchParams {
            lmr_after: 500,
            ..SearchParams::HAND
        };
        write_params(&path, &wild, serde_json::json!({})).unwrap();
        let e = read_params(&path).unwrap_err().to_string();
        assert!(e.ends_with("lmr_after is 500, outside 0 to 64"), "{e}");
    }
}
