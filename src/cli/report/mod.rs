//! The renderers of a match's report (the library returns it as data, [`shannon::arena::report`]):
//! the console's text and tables ([`text`]), the HTML page ([`html`]) and JSON ([`json`]).

pub mod html;
pub mod json;
pub mod text;
