//! What can go wrong writing a report file (`--report FILE.html`, `--json FILE`): a picture
//! plotters could not draw, or a file that could not be written.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// A report file that could not be written.
#[derive(Debug)]
pub enum ReportFileError {
    /// plotters could not draw one of the HTML page's pictures (in its own words: its error
    /// type is generic over the drawing backend).
    Draw(String),
    /// The HTML page could not be written to this path.
    Html(PathBuf, io::Error),
    /// The JSON report could not be written to this path.
    Json(PathBuf, io::Error),
}

impl ReportFileError {
    /// plotters' error, kept in its words.
    pub(super) fn draw(error: impl fmt::Display) -> ReportFileError {
        ReportFileError::Draw(error.to_string())
    }
}

impl fmt::Display for ReportFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportFileError::Draw(message) => f.write_str(message),
            ReportFileError::Html(path, e) => {
                write!(f, "cannot write the report {}: {e}", path.display())
            }
            ReportFileError::Json(path, e) => {
                write!(f, "cannot write the JSON report {}: {e}", path.display())
            }
        }
    }
}

impl std::error::Error for ReportFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReportFileError::Draw(_) => None,
            ReportFileError::Html(_, e) | ReportFileError::Json(_, e) => Some(e),
        }
    }
}
