//! The JSON renderer of a match report (`--json FILE` of `shannon match` and `shannon merge`):
//! the whole report, every field by its name, for scripts.

use super::error::ReportFileError;
use shannon::arena::MatchReport;
use std::path::Path;

/// Write `report` as JSON to `path`.
pub fn write_json(path: &Path, report: &MatchReport) -> Result<(), ReportFileError> {
    let text = serde_json::to_string_pretty(report).expect("a report serialises");
    std::fs::write(path, text + "\n").map_err(|e| ReportFileError::Json(path.to_path_buf(), e))
}
