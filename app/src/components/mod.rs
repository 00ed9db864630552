//! Pieces shared by pages.

mod figure;

pub use figure::FigureRow;
